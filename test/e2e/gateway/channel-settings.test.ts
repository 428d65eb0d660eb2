import { beforeEach, describe, expect, it } from 'vitest';
import { expectLeftAlone } from '../../support/event-verdicts.js';
import type { FakeSlackApi, RecordedCall } from '../../support/fake-slack-api.js';
import {
  buttonOf,
  type GatewayHarness,
  isRecord,
  SIGNING_SECRET,
  textOf,
  textsIn,
  useGatewayHarness,
  useRedisReplicas,
} from '../../support/gateway-harness.js';
import { openedViewId, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { blockActionsPayload, channelMessage, eventCallback, IDS } from '../../support/slack-payloads.js';
import {
  FORM_CONTENT_TYPE,
  interactionBody,
  sendEvent,
  sendInteraction,
  sendSlashCommand,
} from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const OPERATOR = 'U0OPERATOR';
const OPERATORS_ONLY = 'Only operators can see or change how the app behaves in channels';
const WAIT_MS = 5_000;

/** Types `/cs <text>` in `channel` and returns what the typist was answered (through response_url). */
async function command(
  target: { url: string; slack: FakeSlackApi },
  text: string,
  fields: { user?: string; channel?: string } = {},
): Promise<RecordedCall> {
  const mark = target.slack.calls().length;
  const response = await sendSlashCommand(target.url, SIGNING_SECRET, {
    command: '/cs',
    text,
    user_id: fields.user ?? OPERATOR,
    team_id: IDS.team,
    channel_id: fields.channel ?? IDS.channel,
    response_url: target.slack.responseUrl(),
  });
  expect(response.status).toBe(200);
  // One command at a time: its answer is the first response_url call after it was sent.
  return target.slack.waitForCall(
    'response_url',
    (call) => target.slack.calls().indexOf(call) >= mark,
    WAIT_MS,
  );
}

/** Posts the channel got from the app, after `mark` calls. */
function noticesIn(slack: FakeSlackApi, channel: string, mark = 0): RecordedCall[] {
  return slack
    .calls()
    .slice(mark)
    .filter((call) => call.method === 'chat.postMessage' && call.body.channel === channel);
}

/** A person's top-level message in a channel, as Slack delivers it. */
async function say(target: GatewayHarness, channel: string, text: string, user: string = IDS.user) {
  const response = await target.sendEvent(channelMessage({ channel, text, user }));
  expect(response.status).toBe(200);
}

describe('/cs channel, typed', () => {
  const harness = useGatewayHarness({ env: { OPERATOR_USER_IDS: OPERATOR } });

  it('robot:2 answer:questions: saved, shown, announced in the channel, and a question there is answered by robot 2 on the app’s own', async () => {
    const h = harness();
    const channel = 'C0QUESTIONS';
    const answer = await command(h, 'channel robot:2 answer:questions reply:thread', { channel });
    const shown = textOf(answer);
    expect(answer.body.response_type).toBe('ephemeral');
    expect(shown).toContain(`Saved. <#${channel}> now has these settings`);
    expect(shown).toContain('*robot*: robot 2');
    expect(shown).toContain('*answer*: when mentioned, and on its own to messages that read as questions');
    expect(shown).toContain('*lang*: default: each person’s own language');
    expect(shown).toContain(`Last changed by <@${OPERATOR}>`);

    const notice = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === channel,
      WAIT_MS,
    );
    expect(textOf(notice)).toContain(
      `<@${OPERATOR}> set this channel so that I now answer questions here on my own, without being mentioned.`,
    );
    // reply:thread is the default: nothing people see changed there, so one line only.
    expect(textOf(notice)).not.toContain('posted in the thread');

    const asked = h.robotAsks().length;
    await say(h, channel, 'How do I connect to the VPN?');
    const ask = await waitFor(() => h.robotAsks().slice(asked)[0], { timeoutMs: WAIT_MS });
    expect(ask.question).toBe('How do I connect to the VPN?');
    expect(ask.robotFlag).toBe(2);
    await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === channel && typeof call.body.thread_ts === 'string',
      WAIT_MS,
    );
  });

  it('keys left out stay; reset returns the channel to the defaults and says so in the channel', async () => {
    const h = harness();
    const channel = 'C0RESET';
    await command(h, 'channel robot:5 answer:all', { channel });
    const changed = textOf(await command(h, 'channel lang:zh', { channel }));
    expect(changed).toContain('*robot*: robot 5');
    expect(changed).toContain('*lang*: Chinese `lang:zh`');

    const mark = h.slack.calls().length;
    const reset = textOf(await command(h, 'channel reset', { channel }));
    expect(reset).toContain(`<#${channel}> is back to the defaults`);
    expect(reset).toContain('No settings of its own');
    expect(reset).toContain('*robot*: default: the app’s own robot');
    const audit = h.logs.filter(
      (line) => line.msg === 'channel settings changed' && line.channel === channel,
    );
    expect(audit.map(({ by, before, after }) => ({ by, before, after }))).toEqual([
      { by: OPERATOR, before: {}, after: { robot: 5, answer: 'all' } },
      { by: OPERATOR, before: { robot: 5, answer: 'all' }, after: { robot: 5, answer: 'all', lang: 'zh' } },
      { by: OPERATOR, before: { robot: 5, answer: 'all', lang: 'zh' }, after: {} },
    ]);
    const notice = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === channel && h.slack.calls().indexOf(call) >= mark,
      WAIT_MS,
    );
    expect(textOf(notice)).toContain('I no longer answer here on my own: mention me to ask');

    // Back in mention mode: a question nobody addressed to the app is counted ignored, and nothing asked.
    await expectLeftAlone(h, channelMessage({ channel, text: 'How do I connect to the VPN?' }));
  });

  it('a bad value names the key and what it takes, and nothing changes', async () => {
    const h = harness();
    const channel = 'C0BAD';
    const answer = textOf(
      await command(h, 'channel robot:two answer:sometimes escalate:off,<@U0ALICE> colour:blue', { channel }),
    );
    expect(answer).toContain('Nothing was changed');
    expect(answer).toContain('`robot` takes a whole number from 0 to 2147483647, not `two`.');
    expect(answer).toContain('`answer` takes `mention`, `questions` or `all`, not `sometimes`.');
    expect(answer).toContain('`off` stands alone');
    expect(answer).toContain('`colour` is not a setting');
    expect(noticesIn(h.slack, channel)).toEqual([]);
    expect(textOf(await command(h, 'channel', { channel }))).toContain('No settings of its own');
  });

  it('names that arrived as plain text, not escaped by Slack, are refused saying what arrived and why', async () => {
    const h = harness();
    const channel = 'C0PLAIN';
    const answer = textOf(
      await command(h, 'channel #it-help escalate:@it-oncall askers:<@U0ALICE|alice>', { channel }),
    );
    expect(answer).toContain('Nothing was changed');
    expect(answer).toContain(
      '`#it-help` arrived as plain text, not as a channel Slack recognised: pick it from the autocomplete as you type #, or check its name.',
    );
    expect(answer).toContain(
      '`@it-oncall` arrived as plain text, not as a person or user group Slack recognised: pick it from the autocomplete as you type @, or check the handle.',
    );
    // The form it asked for before (people and user groups, @someone) is what was typed: no longer offered.
    expect(answer).not.toContain('takes people and user groups');
    expect(textOf(await command(h, 'channel', { channel }))).toContain('No settings of its own');

    // As Slack escapes them, the same names are read by their ids and applied.
    const escaped = textOf(
      await command(h, 'channel <#C0ITHELP|it-help> escalate:<!subteam^S0ITONCALL|it-oncall>', { channel }),
    );
    expect(escaped).toContain('Saved. <#C0ITHELP> now has these settings');
    expect(escaped).toContain('*escalate*: <!subteam^S0ITONCALL>');
  });

  it('refuses someone who is not an operator, and changes nothing', async () => {
    const h = harness();
    const channel = 'C0REFUSED';
    expect(textOf(await command(h, 'channel answer:all', { channel, user: IDS.user }))).toContain(
      OPERATORS_ONLY,
    );
    expect(textOf(await command(h, 'channels', { user: IDS.user }))).toContain(OPERATORS_ONLY);
    expect(textOf(await command(h, 'channel', { channel }))).toContain('No settings of its own');
    expect(noticesIn(h.slack, channel)).toEqual([]);
  });

  it('sets another channel named first, and lists every channel with settings in /cs channels', async () => {
    const h = harness();
    const answer = textOf(
      await command(h, 'channel <#C0ITHELP|it-help> robot:2 escalate:<!subteam^S0ONCALL|@it-oncall>'),
    );
    expect(answer).toContain('Saved. <#C0ITHELP> now has these settings');
    expect(answer).toContain('*escalate*: <!subteam^S0ONCALL>');
    expect(textOf(await command(h, 'channel'))).toContain('No settings of its own');
    // Only robot and escalate changed: the channel is not told anything. The control, a change
    // the channel is told of, must be the only notice it got.
    await command(h, 'channel <#C0ITHELP|it-help> answer:questions');
    await waitFor(() => noticesIn(h.slack, 'C0ITHELP').length > 0, { timeoutMs: WAIT_MS });
    expect(noticesIn(h.slack, 'C0ITHELP').map((call) => textOf(call))).toEqual([
      expect.stringContaining('question'),
    ]);

    const list = textOf(await command(h, 'channels'));
    expect(list).toMatch(/Channels with settings of their own \(\d+\)/);
    expect(list).toContain('*<#C0ITHELP>* · changed by <@U0OPERATOR>');
    expect(list).toContain('*robot*: robot 2');
  });

  it('in a channel the app is not in, answer:questions says how to invite it and changes nothing', async () => {
    const h = harness();
    const channel = 'C0NOTIN';
    h.slack.setAppMember(channel, false);
    const answer = textOf(await command(h, `channel <#${channel}|private-ish> answer:questions`));
    expect(answer).toContain(`I am not a member of <#${channel}>`);
    expect(answer).toContain('type `/invite` and my name (<@UBOT>)');
    const info = h.slack.calls('conversations.info').find((call) => call.body.channel === channel);
    expect(info).toBeDefined();
    expect(textOf(await command(h, `channel ${channel}`))).toContain('No settings of its own');
    // A key that needs no membership is set all the same.
    expect(textOf(await command(h, `channel ${channel} robot:3`))).toContain('*robot*: robot 3');
  });

  it('the Home tab lists the channels with settings to an operator, and not to anyone else', async () => {
    const h = harness();
    await command(h, 'channel robot:8', { channel: 'C0HOMELISTED' });
    const open = (user: string) => {
      const event = {
        type: 'app_home_opened',
        user,
        channel: 'D0HOME',
        tab: 'home',
        event_ts: '1700000000.000001',
      };
      return h.sendEvent(event);
    };
    await open(OPERATOR);
    const operatorHome = await h.slack.waitForCall(
      'views.publish',
      (call) => call.body.user_id === OPERATOR,
      WAIT_MS,
    );
    expect(textsIn(operatorHome.body.view)).toContain('<#C0HOMELISTED>  `robot:8`');
    await open(IDS.user);
    const userHome = await h.slack.waitForCall(
      'views.publish',
      (call) => call.body.user_id === IDS.user,
      WAIT_MS,
    );
    expect(textsIn(userHome.body.view)).not.toContain('C0HOMELISTED');
  });

  it('in a DM, asks for the channel', async () => {
    const h = harness();
    const answer = textOf(await command(h, 'channel robot:2', { channel: IDS.dm }));
    expect(answer).toContain('Type `/cs channel` in the channel itself, or name the channel first');
  });

  it('/cs help still answers, and an unknown word gets it', async () => {
    const h = harness();
    expect(textOf(await command(h, 'frobnicate', { user: IDS.user }))).toContain('/cs agents [group]');
  });
});

