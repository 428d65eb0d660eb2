// Regression: a form body containing `ssl_check=1` skipped the signature check and went on to Bolt,
// so an unsigned Try again click asked the robot as any user and overwrote any bot message. This
// sweeps every body shape Slack can send, in both encodings, with and without `ssl_check=1`, unsigned
// and wrongly signed: each is refused (or answered as an SSL check) and nothing reaches the platform
// or Slack's Web API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PATH } from '../../../src/platform/schemas.js';
import { encodeTryAgainValue } from '../../../src/slack/kit/button-values.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { type GatewayHarness, SIGNING_SECRET, startGatewayHarness } from '../../support/gateway-harness.js';
import {
  appMention,
  assistantThreadEvent,
  blockActionsPayload,
  directMessage,
  eventCallback,
  IDS,
  nextTs,
} from '../../support/slack-payloads.js';
import {
  FORM_CONTENT_TYPE,
  JSON_CONTENT_TYPE,
  nowSeconds,
  type SlackAppResponse,
  signSlackRequest,
} from '../../support/slack-signing.js';

let harness: GatewayHarness;

beforeAll(async () => {
  harness = await startGatewayHarness();
});
afterAll(async () => {
  await harness.close();
});

const QUESTION = 'What are your opening hours?';
const tryAgainValue = encodeTryAgainValue({ question: QUESTION, docId: undefined }) ?? '';

/** A Try again click on any bot message, by any user: what the attacker forged. */
const tryAgainClick = blockActionsPayload({
  user: 'U_VICTIM',
  channel: 'C_ANY',
  message: { ts: nextTs() },
  actions: [{ action_id: 'try_again', value: tryAgainValue, text: 'Try again' }],
});

const view = {
  id: 'V1',
  team_id: IDS.team,
  type: 'modal',
  callback_id: 'anything',
  state: { values: {} },
  hash: '1.abc',
  private_metadata: '',
};

/** Someone opening the app's Home tab: answered with views.publish when signed. */
const homeOpened = {
  type: 'app_home_opened',
  user: 'U_VICTIM',
  channel: 'D_VICTIM',
  tab: 'home',
  event_ts: nextTs(),
};

