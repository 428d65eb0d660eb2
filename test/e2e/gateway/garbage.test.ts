// Sends the running gateway garbage, signed and unsigned, the way a confused client or an attacker
// holding the signing secret might, and checks that every request is answered promptly and the app
// keeps answering real questions.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_PATH } from '../../../src/platform/schemas.js';
import { DEFAULT_SIMULATOR_TOKEN } from '../../../src/simulator/index.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  BOT_TOKEN,
  type GatewayHarness,
  SIGNING_SECRET,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import {
  blockActionsPayload,
  directMessage,
  eventCallback,
  IDS,
  nextTs,
} from '../../support/slack-payloads.js';
import {
  FORM_CONTENT_TYPE,
  interactionBody,
  JSON_CONTENT_TYPE,
  postToSlackApp,
  type SlackAppResponse,
  signSlackRequest,
} from '../../support/slack-signing.js';

let harness: GatewayHarness;

beforeAll(async () => {
  harness = await startGatewayHarness();
});
afterAll(async () => {
  try {
    // Whatever ran of this file (all of it, one case, shuffled): nothing it sent was fatal or leaked a secret.
    expect(harness.logs.filter((line) => line.level >= 60)).toEqual([]);
    const all = JSON.stringify(harness.logs);
    for (const secret of [SIGNING_SECRET, BOT_TOKEN, DEFAULT_SIMULATOR_TOKEN]) {
      expect(all).not.toContain(secret);
    }
  } finally {
    await harness.close();
  }
});
beforeEach(() => {
  harness.simulator.faults.clear();
  harness.slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
});

/** Slack waits 3 s for an ack; garbage must never make the app use that budget. */
const PROMPT_MS = 1_000;

async function timed(send: () => Promise<SlackAppResponse>): Promise<SlackAppResponse & { ms: number }> {
  const started = Date.now();
  const response = await send();
  return { ...response, ms: Date.now() - started };
}

function signed(body: string, contentType: string) {
  return timed(() => postToSlackApp(harness.url, { body, contentType, secret: SIGNING_SECRET }));
}

