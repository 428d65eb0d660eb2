import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { People } from '../../../src/conversation/channel-settings.js';
import { encodeAnswerValue } from '../../../src/slack/kit/button-values.js';
import { createStores } from '../../../src/stores/index.js';
import { createSqliteStores } from '../../../src/stores/sqlite.js';
import type { FakeSlackApi, RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  blocksOf,
  buttonOf,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  startGatewayHarness,
  textOf,
  useRedisReplicas,
} from '../../support/gateway-harness.js';
import { blockActionsPayload, directMessage, IDS } from '../../support/slack-payloads.js';
import { FORM_CONTENT_TYPE, interactionBody, sendInteraction } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

/** A channel whose settings name a person and a user group to call. */
const HELP_CHANNEL = 'C0ITHELP';
/** Another channel that calls people too: a click there may not call about HELP_CHANNEL's answers. */
const OTHER_HELP_CHANNEL = 'C0HRHELP';
const ON_CALL: People = { users: ['U0ONCALL'], groups: ['S0ITDESK'] };
const SAM = 'U0SAMOTHER';
const ESCALATE = 'escalate';
const NO_ANSWER = 'I have no answer to this in the knowledge base. A person can help.';
const UNKNOWN_QUESTION = 'Which llama grooms alpacas on Mars?';

const settingsOf = (escalate: People) => ({
  settings: { escalate },
  changedBy: 'U0OP',
  changedAt: Date.now(),
});

const hasEscalateButton = (call: RecordedCall) =>
  buttonsOf(call).some((button) => button.actionId === ESCALATE);

/** The calls for a person: posts that mention the on-call group. */
const callsFor = (slack: FakeSlackApi) =>
  slack.calls('chat.postMessage').filter((call) => textOf(call).includes('<!subteam^S0ITDESK>'));

/** Updates of the answer's message after it was shown (the answer itself replaced its placeholder). */
const isLaterUpdateOf = (answer: RecordedCall) => (update: RecordedCall) =>
  update !== answer && update.body.ts === answer.body.ts && update.body.channel === answer.body.channel;

const laterUpdates = (slack: FakeSlackApi, answer: RecordedCall) =>
  slack.calls('chat.update').filter(isLaterUpdateOf(answer));

/**
 * A call for a person that must come, made after clicks that must call no one: a new question in
 * HELP_CHANNEL escalated by its asker, waited for. Returns its thread, to tell its call from others.
 */
async function controlCall(harness: GatewayHarness): Promise<string> {
  const { answer, threadTs } = await askByMention(harness, 'How do I connect to the VPN?', {
    channel: HELP_CHANNEL,
  });
  await harness.click(clickButton(answer, buttonOf(answer, ESCALATE), { threadTs }));
  await harness.slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.thread_ts === threadTs && textOf(call).includes('<!subteam^S0ITDESK>'),
    5_000,
  );
  return threadTs;
}

/** The calls for a person, less the control's. */
const callsBesides = (slack: FakeSlackApi, controlThread: string) =>
  callsFor(slack).filter((call) => call.body.thread_ts !== controlThread);

function sectionTexts(call: RecordedCall): string[] {
  return blocksOf(call).flatMap((block) => {
    const text = block.text;
    return block.type === 'section' && typeof text === 'object' && text !== null && 'text' in text
      ? [String(text.text)]
      : [];
  });
}

