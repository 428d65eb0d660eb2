// A channel that answers on its own answers what the robot knows and says nothing otherwise: a
// message nobody addressed to the app costs the channel nothing when the robot has no answer (no
// reply, no "Get a person", no review card), a thread's chatter is not even asked, and a mention or a
// DM still gets the no-match answer with Get a person. Real gateway over signed HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSettings } from '../../../src/conversation/channel-settings.js';
import { writeChannelSettings } from '../../../src/stores/sqlite.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { buttonsOf, textOf, useGatewayHarness } from '../../support/gateway-harness.js';
import { appMention, channelMessage, directMessage, IDS } from '../../support/slack-payloads.js';

const HELP = 'C0ITHELP';
const EVERYTHING = 'C0EVERYTHING';
const REVIEW = 'C0REVIEWQ';
const ONCALL = 'S0ONCALL';
const ASKER = 'U0CHATTER';
const WAIT_MS = 8_000;

const folder = mkdtempSync(join(tmpdir(), 'unaddressed-chatter-'));
const statePath = join(folder, 'gateway.sqlite');
{
  const escalate = { users: [], groups: [ONCALL] };
  const channels: Record<string, ChannelSettings> = {
    [HELP]: { answer: 'questions', robot: 2, escalate },
    [EVERYTHING]: { answer: 'all', robot: 2, escalate },
  };
  await writeChannelSettings(statePath, channels, 'U0OPERATOR');
}