/** Every kind of request Slack sends to a Request URL, as the object it carries. */
const SHAPES: Array<[string, object]> = [
  ['event_callback', eventCallback({ type: 'reaction_added', user: IDS.user, reaction: 'tada' })],
  ['message', eventCallback(directMessage({ text: QUESTION }))],
  ['app_mention', eventCallback(appMention({ text: `<@${IDS.botUser}> ${QUESTION}` }))],
  ['app_home_opened', eventCallback(homeOpened)],
  [
    'assistant_thread_started',
    eventCallback(
      assistantThreadEvent('assistant_thread_started', { user: 'U_VICTIM', contextChannel: 'C_ANY' }),
    ),
  ],
  [
    'assistant_thread_context_changed',
    eventCallback(
      assistantThreadEvent('assistant_thread_context_changed', { user: 'U_VICTIM', contextChannel: 'C_ANY' }),
    ),
  ],
  [
    'block_actions of feedback_buttons',
    blockActionsPayload({
      user: 'U_VICTIM',
      channel: 'C_ANY',
      actions: [
        {
          action_id: 'rate_feedback',
          block_id: 'rating',
          type: 'feedback_buttons',
          value: '{"v":1,"k":"any-context","r":2}',
          text: '👎',
        },
      ],
    }),
  ],
  ['block_actions', tryAgainClick],
  [
    'view_submission',
    { type: 'view_submission', team: { id: IDS.team }, user: { id: IDS.user }, view, trigger_id: '1.2.a' },
  ],
  [
    'view_submission of the edit modal',
    {
      type: 'view_submission',
      team: { id: IDS.team },
      user: { id: 'U_VICTIM' },
      view: {
        ...view,
        callback_id: 'edit_entry',
        private_metadata: '{"v":1,"d":"doc-password-reset"}',
        state: {
          values: {
            edit_used_flag: {
              edit_used_flag: { type: 'static_select', selected_option: { value: 'disabled' } },
            },
          },
        },
      },
      trigger_id: '1.2.d',
    },
  ],
  [
    'view_submission of the tickets filter',
    {
      type: 'view_submission',
      team: { id: IDS.team },
      user: { id: 'U_VICTIM' },
      view: {
        ...view,
        callback_id: 'ticket_filter',
        private_metadata: '{"v":1,"c":"/cs"}',
        state: {
          values: {
            tickets_from: { value: { type: 'datepicker', selected_date: '2026-11-01' } },
            tickets_to: { value: { type: 'datepicker', selected_date: '2026-11-20' } },
          },
        },
      },
      trigger_id: '1.2.f',
    },
  ],
  [
    'block_actions of a tickets result',
    blockActionsPayload({
      user: 'U_VICTIM',
      channel: 'C_ANY',
      actions: [
        {
          action_id: 'tickets_csv',
          value: '{"v":1,"f":"2026-11-01","t":"2026-11-20","z":"UTC","s":[],"o":[],"p":1}',
          text: 'Download CSV',
        },
      ],
    }),
  ],
  [
    'view_submission of the channel settings modal',
    {
      type: 'view_submission',
      team: { id: IDS.team },
      user: { id: 'U_VICTIM' },
      view: {
        ...view,
        callback_id: 'channel_settings',
        private_metadata: '{"v":1,"c":"C_ANY"}',
        state: { values: { channel_answer: { channel_answer: { selected_option: { value: 'all' } } } } },
      },
      trigger_id: '1.2.g',
    },
  ],
  [
    'block_actions of a channel settings Edit',
    blockActionsPayload({
      user: 'U_VICTIM',
      channel: 'C_ANY',
      actions: [{ action_id: 'channel_settings_edit', value: 'C0ANY', text: 'Edit' }],
    }),
  ],
  ['view_closed', { type: 'view_closed', team: { id: IDS.team }, user: { id: IDS.user }, view }],
  [
    'message shortcut',
    {
      type: 'message_action',
      callback_id: 'edit_answer',
      team: { id: IDS.team },
      user: { id: 'U_VICTIM' },
      channel: { id: IDS.channel },
      message: {
        ts: nextTs(),
        bot_id: IDS.bot,
        blocks: [{ type: 'section', block_id: 'entry:doc-wifi', text: { type: 'mrkdwn', text: 'x' } }],
      },
      trigger_id: '1.2.e',
    },
  ],
  [
    'shortcut',
    {
      type: 'shortcut',
      callback_id: 'ask',
      team: { id: IDS.team },
      user: { id: IDS.user },
      trigger_id: '1.2.b',
    },
  ],
  [
    'slash command',
    {
      command: '/cs',
      text: QUESTION,
      team_id: IDS.team,
      user_id: IDS.user,
      channel_id: IDS.channel,
      response_url: 'https://hooks.slack.com/commands/T/1/x',
      trigger_id: '1.2.c',
    },
  ],
  [
    'options request',
    {
      type: 'block_suggestion',
      action_id: 'pick',
      block_id: 'b',
      value: 'op',
      team: { id: IDS.team },
      user: { id: IDS.user },
    },
  ],
];

/** The body in Slack's two encodings, with or without a smuggled `ssl_check=1`. */
function encode(shape: object, encoding: 'form' | 'json', sslCheck: boolean): string {
  if (encoding === 'json') return JSON.stringify(sslCheck ? { ssl_check: '1', ...shape } : shape);
  const form = new URLSearchParams();
  if (sslCheck) form.set('ssl_check', '1');
  // A slash command is plain fields; every other kind is one `payload` field holding JSON.
  if ('command' in shape) for (const [key, value] of Object.entries(shape)) form.set(key, String(value));
  else form.set('payload', JSON.stringify(shape));
  return form.toString();
}

type Signing = 'unsigned' | 'wrong secret' | 'signature of another body' | 'stale';