describe('in a channel whose escalate names people', () => {
  let harness: GatewayHarness;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'escalation-'));
    const statePath = join(folder, 'state.sqlite');
    // The channel directory reads every channel's settings when the gateway starts.
    const stores = createSqliteStores(statePath, { ttlSeconds: 60 });
    await stores.channelSettings.put(HELP_CHANNEL, settingsOf(ON_CALL));
    await stores.channelSettings.put(
      OTHER_HELP_CHANNEL,
      settingsOf({ users: ['U0HR'], groups: ['S0ITDESK'] }),
    );
    await stores.close();
    harness = await startGatewayHarness({ env: { STATE_PATH: statePath } });
  });
  afterAll(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(() => {
    harness.slack.reset();
    harness.slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
    harness.slack.setUser(SAM, { displayName: 'Sam Other', locale: 'en-US' });
  });

  it('every answer there carries "Get a person", after its other buttons; elsewhere and in DMs none does', async () => {
    const { answer } = await askByMention(harness, 'How do I reset my password?', { channel: HELP_CHANNEL });
    const buttons = buttonsOf(answer);
    expect(buttons.at(-1)).toMatchObject({ actionId: ESCALATE, text: 'Get a person' });
    expect(buttons.map((button) => button.actionId)).toContain('rate_up');
    expect(textOf(answer)).not.toContain(NO_ANSWER);

    const elsewhere = await askByMention(harness, 'How do I reset my password?');
    expect(elsewhere.answer.body.channel).toBe(IDS.channel);
    expect(hasEscalateButton(elsewhere.answer)).toBe(false);

    // Without ESCALATE_TO and ESCALATION_CHANNEL_ID a DM has no one to call.
    await harness.sendEvent(directMessage({ text: 'How do I reset my password?' }));
    const inDm = await harness.slack.waitForCall('chat.update', (call) => call.body.channel === IDS.dm);
    expect(textOf(inDm)).toContain('password');
    expect(hasEscalateButton(inDm)).toBe(false);
  });

  it('an answer the robot did not have says so first, with the button before any other, most prominent', async () => {
    const { answer } = await askByMention(harness, UNKNOWN_QUESTION, { channel: HELP_CHANNEL });
    expect(sectionTexts(answer)[0]).toBe(NO_ANSWER);
    const [first, ...rest] = buttonsOf(answer);
    expect(first).toMatchObject({ actionId: ESCALATE, text: 'Get a person' });
    expect(blocksOf(answer).find((block) => block.block_id === ESCALATE)).toMatchObject({
      elements: [expect.objectContaining({ style: 'primary' })],
    });
    expect(rest.map((button) => button.actionId)).not.toContain(ESCALATE);
    // The notification's preview says it too.
    expect(String(answer.body.text)).toMatch(/^I have no answer to this/);
  });

  it('a click calls once in the thread, then the button gives way to who called; later clicks call no one', async () => {
    const question = 'How do I reset my password?';
    const { answer, threadTs } = await askByMention(harness, question, { channel: HELP_CHANNEL });
    const response = await harness.click(clickButton(answer, buttonOf(answer, ESCALATE), { threadTs }));
    expect(response.status).toBe(200);

    const call = await harness.slack.waitForCall('chat.postMessage', (posted) =>
      textOf(posted).includes('<!subteam^S0ITDESK>'),
    );
    expect(call.body).toMatchObject({ channel: HELP_CHANNEL, thread_ts: threadTs });
    expect(sectionTexts(call)).toEqual([
      `<!subteam^S0ITDESK> <@U0ONCALL>\n<@${IDS.user}> asks for a person to help with this question:`,
      `>${question}`,
    ]);
    const updated = await harness.slack.waitForCall(
      'chat.update',
      (update) => isLaterUpdateOf(answer)(update) && textOf(update).includes('called <!subteam^S0ITDESK>'),
    );
    expect(hasEscalateButton(updated)).toBe(false);
    expect(textOf(updated)).toMatch(
      new RegExp(
        `<@${IDS.user}> called <!subteam\\^S0ITDESK>, <@U0ONCALL> · <!date\\^\\d+\\^\\{date_short_pretty\\} \\{time\\}\\|`,
      ),
    );
    // The rest of the answer is still there.
    expect(textOf(updated)).toContain('password portal');
    expect(buttonsOf(updated).map((button) => button.actionId)).toContain('rate_up');

    // The button as a slow client still shows it, clicked again by the asker and by someone else.
    await harness.click(clickButton(answer, buttonOf(answer, ESCALATE), { threadTs }));
    await harness.click(clickButton(answer, buttonOf(answer, ESCALATE), { threadTs, user: SAM }));
    const told = await harness.slack.waitForCall(
      'chat.postEphemeral',
      (ephemeral) => ephemeral.body.user === SAM,
    );
    expect(textOf(told)).toContain('A person has already been called for this answer.');
    await harness.slack.waitForCall('chat.postEphemeral', (ephemeral) => ephemeral.body.user === IDS.user);
    const control = await controlCall(harness);
    expect(callsBesides(harness.slack, control)).toHaveLength(1);
    expect(laterUpdates(harness.slack, answer)).toHaveLength(1);
  });

  it('says who clicked when it was not the asker', async () => {
    const { answer, threadTs } = await askByMention(harness, UNKNOWN_QUESTION, { channel: HELP_CHANNEL });
    await harness.click(clickButton(answer, buttonOf(answer, ESCALATE), { threadTs, user: SAM }));
    const call = await harness.slack.waitForCall('chat.postMessage', (posted) =>
      textOf(posted).includes('<!subteam^S0ITDESK>'),
    );
    expect(sectionTexts(call)).toEqual([
      `<!subteam^S0ITDESK> <@U0ONCALL>\n<@${SAM}> asks for a person to help <@${IDS.user}> with this question:`,
      `>${UNKNOWN_QUESTION}`,
    ]);
    const updated = await harness.slack.waitForCall('chat.update', isLaterUpdateOf(answer));
    expect(textOf(updated)).toContain(`<@${SAM}> called <!subteam^S0ITDESK>, <@U0ONCALL> · `);
    // The no-answer line stays; only the button gave way.
    expect(sectionTexts(updated)[0]).toBe(NO_ANSWER);
  });

  it('a call Slack refuses is told to the clicker and logged, and the next click calls', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I connect to the VPN?', {
      channel: HELP_CHANNEL,
    });
    harness.slack.failNext('chat.postMessage', { error: 'not_in_channel' });
    await harness.click(clickButton(answer, buttonOf(answer, ESCALATE), { threadTs }));
    const told = await harness.slack.waitForCall('chat.postEphemeral', (call) => call.body.user === IDS.user);
    expect(textOf(told)).toContain('I could not reach a person just now. Please try again.');
    expect(laterUpdates(harness.slack, answer)).toEqual([]);
    const logged = harness.logs.find((record) => record.msg === 'the call for a person was not posted');
    expect(logged).toMatchObject({ channel: HELP_CHANNEL, threadTs, slackError: 'not_in_channel' });
    expect(logged?.contextKey).toEqual(expect.any(String));

    await harness.click(clickButton(answer, buttonOf(answer, ESCALATE), { threadTs }));
    const call = await harness.slack.waitForCall(
      'chat.postMessage',
      (posted) => posted.status === 200 && textOf(posted).includes('<!subteam^S0ITDESK>'),
    );
    expect(call.body.thread_ts).toBe(threadTs);
    await harness.slack.waitForCall('chat.update', isLaterUpdateOf(answer));
  });

  it('calls no one for a context key it did not issue, or for an answer given in another channel', async () => {
    const forged = blockActionsPayload({
      channel: HELP_CHANNEL,
      actions: [{ action_id: ESCALATE, block_id: ESCALATE, value: encodeAnswerValue('never-issued') ?? '' }],
    });
    await harness.click(forged);
    const expired = await harness.slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.body.user === IDS.user,
    );
    expect(textOf(expired)).toContain('This answer is too old');

    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?', {
      channel: HELP_CHANNEL,
    });
    const moved = clickButton(answer, buttonOf(answer, ESCALATE), { threadTs, user: SAM });
    await harness.click({ ...moved, channel: { id: OTHER_HELP_CHANNEL, name: 'hr-help' } });
    await harness.slack.waitForCall('chat.postEphemeral', (call) => call.body.user === SAM);

    const malformed = blockActionsPayload({
      channel: HELP_CHANNEL,
      actions: [{ action_id: ESCALATE, block_id: ESCALATE, value: '{"v":1,"k":""}' }],
    });
    const logsBefore = harness.logs.length;
    await harness.click(malformed);
    // The gateway's own verdict on the malformed click, then a call that must come after it.
    await waitFor(() =>
      harness.logs
        .slice(logsBefore)
        .some((line) => line.msg === 'ignored an escalation click with a malformed value'),
    );
    const control = await controlCall(harness);
    expect(callsBesides(harness.slack, control)).toEqual([]);
    expect(laterUpdates(harness.slack, answer)).toEqual([]);
  });

  it('a click that is not signed, or signed with another secret, is refused and calls no one', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?', {
      channel: HELP_CHANNEL,
    });
    const click = clickButton(answer, buttonOf(answer, ESCALATE), { threadTs });
    const unsigned = await fetch(new URL('/slack/events', harness.url), {
      method: 'POST',
      headers: { 'content-type': FORM_CONTENT_TYPE },
      body: interactionBody(click),
    });
    expect(unsigned.status).toBe(401);
    const wronglySigned = await sendInteraction(harness.url, 'not-the-signing-secret', click);
    expect(wronglySigned.status).toBe(401);

    // The same click, correctly signed, calls, once: the refusals above were the signature's.
    const signed = await harness.click(click);
    expect(signed.status).toBe(200);
    await harness.slack.waitForCall('chat.postMessage', (call) =>
      textOf(call).includes('<!subteam^S0ITDESK>'),
    );
    expect(callsFor(harness.slack)).toHaveLength(1);
  });
});