describe('the Edit button and the settings modal', () => {
  const harness = useGatewayHarness({ env: { OPERATOR_USER_IDS: OPERATOR } });

  async function openModal(h: GatewayHarness, channel: string, user = OPERATOR) {
    const shown = await command(h, 'channel', { channel });
    const edit = buttonOf(shown, 'channel_settings_edit');
    const responseUrl = h.slack.responseUrl(`shown-${channel}`);
    const click = blockActionsPayload(
      {
        user,
        channel,
        actions: [{ action_id: edit.actionId, block_id: edit.blockId, value: edit.value, text: edit.text }],
      },
      { response_url: responseUrl },
    );
    const response = await h.click(click);
    expect(response.status).toBe(200);
    return { click, responseUrl };
  }

  it('Edit opens the modal with the channel’s settings; Save writes them, shows them again, and announces', async () => {
    const h = harness();
    const channel = 'C0MODAL';
    h.slack.setUsergroup('S0ONCALL', ['U0BOB'], { handle: 'it-oncall', name: 'IT on call' });
    h.slack.setUsergroup('S0SECOND', ['U0CAROL'], { handle: 'second-line', name: 'Second line' });
    await command(h, 'channel robot:4 lang:en', { channel });
    await openModal(h, channel);
    const open = await h.slack.waitForCall('views.open', undefined, WAIT_MS);
    const view = viewOf(open);
    expect(view.callback_id).toBe('channel_settings');
    const words = textsIn(view.blocks);
    expect(words).toContain(`Settings of <#${channel}>`);
    // Plain words, no field names of the platform's.
    expect(words).toContain('Robot number');
    expect(words).not.toContain('robotFlag');
    expect(JSON.stringify(view.blocks)).toContain('"initial_value":"4"');
    // The workspace's user groups, offered by handle from usergroups.list: no ids to type.
    expect(h.slack.calls('usergroups.list')).toHaveLength(1);
    const blocks: unknown[] = Array.isArray(view.blocks) ? view.blocks : [];
    const groups = blocks.find((block) => isRecord(block) && block.block_id === 'channel_escalate_groups');
    expect(groups).toMatchObject({
      element: {
        type: 'multi_static_select',
        options: [
          expect.objectContaining({
            text: expect.objectContaining({ text: '@it-oncall (IT on call)' }),
            value: 'S0ONCALL',
          }),
          expect.objectContaining({
            text: expect.objectContaining({ text: '@second-line (Second line)' }),
            value: 'S0SECOND',
          }),
        ],
      },
    });

    const mark = h.slack.calls().length;
    const submit = viewSubmissionPayload(
      { view, id: openedViewId(open) },
      {
        channel_robot: { text: '7' },
        channel_answer: { option: 'questions' },
        channel_reply: { option: 'ephemeral' },
        channel_escalate_people: { users: ['U0ALICE'] },
        channel_escalate_groups: { options: ['S0ONCALL', 'S0SECOND'] },
        channel_lang: { option: 'default' },
      },
      OPERATOR,
    );
    const response = await h.click(submit);
    expect(response.status).toBe(200);
    expect(response.text).toBe('');

    const replaced = await h.slack.waitForCall(
      'response_url',
      (call) => h.slack.calls().indexOf(call) >= mark && call.body.replace_original === true,
      WAIT_MS,
    );
    const saved = textOf(replaced);
    expect(saved).toContain(`Saved. <#${channel}> now has these settings`);
    expect(saved).toContain('*robot*: robot 7');
    expect(saved).toContain('*reply*: shown only to whoever asked');
    expect(saved).toContain('*escalate*: <@U0ALICE>, <!subteam^S0ONCALL>, <!subteam^S0SECOND>');
    // Set to Default in the form: the key is cleared, not kept.
    expect(saved).toContain('*lang*: default: each person’s own language');

    const notice = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === channel && h.slack.calls().indexOf(call) >= mark,
      WAIT_MS,
    );
    expect(textOf(notice)).toContain('I now answer questions here on my own');
    expect(textOf(notice)).toContain('my answers here are shown only to whoever asked');
  });

  it('a form it cannot read is answered with errors under the inputs, and nothing changes', async () => {
    const h = harness();
    const channel = 'C0MODALBAD';
    // Without the list of user groups, the modal asks for their ids.
    h.slack.failNext('usergroups.list', { error: 'ratelimited' });
    await openModal(h, channel);
    const open = await h.slack.waitForCall('views.open', undefined, WAIT_MS);
    expect(textsIn(viewOf(open).blocks)).toContain('The user groups could not be listed here');
    const submit = viewSubmissionPayload(
      { view: viewOf(open), id: openedViewId(open) },
      { channel_robot: { text: '1.5' }, channel_askers_groups: { text: 'the it team' } },
      OPERATOR,
    );
    const response = await h.click(submit);
    expect(response.status).toBe(200);
    const body: unknown = JSON.parse(response.text);
    expect(body).toMatchObject({ response_action: 'errors' });
    const errors = isRecord(body) && isRecord(body.errors) ? body.errors : {};
    expect(errors.channel_robot).toContain('A whole number from 0 to 2147483647');
    expect(errors.channel_askers_groups).toContain('Not a user group: the it team');
    expect(textOf(await command(h, 'channel', { channel }))).toContain('No settings of its own');
  });

  it('opens in time when Slack is slow to list the user groups, asking for their ids', async () => {
    const h = harness();
    const channel = 'C0MODALSLOW';
    h.slack.setUsergroup('S0ONCALL', ['U0BOB'], { handle: 'it-oncall' });
    // Longer than the 1.5 s the modal gives the list: the trigger (3 s) would otherwise expire.
    h.slack.delayNext('usergroups.list', 2_500);
    await openModal(h, channel);
    const open = await h.slack.waitForCall('views.open', undefined, WAIT_MS);
    // The modal did not wait for the list: it opened before Slack answered it.
    const listed = await h.slack.waitForCall('usergroups.list', undefined, WAIT_MS);
    expect(open.at).toBeLessThan(listed.at);
    const groups = JSON.stringify(viewOf(open).blocks);
    expect(groups).toContain('The user groups could not be listed here');
    expect(groups).not.toContain('multi_static_select');
    expect(h.logs.some((line) => line.msg === 'user groups not listed in time; the modal asks for ids')).toBe(
      true,
    );
  });

  it('asking questions mode where the app is not a member is an error under the answer input', async () => {
    const h = harness();
    const channel = 'C0MODALOUT';
    h.slack.setAppMember(channel, false);
    await openModal(h, channel);
    const open = await h.slack.waitForCall('views.open', undefined, WAIT_MS);
    const response = await h.click(
      viewSubmissionPayload(
        { view: viewOf(open), id: openedViewId(open) },
        { channel_answer: { option: 'all' } },
        OPERATOR,
      ),
    );
    expect(response.text).toContain('channel_answer');
    expect(response.text).toContain('Invite me with /invite');
    expect(textOf(await command(h, 'channel', { channel }))).toContain('No settings of its own');
  });

  it('re-checks the right: a non-operator’s click opens nothing, their submission is refused', async () => {
    const h = harness();
    const channel = 'C0MODALNOT';
    const { responseUrl } = await openModal(h, channel, IDS.user);
    const refusal = await h.slack.waitForCall(
      'response_url',
      (call) => textOf(call).includes(OPERATORS_ONLY),
      WAIT_MS,
    );
    expect(refusal.body.replace_original).toBe(false);
    expect(responseUrl).toContain('shown-');
    expect(h.slack.calls('views.open')).toEqual([]);

    // A modal opened while they were an operator, submitted after.
    await openModal(h, channel);
    const open = await h.slack.waitForCall('views.open', undefined, WAIT_MS);
    const response = await h.click(
      viewSubmissionPayload(
        { view: viewOf(open), id: openedViewId(open) },
        { channel_robot: { text: '9' } },
        IDS.user,
      ),
    );
    expect(response.text).toContain(OPERATORS_ONLY);
    expect(textOf(await command(h, 'channel', { channel }))).toContain('No settings of its own');
  });

  it('an unsigned Edit click or submission is refused 401 and reaches neither Slack nor the settings', async () => {
    const h = harness();
    const channel = 'C0UNSIGNED';
    const click = blockActionsPayload({
      user: OPERATOR,
      channel,
      actions: [{ action_id: 'channel_settings_edit', value: channel }],
    });
    const submission = {
      type: 'view_submission',
      team: { id: IDS.team },
      user: { id: OPERATOR },
      view: {
        id: 'V1',
        callback_id: 'channel_settings',
        private_metadata: JSON.stringify({ v: 1, c: channel }),
        state: { values: { channel_answer: { channel_answer: { selected_option: { value: 'all' } } } } },
      },
    };
    for (const payload of [click, submission]) {
      const wronglySigned = await sendInteraction(h.url, 'not-the-signing-secret', payload);
      expect(wronglySigned.status).toBe(401);
      const unsigned = await fetch(new URL('/slack/events', h.url), {
        method: 'POST',
        headers: { 'content-type': FORM_CONTENT_TYPE },
        body: interactionBody(payload),
      });
      expect(unsigned.status).toBe(401);
    }
    // The control, signed: the channel still has no settings, and its answer is the only Slack call.
    const mark = h.slack.calls().length;
    expect(textOf(await command(h, 'channel', { channel }))).toContain('No settings of its own');
    expect(
      h.slack
        .calls()
        .slice(0, mark)
        .filter((call) => call.method !== 'auth.test'),
    ).toEqual([]);
    expect(
      h.slack
        .calls()
        .slice(mark)
        .map((call) => call.method),
    ).toEqual(['response_url']);
  });
});