function signingHeaders(signing: Signing, body: string): Record<string, string> {
  switch (signing) {
    case 'unsigned':
      return {};
    case 'wrong secret':
      return { ...signSlackRequest('not-the-signing-secret', body) };
    case 'signature of another body':
      // A genuine signature, of the body without what was smuggled into it.
      return { ...signSlackRequest(SIGNING_SECRET, body.replace(/ssl_check=1&?|"ssl_check":"1",?/, '')) };
    case 'stale':
      return { ...signSlackRequest(SIGNING_SECRET, body, nowSeconds() - 10 * 60) };
  }
}

async function post(body: string, contentType: string, headers: Record<string, string>) {
  const response = await fetch(`${harness.url}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...headers },
    body,
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const CASES = SHAPES.flatMap(([kind, shape]) =>
  (['form', 'json'] as const).flatMap((encoding) =>
    [false, true].flatMap((sslCheck) =>
      (['unsigned', 'wrong secret', 'signature of another body', 'stale'] as const)
        // Without anything smuggled, "another body" is the body itself: a valid signature.
        .filter((signing) => sslCheck || signing !== 'signature of another body')
        .map((signing) => ({ kind, shape, encoding, sslCheck, signing })),
    ),
  ),
);

/** Every `response_url` in a forged body points at the fake, so a reply sent to it would be seen. */
function withResponseUrlAtTheFake(shape: object): object {
  return 'response_url' in shape ? { ...shape, response_url: harness.slack.responseUrl('forged') } : shape;
}

/** Platform requests since `mark`, less the access token's. */
function platformRequestsSince(mark: number) {
  return harness.simulator.received.slice(mark).filter((request) => request.path !== TOKEN_PATH);
}

/** Slack Web API calls (and response_url posts) since `mark`, less the app's own auth.test. */
function slackCallsSince(mark: number) {
  return harness.slack
    .calls()
    .slice(mark)
    .filter((call) => call.method !== 'auth.test');
}

const CONTROL_USER = 'U_CONTROL';
const CONTROL_CHANNEL = 'C_CONTROL';

/**
 * A correctly signed Try again click, waited for until it is answered in place: sent after forged
 * requests, anything they set going has had its turn by then. Its question is its own.
 */
async function signedControl(): Promise<{ question: string; ts: string }> {
  const question = 'How do I reset my password?';
  const ts = nextTs();
  const click = blockActionsPayload({
    user: CONTROL_USER,
    channel: CONTROL_CHANNEL,
    message: { ts },
    response_url: harness.slack.responseUrl('control'),
    actions: [
      {
        action_id: 'try_again',
        value: encodeTryAgainValue({ question, docId: undefined }) ?? '',
        text: 'Try again',
      },
    ],
  });
  const body = encode(click, 'form', false);
  const response = await post(body, FORM_CONTENT_TYPE, { ...signSlackRequest(SIGNING_SECRET, body) });
  expect(response.status).toBe(200);
  await harness.slack.waitForCall(
    'chat.update',
    (call) => call.body.ts === ts && String(call.body.text).includes('password portal'),
    8_000,
  );
  return { question, ts };
}

/** Whether a Slack call was made for the control (its user, its channel), not for a forged request. */
function forTheControl(call: RecordedCall): boolean {
  return call.body.channel === CONTROL_CHANNEL || call.body.user === CONTROL_USER;
}

describe('requests that are not correctly signed', () => {
  let platformMark = 0;
  let slackMark = 0;
  beforeAll(() => {
    platformMark = harness.simulator.received.length;
    slackMark = harness.slack.calls().length;
  });
  // Checked once every case that ran has been sent, whichever ran (one alone, shuffled, all):
  // nothing reached the platform or Slack but the signed control sent after them.
  afterAll(async () => {
    expect(platformRequestsSince(platformMark)).toEqual([]);
    expect(slackCallsSince(slackMark)).toEqual([]);
    const control = await signedControl();
    expect(platformRequestsSince(platformMark).map((request) => request.body)).toEqual([
      expect.objectContaining({
        action: 'chat_user_robot_ask',
        data: expect.objectContaining({ question: control.question }),
      }),
    ]);
    expect(slackCallsSince(slackMark).filter((call) => !forTheControl(call))).toEqual([]);
  });

  it.each(CASES)(
    '$kind as $encoding, ssl_check $sslCheck, $signing: refused, or answered as an SSL check and dropped',
    async ({ shape, encoding, sslCheck, signing }) => {
      const body = encode(withResponseUrlAtTheFake(shape), encoding, sslCheck);
      const contentType = encoding === 'json' ? JSON_CONTENT_TYPE : FORM_CONTENT_TYPE;
      const response: SlackAppResponse = await post(body, contentType, signingHeaders(signing, body));
      if (sslCheck && encoding === 'form') {
        // Slack's SSL check: 200 with an empty body, and nothing of it goes further.
        expect(response.status).toBe(200);
        expect(response.text).toBe('');
      } else {
        expect(response.status).toBe(401);
      }
    },
  );
});

describe('a correctly signed app_home_opened', () => {
  it('publishes the Home tab for that user, so the sweep above proves the boundary for it too', async () => {
    const body = encode(eventCallback(homeOpened), 'json', false);
    const response = await post(body, JSON_CONTENT_TYPE, { ...signSlackRequest(SIGNING_SECRET, body) });
    expect(response.status).toBe(200);
    const published = await harness.slack.waitForCall('views.publish');
    expect(published.body.user_id).toBe('U_VICTIM');
  });
});

describe('a correctly signed assistant_thread_started', () => {
  it('greets in the panel and suggests prompts, so the sweep above proves the boundary for it too', async () => {
    const started = assistantThreadEvent('assistant_thread_started', { user: 'U_VICTIM' });
    const body = encode(eventCallback(started), 'json', false);
    const response = await post(body, JSON_CONTENT_TYPE, { ...signSlackRequest(SIGNING_SECRET, body) });
    expect(response.status).toBe(200);
    const prompts = await harness.slack.waitForCall('assistant.threads.setSuggestedPrompts');
    expect(prompts.body.thread_ts).toBe(started.assistant_thread.thread_ts);
  });
});

describe("Slack's SSL check", () => {
  it('is answered 200 with an empty body, signed or not', async () => {
    const body = 'ssl_check=1&token=verification-token';
    for (const headers of [{}, signSlackRequest(SIGNING_SECRET, body)]) {
      const response = await post(body, FORM_CONTENT_TYPE, headers);
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
    }
  });
});

describe('a correctly signed click', () => {
  it('still asks the robot and answers in place, so the sweep above proves the boundary and not a broken path', async () => {
    const asksBefore = harness.robotAsks().length;
    const body = encode(tryAgainClick, 'form', false);
    const response = await post(body, FORM_CONTENT_TYPE, { ...signSlackRequest(SIGNING_SECRET, body) });
    expect(response.status).toBe(200);
    const answer = await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === tryAgainClick.message.ts && call.body.text !== 'Thinking…',
    );
    expect(answer.body.channel).toBe('C_ANY');
    expect(
      harness
        .robotAsks()
        .slice(asksBefore)
        .map((ask) => ask.question),
    ).toEqual([QUESTION]);
  });

  it('with a repeated payload field is refused: it has no single meaning to check', async () => {
    const asksBefore = harness.robotAsks().length;
    const slackMark = harness.slack.calls().length;
    const innocent = blockActionsPayload({ actions: [{ action_id: 'unknown_button', value: 'x' }] });
    const body = `${encode(innocent, 'form', false)}&${encode(tryAgainClick, 'form', false)}`;
    const response = await post(body, FORM_CONTENT_TYPE, { ...signSlackRequest(SIGNING_SECRET, body) });
    expect(response.status).toBe(400);
    const control = await signedControl();
    expect(
      harness
        .robotAsks()
        .slice(asksBefore)
        .map((ask) => ask.question),
    ).toEqual([control.question]);
    expect(slackCallsSince(slackMark).filter((call) => !forTheControl(call))).toEqual([]);
  });
});