describe('in a DM, with ESCALATE_TO and ESCALATION_CHANNEL_ID', () => {
  const DESK = 'C0SERVICEDESK';
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startGatewayHarness({
      env: { ESCALATE_TO: '<!subteam^S0ITDESK|@it-desk>, <@U0ONCALL|oncall>', ESCALATION_CHANNEL_ID: DESK },
    });
  });
  afterAll(async () => {
    await harness.close();
  });
  beforeEach(() => {
    harness.slack.reset();
    harness.slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
  });

  it('posts the call in the escalation channel with the question, the asker and the answer', async () => {
    const question = 'How do I reset my password?';
    await harness.sendEvent(directMessage({ text: question }));
    const answer = await harness.slack.waitForCall('chat.update', (call) => call.body.channel === IDS.dm);
    expect(buttonsOf(answer).at(-1)).toMatchObject({ actionId: ESCALATE, text: 'Get a person' });

    await harness.click(clickButton(answer, buttonOf(answer, ESCALATE)));
    const call = await harness.slack.waitForCall(
      'chat.postMessage',
      (posted) => posted.body.channel === DESK,
    );
    expect(call.body.thread_ts).toBeUndefined();
    const [lead, quoted, answered, answerQuote] = sectionTexts(call);
    expect(lead).toBe(
      `<!subteam^S0ITDESK> <@U0ONCALL>\n<@${IDS.user}> asks for a person to help with a question asked in a direct message with the app:`,
    );
    expect(quoted).toBe(`>${question}`);
    expect(answered).toBe('The robot answered:');
    expect(answerQuote).toMatch(/^>.*password portal/);

    const updated = await harness.slack.waitForCall('chat.update', isLaterUpdateOf(answer));
    expect(hasEscalateButton(updated)).toBe(false);
    expect(textOf(updated)).toContain(`<@${IDS.user}> called <!subteam^S0ITDESK>, <@U0ONCALL> · `);
    // Nothing was posted in the DM itself but the answer.
    expect(
      harness.slack.calls('chat.postMessage').filter((posted) => posted.body.channel === IDS.dm),
    ).toHaveLength(1);
  });
});