describe('two replicas on one Redis', () => {
  const fleet = useRedisReplicas('channel-settings', { env: { OPERATOR_USER_IDS: OPERATOR } });

  beforeEach(() => {
    fleet().slack.reset();
  });

  it('a change made on A applies on B within 5 s: B answers the channel’s questions with its robot', async () => {
    const {
      replicas: [a, b],
    } = fleet();
    const channel = 'C0REPLICAS';
    // The replicas share one simulator: either one's view of the questions it got is the fleet's.
    const asks = () => b.robotAsks();
    const changedAt = Date.now();
    expect(textOf(await command(a, 'channel robot:2 answer:questions', { channel }))).toContain('robot 2');
    const listed = await waitFor(
      async () => {
        const list = textOf(await command(b, 'channels'));
        return list.includes(`<#${channel}>`) && list;
      },
      { timeoutMs: 5_000, intervalMs: 250 },
    );
    expect(Date.now() - changedAt).toBeLessThan(5_000);
    expect(listed).toContain('*answer*: when mentioned, and on its own to messages that read as questions');

    const before = asks().length;
    const response = await sendEvent(
      b.url,
      SIGNING_SECRET,
      eventCallback(channelMessage({ channel, text: 'How do I connect to the VPN?' })),
    );
    expect(response.status).toBe(200);
    const ask = await waitFor(() => asks().slice(before)[0], { timeoutMs: WAIT_MS });
    expect(ask.robotFlag).toBe(2);
  }, 30_000);
});