function unsigned(body: string, contentType: string, headers: Record<string, string> = {}) {
  return timed(async () => {
    const response = await fetch(`${harness.url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...headers },
      body,
    });
    return { status: response.status, text: await response.text(), headers: response.headers };
  });
}

interface Marks {
  platform: number;
  slack: number;
}

function marks(): Marks {
  return { platform: harness.simulator.received.length, slack: harness.slack.calls().length };
}

/**
 * Asks a real question as the same user in the same channel as the garbage, and waits for its
 * answer: the gateway takes one person's messages one at a time, so anything the garbage set going
 * has had its turn. Then nothing but that question reached the platform, and no Slack call was made
 * but the answer's (and those `allowed`, such as telling a clicker their click is too old).
 */
async function expectOnlyTheControlSince(
  since: Marks,
  allowed: (call: RecordedCall) => boolean = () => false,
): Promise<void> {
  const question = 'How do I reset my password?';
  const { answer, threadTs, placeholderTs } = await askByMention(harness, question);
  expect(textOf(answer)).toContain('password portal');
  const platform = harness.simulator.received
    .slice(since.platform)
    .filter((request) => request.path !== TOKEN_PATH)
    .map((request) => request.body);
  expect(platform).toEqual([
    expect.objectContaining({ action: 'chat_user_robot_ask', data: expect.objectContaining({ question }) }),
  ]);
  const control = (call: RecordedCall) =>
    call.body.thread_ts === threadTs ||
    call.body.ts === placeholderTs ||
    (call.method === 'users.info' && call.body.user === IDS.user);
  const others = harness.slack
    .calls()
    .slice(since.slack)
    .filter((call) => call.method !== 'auth.test' && !control(call) && !allowed(call));
  expect(others).toEqual([]);
}

/** A well-formed DM event with some fields replaced or removed. */
function weirdMessage(change: (event: Record<string, unknown>) => void): string {
  const event: Record<string, unknown> = { ...directMessage({ text: 'How do I reset my password?' }) };
  change(event);
  return JSON.stringify(eventCallback(event as { type: string }));
}

describe('unsigned garbage', () => {
  let since: Marks;
  beforeAll(() => {
    since = marks();
  });
  afterAll(() => expectOnlyTheControlSince(since));

  it.each([
    ['JSON with no signature', '{"type":"event_callback"}', JSON_CONTENT_TYPE, {}],
    ['text with no signature', 'hello', 'text/plain', {}],
    [
      'a signature that is not hex',
      JSON.stringify(eventCallback(directMessage())),
      JSON_CONTENT_TYPE,
      { 'x-slack-signature': 'v0=zz', 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) },
    ],
    [
      'a timestamp that is not a number',
      JSON.stringify(eventCallback(directMessage())),
      JSON_CONTENT_TYPE,
      { 'x-slack-signature': `v0=${'a'.repeat(64)}`, 'x-slack-request-timestamp': 'soon' },
    ],
  ])('%s → 401', async (_name, body, contentType, headers) => {
    const response = await unsigned(body, contentType, headers);
    expect(response.status).toBe(401);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });
});

describe('signed garbage', () => {
  let since: Marks;
  beforeAll(() => {
    since = marks();
  });
  // A rate_up click with no message is told, to the clicker alone, that it cannot be rated.
  afterAll(() =>
    expectOnlyTheControlSince(
      since,
      (call) =>
        call.method === 'chat.postEphemeral' &&
        call.body.user === IDS.user &&
        textOf(call).includes('too old'),
    ),
  );

  it.each([
    ['JSON null', 'null'],
    ['JSON 42', '42'],
    ['JSON []', '[]'],
    ['JSON {}', '{}'],
    ['JSON "x"', '"x"'],
    ['an event_callback whose event is null', '{"type":"event_callback","event":null}'],
    ['an event_callback with no event', '{"type":"event_callback"}'],
    ['an event_callback whose event has no type', '{"type":"event_callback","event":{}}'],
    ['text that is not JSON', '{not json'],
    ['an empty body', ''],
    ['a block_actions with no actions', '{"type":"block_actions"}'],
  ])('%s (application/json) → 400 or 200, promptly', async (_name, body) => {
    const response = await signed(body, JSON_CONTENT_TYPE);
    expect([200, 400]).toContain(response.status);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it.each([
    ['payload=null', 'payload=null'],
    ['payload=%7Bnope', 'payload=%7Bnope'],
    ['a=1', 'a=1'],
    ['payload={}', 'payload=%7B%7D'],
    ['an empty form', ''],
  ])('form %s → 400, promptly', async (_name, body) => {
    const response = await signed(body, FORM_CONTENT_TYPE);
    expect(response.status).toBe(400);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it('a real event sent as text/plain → 400, promptly', async () => {
    const response = await signed(JSON.stringify(eventCallback(directMessage())), 'text/plain');
    expect(response.status).toBe(400);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it.each([
    ['a ts that is not a Slack ts', weirdMessage((event) => Object.assign(event, { ts: 'yesterday' }))],
    [
      'no channel',
      weirdMessage((event) => {
        delete event.channel;
      }),
    ],
    ['text that is an object', weirdMessage((event) => Object.assign(event, { text: { evil: true } }))],
    ['a user that is an object', weirdMessage((event) => Object.assign(event, { user: { id: IDS.user } }))],
    ['a thread_ts that is a number', weirdMessage((event) => Object.assign(event, { thread_ts: 1 }))],
    ['a 200 kB text', weirdMessage((event) => Object.assign(event, { text: 'why '.repeat(50_000) }))],
  ])('a message event with %s → 200 or 400, promptly', async (_name, body) => {
    const response = await signed(body, JSON_CONTENT_TYPE);
    expect([200, 400]).toContain(response.status);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it.each([
    ['a shortcut', { type: 'shortcut', callback_id: 'nope', user: { id: IDS.user } }],
    ['a message shortcut', { type: 'message_action', callback_id: 'nope', user: { id: IDS.user } }],
    ['a view submission', { type: 'view_submission', view: { callback_id: 'nope' }, user: { id: IDS.user } }],
    ['a view closed', { type: 'view_closed', view: { callback_id: 'nope' }, user: { id: IDS.user } }],
    [
      'an options request',
      { type: 'block_suggestion', action_id: 'nope', value: 'x', user: { id: IDS.user } },
    ],
    ['a block_actions with an empty actions list', { ...blockActionsPayload(), actions: [] }],
    ['a block_actions with no user', { ...blockActionsPayload(), user: undefined }],
    ['a block_actions whose user has no id', { ...blockActionsPayload(), user: {} }],
    ['a block_actions whose user is a string', { ...blockActionsPayload(), user: IDS.user }],
    ['a block_actions with no team', { ...blockActionsPayload(), team: undefined }],
    ['a block_actions with team null', { ...blockActionsPayload(), team: null }],
    [
      'a block_actions with no channel, container or message',
      { ...blockActionsPayload(), channel: undefined, container: undefined, message: undefined },
    ],
    ['a block_actions whose actions are [null]', { ...blockActionsPayload(), actions: [null] }],
    ['a block_actions whose actions are ["x"]', { ...blockActionsPayload(), actions: ['x'] }],
    [
      'a block_actions whose action has no action_id',
      { ...blockActionsPayload(), actions: [{ value: 'x' }] },
    ],
    [
      'a block_actions whose action_id is a number',
      { ...blockActionsPayload(), actions: [{ action_id: 5 }] },
    ],
    ['a block_actions whose actions are a string', { ...blockActionsPayload(), actions: 'x' }],
    ['a block_actions whose channel is null', { ...blockActionsPayload(), channel: null }],
    [
      'a block_actions with a name (how Bolt spots options requests)',
      { ...blockActionsPayload(), name: 'x' },
    ],
    ['a block_actions with an event that is a string', { ...blockActionsPayload(), event: 'x' }],
    [
      'a block_actions whose response_urls are [null]',
      { ...blockActionsPayload(), response_url: '', response_urls: [null] },
    ],
    [
      'a rate_up click with no message',
      {
        ...blockActionsPayload({ actions: [{ action_id: 'rate_up', value: '{}' }] }),
        message: undefined,
        container: undefined,
      },
    ],
  ])('an interaction the app does not offer (%s) → answered promptly', async (_name, payload) => {
    const response = await signed(interactionBody(payload), FORM_CONTENT_TYPE);
    expect([200, 400]).toContain(response.status);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it.each([
    ['an event of a type the app ignores', { type: 'reaction_added', user: IDS.user }],
    ['a message event with nothing but its type', { type: 'message' }],
    ['an app_mention with nothing but its type', { type: 'app_mention' }],
    [
      'a message_changed with no message',
      { type: 'message', subtype: 'message_changed', channel: IDS.channel },
    ],
    ['a message with a channel that is a number', { type: 'message', channel: 5, user: IDS.user, ts: '1.2' }],
    ['a message with a channel that is a number and no user', { type: 'message', channel: 5 }],
    ['a message with channel null', { type: 'message', channel: null }],
    ['a message with user null', { type: 'message', user: null }],
    ['a reaction whose item is null', { type: 'reaction_added', item: null }],
    ['a subteam event whose subteam is null', { type: 'subteam_created', subteam: null }],
    ['a function_executed event', { type: 'function_executed', function_execution_id: 'Fx1', inputs: {} }],
  ])('%s → 200 or 400, promptly', async (_name, event) => {
    const response = await signed(JSON.stringify(eventCallback(event)), JSON_CONTENT_TYPE);
    expect([200, 400]).toContain(response.status);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it.each([
    ['authorizations null', { authorizations: null }],
    ['authorizations [null]', { authorizations: [null] }],
    ['authorizations ["x"]', { authorizations: ['x'] }],
    ['authorizations a string', { authorizations: 'x' }],
    ['no team_id', { team_id: undefined, context_team_id: undefined }],
    ['a team_id that is an object', { team_id: {}, context_team_id: {} }],
    ['an event_id that is an object', { event_id: {} }],
    ['enterprise fields of the wrong type', { context_enterprise_id: 5, is_enterprise_install: 'yes' }],
  ])('an event_callback with %s → 200 or 400, promptly', async (_name, overrides) => {
    const body = JSON.stringify({
      ...eventCallback({ type: 'reaction_added', user: IDS.user }),
      ...overrides,
    });
    const response = await signed(body, JSON_CONTENT_TYPE);
    expect([200, 400]).toContain(response.status);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it('retry headers that are not numbers → 200 or 400, promptly', async () => {
    const body = JSON.stringify(eventCallback({ type: 'reaction_added', user: IDS.user }));
    const response = await timed(() =>
      postToSlackApp(harness.url, {
        body,
        contentType: JSON_CONTENT_TYPE,
        secret: SIGNING_SECRET,
        extraHeaders: { 'x-slack-retry-num': 'many', 'x-slack-retry-reason': '<script>' },
      }),
    );
    expect([200, 400]).toContain(response.status);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it('a slash command the app does not offer → answered promptly', async () => {
    const response = await signed('command=%2Fnope&text=x&user_id=U1&team_id=T1', FORM_CONTENT_TYPE);
    expect([200, 400]).toContain(response.status);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });
});

describe('clicks whose button value is garbage', () => {
  const values: Array<[string, string]> = [
    ['not JSON', '{nope'],
    ['JSON of the wrong shape', '{"v":2,"k":[],"q":null,"r":7}'],
    ['a 5 kB string', 'x'.repeat(5_000)],
  ];
  const cases = ['suggestion:0', 'try_again', 'rate_up'].flatMap((actionId) =>
    values.map(([name, value]) => ({ actionId, name, value })),
  );

  it.each(cases)('$actionId with $name → 200, promptly, nothing asked', async ({ actionId, value }) => {
    const since = marks();
    const threadTs = nextTs();
    const payload = blockActionsPayload({
      message: { ts: nextTs(), thread_ts: threadTs },
      actions: [{ action_id: actionId, block_id: 'b1', value }],
    });
    const response = await timed(() => harness.click(payload));
    expect(response.status).toBe(200);
    expect(response.ms).toBeLessThan(PROMPT_MS);
    if (actionId === 'rate_up') {
      // Someone clicked: tell them, only them, that the answer cannot be rated.
      const notice = await harness.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.thread_ts === threadTs,
      );
      expect(notice.body.user).toBe(IDS.user);
      expect(textOf(notice)).toContain('too old');
    }
    await expectOnlyTheControlSince(
      since,
      (call) =>
        actionId === 'rate_up' && call.method === 'chat.postEphemeral' && call.body.thread_ts === threadTs,
    );
  });
});

describe('after all the garbage', () => {
  it('a signed 2 MB body → 413, on its own connection', async () => {
    const body = JSON.stringify({
      type: 'event_callback',
      event: { type: 'message', text: 'x'.repeat(2 << 20) },
    });
    const started = Date.now();
    const status = await postOnOwnConnection(body);
    expect(status).toBe(413);
    expect(Date.now() - started).toBeLessThan(PROMPT_MS);
  });

  it('is still up, healthy, and answers a real question', async () => {
    const health = await fetch(`${harness.url}/healthz`);
    expect(health.status).toBe(200);
    const { answer } = await askByMention(harness, 'How do I reset my password?');
    expect(textOf(answer)).toContain('password portal');
  });
});

/** Posts a signed JSON body with a fresh connection (no keep-alive), so a 413 cannot poison a pooled socket. */
function postOnOwnConnection(body: string): Promise<number> {
  const url = new URL('/slack/events', harness.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': JSON_CONTENT_TYPE,
          'content-length': Buffer.byteLength(body),
          ...signSlackRequest(SIGNING_SECRET, body),
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    // The server answers before reading the whole body and closes the connection; that is expected.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    request.end(body);
  });
}