describe('two replicas on one Redis and one Slack', () => {
  const fleet = useRedisReplicas('escalation', {
    users: {
      [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' },
      [SAM]: { displayName: 'Sam Other', locale: 'en-US' },
    },
    async beforeStart(redis) {
      const stores = await createStores({
        state: { kind: 'redis', server: { kind: 'url', url: redis.url }, keyPrefix: redis.keyPrefix },
        maxEntries: 10,
        ttlSeconds: 60,
      });
      await stores.channelSettings.put(HELP_CHANNEL, settingsOf(ON_CALL));
      await stores.close();
    },
  });

  it('a click on A, then on B, calls once', async () => {
    const {
      replicas: [replicaA, replicaB],
      slack,
    } = fleet();
    const { answer, threadTs } = await askByMention(replicaA, 'How do I reset my password?', {
      channel: HELP_CHANNEL,
    });
    const click = () => clickButton(answer, buttonOf(answer, ESCALATE), { threadTs });
    await replicaA.click(click());
    await slack.waitForCall('chat.update', isLaterUpdateOf(answer), 5_000);
    // B still has the button in front of Sam: the click is the same answer's, on another replica.
    await replicaB.click({ ...click(), user: { id: SAM, username: 'sam', name: 'sam', team_id: IDS.team } });
    const told = await slack.waitForCall('chat.postEphemeral', (call) => call.body.user === SAM, 5_000);
    expect(textOf(told)).toContain('A person has already been called for this answer.');
    const control = await controlCall(replicaB);
    expect(callsBesides(slack, control).map((call) => call.body)).toEqual([
      expect.objectContaining({ channel: HELP_CHANNEL, thread_ts: threadTs }),
    ]);
  });
});