// A placeholder at once: a question the app was not addressed with must still show none.
const harness = useGatewayHarness({
  env: {
    STATE_PATH: statePath,
    PLACEHOLDER_DELAY_MS: '0',
    REVIEW_CHANNEL_ID: REVIEW,
    REVIEW_CARD_REFRESH_SECONDS: '0',
  },
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

beforeEach(() => {
  const { slack } = harness();
  slack.setUser(ASKER, { displayName: 'Chad Chatter', locale: 'en-US' });
  slack.setUsergroup(ONCALL, ['U0ONCALL'], { handle: 'it-oncall', name: 'IT on-call' });
});

async function passedOver(): Promise<number> {
  const metrics = await (await fetch(`${harness().url}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find((candidate) =>
      candidate.startsWith('cs_gateway_slack_events_total{type="question",outcome="passed_over"}'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Sends a message event and waits for the first post in its thread. */
async function answerTo(event: { ts: string; channel: string; type: string }, threadTs = event.ts) {
  const h = harness();
  const mark = h.slack.calls().length;
  expect((await h.sendEvent(event)).status).toBe(200);
  return h.slack.waitForCall(
    'chat.postMessage',
    (call) =>
      call.body.channel === event.channel &&
      call.body.thread_ts === threadTs &&
      h.slack.calls().indexOf(call) >= mark,
    WAIT_MS,
  );
}

/** Every Slack call made since `mark` that posts or changes a message (the control's answer aside). */
function postsSince(mark: number, except: RecordedCall): RecordedCall[] {
  return harness()
    .slack.calls()
    .slice(mark)
    .filter((call) => call !== except && /^chat\.(postMessage|postEphemeral|update)$/.test(call.method));
}

describe('in a channel that answers questions on its own', () => {
  it('asks the robot, then says nothing, calls nobody and makes no card when it has no answer', async () => {
    const h = harness();
    const mark = h.slack.calls().length;
    const asksBefore = h.robotAsks().length;
    const passedBefore = await passedOver();
    const logsBefore = h.logs.length;
    const chatter = ['lunch?', 'Is it lunch time yet?', 'who is in the office today?'];
    for (const text of chatter) {
      expect((await h.sendEvent(channelMessage({ channel: HELP, user: ASKER, text }))).status).toBe(200);
    }
    // The asker's questions are answered in order: once the control is answered, the chatter was decided.
    const control = await answerTo(
      channelMessage({ channel: HELP, user: ASKER, text: 'How do I connect to the VPN?' }),
    );
    expect(textOf(control)).toContain('GlobalProtect');
    expect(
      h
        .robotAsks()
        .slice(asksBefore)
        .map((ask) => ask.question),
    ).toEqual([...chatter, 'How do I connect to the VPN?']);
    expect(postsSince(mark, control)).toEqual([]);
    expect(
      h.slack
        .calls()
        .slice(mark)
        .filter((call) => call.body.channel === REVIEW),
    ).toEqual([]);
    expect((await passedOver()) - passedBefore).toBe(chatter.length);
    // Chatter is counted, not logged at info: a busy channel would fill the logs.
    expect(h.logs.slice(logsBefore).filter((line) => line.level >= 30 && line.kind === 'pass')).toEqual([]);
  });

  it('does not ask a thread reply that is not a question, and passes over one the robot cannot answer', async () => {
    const h = harness();
    const question = channelMessage({ channel: HELP, user: ASKER, text: 'How do I connect to the VPN?' });
    await answerTo(question);
    const mark = h.slack.calls().length;
    const asksBefore = h.robotAsks().length;
    const reply = (text: string) =>
      channelMessage({ channel: HELP, user: ASKER, text, thread_ts: question.ts });
    expect((await h.sendEvent(reply('ok thanks'))).status).toBe(200);
    expect((await h.sendEvent(reply('is it lunch time yet?'))).status).toBe(200);
    const control = await answerTo(reply('and how do I reset my password?'), question.ts);
    expect(textOf(control)).toContain('password portal');
    expect(
      h
        .robotAsks()
        .slice(asksBefore)
        .map((ask) => ask.question),
    ).toEqual(['is it lunch time yet?', 'and how do I reset my password?']);
    expect(postsSince(mark, control)).toEqual([]);
  });

  it('keeps the no-match answer with Get a person for a mention, and makes its card', async () => {
    const h = harness();
    const mention = appMention({
      channel: HELP,
      user: ASKER,
      text: `<@${IDS.botUser}> is it lunch time yet?`,
    });
    const placeholder = await answerTo(mention);
    const answer = await h.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === placeholder.response?.ts && call.body.channel === HELP,
      WAIT_MS,
    );
    expect(textOf(answer)).toContain('I have no answer to this in the knowledge base');
    expect(buttonsOf(answer).map((button) => button.actionId)).toContain('escalate');
    const card = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === REVIEW,
      WAIT_MS,
    );
    expect(textOf(card)).toContain('is it lunch time yet?');
  });
});

describe('in a channel that answers everything on its own', () => {
  it('passes over chatter the robot has no answer for, and answers what it knows', async () => {
    const h = harness();
    const mark = h.slack.calls().length;
    const passedBefore = await passedOver();
    expect(
      (await h.sendEvent(channelMessage({ channel: EVERYTHING, user: ASKER, text: 'lunch' }))).status,
    ).toBe(200);
    const control = await answerTo(channelMessage({ channel: EVERYTHING, user: ASKER, text: 'VPN' }));
    expect(textOf(control)).toContain('GlobalProtect');
    expect(postsSince(mark, control)).toEqual([]);
    expect((await passedOver()) - passedBefore).toBe(1);
  });
});

describe('in a DM', () => {
  it('still says it has no answer', async () => {
    const h = harness();
    const dm = directMessage({ user: ASKER, text: 'is it lunch time yet?' });
    const mark = h.slack.calls().length;
    expect((await h.sendEvent(dm)).status).toBe(200);
    const placeholder = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === IDS.dm && h.slack.calls().indexOf(call) >= mark,
      WAIT_MS,
    );
    const answer = await h.slack.waitForCall(
      'chat.update',
      (call) => call.body.channel === IDS.dm && call.body.ts === placeholder.response?.ts,
      WAIT_MS,
    );
    expect(textOf(answer)).toContain("I don't know the answer to that yet");
  });
});
