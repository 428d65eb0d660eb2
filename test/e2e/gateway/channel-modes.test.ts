// What a channel's settings do to what is said in it, with the real gateway over signed HTTP: a
// channel that answers questions (or everything) on the app's own, for its askers only; another
// robot; answers only the asker sees; the app's words in one language. And what is never answered
// on the app's own, in any mode. The settings are in the gateway's SQLite file before it starts, as
// a restart finds them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSettings } from '../../../src/conversation/channel-settings.js';
import { writeChannelSettings } from '../../../src/stores/sqlite.js';
import { expectLeftAlone } from '../../support/event-verdicts.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  buttonOf,
  buttonsOf,
  clickButton,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import {
  appMention,
  botMessage,
  channelMessage,
  IDS,
  messageChanged,
  nextTs,
} from '../../support/slack-payloads.js';
import { retryHeaders } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const QUESTIONS = 'C0QUESTIONS';
const ALL_FOR_ASKERS = 'C0ASKERS';
const IT_DESK = 'C0ITDESK';
const PRIVATE = 'C0PRIVATE';
const PRIVATE_WITH_CALL = 'C0PRIVCALL';
const CHINESE = 'C0CHINESE';
const ASKER = 'U0ASKER';
const GROUPIE = 'U0GROUPIE';
const OTHER = 'U0OTHER';
const ASKERS_GROUP = 'S0ASKERS';
const WAIT_MS = 8_000;

const folder = mkdtempSync(join(tmpdir(), 'channel-modes-'));
const statePath = join(folder, 'gateway.sqlite');
const placeholderStatePath = join(folder, 'placeholder-at-once.sqlite');
{
  const privately: ChannelSettings = { reply: 'ephemeral', answer: 'questions' };
  const channels: Record<string, ChannelSettings> = {
    [QUESTIONS]: { answer: 'questions' },
    [ALL_FOR_ASKERS]: { answer: 'all', askers: { users: [ASKER], groups: [ASKERS_GROUP] } },
    [IT_DESK]: { robot: 2 },
    [PRIVATE]: privately,
    [PRIVATE_WITH_CALL]: { reply: 'ephemeral', escalate: { users: [OTHER], groups: [] } },
    [CHINESE]: { lang: 'zh' },
  };
  await writeChannelSettings(statePath, channels, 'U0OPERATOR');
  await writeChannelSettings(placeholderStatePath, { [PRIVATE]: privately }, 'U0OPERATOR');
}

// A placeholder only past 10 s: every answer here is one message, the first in its thread.
const harness = useGatewayHarness({ env: { STATE_PATH: statePath, PLACEHOLDER_DELAY_MS: '10000' } });

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

beforeEach(() => {
  const { slack } = harness();
  for (const [id, displayName] of [
    [ASKER, 'Ann Asker'],
    [GROUPIE, 'Gus Group'],
    [OTHER, 'Otto Other'],
  ] as const) {
    slack.setUser(id, { displayName, locale: 'en-US' });
  }
  slack.setUsergroup(ASKERS_GROUP, [GROUPIE]);
});

/** Sends a message event and waits for the answer in its thread (the first post there). */
async function answerTo(event: { type: string; ts: string; channel: string }): Promise<RecordedCall> {
  const h = harness();
  expect((await h.sendEvent(event)).status).toBe(200);
  return h.slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.channel === event.channel && call.body.thread_ts === event.ts,
    WAIT_MS,
  );
}

/** Sends an event that must get no answer: counted as ignored, with nothing asked, posted or looked up. */
async function expectIgnored(event: { type: string; ts: string; channel: string }): Promise<void> {
  await expectLeftAlone(harness(), event);
}

describe('answer: questions', () => {
  it('answers a top-level message that reads as a question, without a mention, in its thread', async () => {
    const event = channelMessage({ channel: QUESTIONS, text: 'How do I connect to the VPN?' });
    const answer = await answerTo(event);
    expect(textOf(answer)).toContain('GlobalProtect');
    expect(harness().robotAsks().at(-1)).toMatchObject({ question: 'How do I connect to the VPN?' });
  });

  it('answers a Chinese question and one that only ends with a question mark', async () => {
    await answerTo(channelMessage({ channel: QUESTIONS, text: '怎么连接VPN' }));
    await answerTo(channelMessage({ channel: QUESTIONS, text: 'the vpn client, anyone?' }));
  });

  it('leaves a statement alone, at no cost: no robot, no Slack call', async () => {
    await expectIgnored(channelMessage({ channel: QUESTIONS, text: 'the VPN is slow again today' }));
    await expectIgnored(channelMessage({ channel: QUESTIONS, text: 'Isaac said the VPN is back' }));
  });

  it('answers follow-ups in a thread it answers, and nothing in a thread it does not', async () => {
    const question = channelMessage({ channel: QUESTIONS, text: 'How do I connect to the VPN?' });
    await answerTo(question);
    const followUp = channelMessage({
      channel: QUESTIONS,
      text: 'and how do I reset my password?',
      thread_ts: question.ts,
    });
    const h = harness();
    const mark = h.slack.calls().length;
    expect((await h.sendEvent(followUp)).status).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.thread_ts === question.ts && h.slack.calls().indexOf(call) >= mark,
      WAIT_MS,
    );
    expect(textOf(answer)).toContain('password portal');
    const elsewhere = nextTs();
    await expectIgnored(
      channelMessage({ channel: QUESTIONS, text: 'how do we do it?', thread_ts: elsewhere }),
    );
  });

  describe('never answered on its own', () => {
    it('a bot, the app itself, or a message from another app', async () => {
      await expectIgnored(botMessage({ channel: QUESTIONS, text: 'How do I connect to the VPN?' }));
      await expectIgnored(
        channelMessage({ channel: QUESTIONS, user: IDS.botUser, text: 'How do I connect to the VPN?' }),
      );
      const forwarded = {
        ...channelMessage({ channel: QUESTIONS, text: 'How do I connect to the VPN?' }),
        bot_profile: { id: 'B0FORWARD' },
      };
      await expectIgnored(forwarded);
    });

    it('an edit, a join, a file share, a topic change', async () => {
      await expectIgnored(messageChanged({ channel: QUESTIONS, text: 'How do I connect to the VPN?' }));
      for (const subtype of ['channel_join', 'file_share', 'channel_topic', 'thread_broadcast']) {
        const event = {
          ...channelMessage({ channel: QUESTIONS, text: 'How do I connect to the VPN?' }),
          subtype,
        };
        await expectIgnored(event);
      }
    });

    it('a question to somebody else, a user group or the whole channel', async () => {
      for (const text of [
        '<@U0SOMEONE> how do I connect to the VPN?',
        'how do I connect to the VPN <@U0SOMEONE>?',
        '<!subteam^S0NETWORK|@network> how do I connect to the VPN?',
        '<!here> how do I connect to the VPN?',
        '<!channel> what happened to the VPN?',
      ]) {
        await expectIgnored(channelMessage({ channel: QUESTIONS, text }));
      }
    });

    it('a question in a channel without settings, unless the app is mentioned', async () => {
      await expectIgnored(channelMessage({ channel: 'C0PLAIN', text: 'How do I connect to the VPN?' }));
      const mention = appMention({
        channel: 'C0PLAIN',
        text: `<@${IDS.botUser}> How do I connect to the VPN?`,
      });
      await answerTo(mention);
    });

    it('the same question again when Slack delivers it twice', async () => {
      const h = harness();
      const event = channelMessage({ channel: QUESTIONS, text: 'How do I connect to the VPN?' });
      const eventId = `Ev0MODES${event.ts.replace('.', '')}`;
      const asks = h.robotAsks().length;
      expect((await h.sendEvent(event, undefined, eventId)).status).toBe(200);
      await h.slack.waitForCall(
        'chat.postMessage',
        (call) => call.body.channel === QUESTIONS && call.body.thread_ts === event.ts,
        WAIT_MS,
      );
      // Slack's retry: the same envelope again, with its retry headers.
      expect((await h.sendEvent(event, retryHeaders(1, 'http_timeout'), eventId)).status).toBe(200);
      await waitFor(
        () =>
          h.logs.some(
            (line) =>
              line.msg === 'duplicate delivery ignored' && line.ts === event.ts && line.retryNum === 1,
          ),
        { timeoutMs: WAIT_MS, message: 'the retry was found a duplicate' },
      );
      expect(h.robotAsks().slice(asks)).toHaveLength(1);
      const inThread = h.slack
        .calls()
        .filter((call) => call.body.channel === QUESTIONS && call.body.thread_ts === event.ts);
      expect(inThread.map((call) => call.method)).toEqual(['chat.postMessage']);
    });
  });
});

describe('answer: all, for some askers', () => {
  it('answers every top-level message of its askers, by id or by user group', async () => {
    await answerTo(channelMessage({ channel: ALL_FOR_ASKERS, user: ASKER, text: 'VPN broken' }));
    await answerTo(channelMessage({ channel: ALL_FOR_ASKERS, user: GROUPIE, text: 'printer jammed' }));
  });

  it("leaves other people's messages alone, but answers them when they mention the app", async () => {
    await expectIgnored(channelMessage({ channel: ALL_FOR_ASKERS, user: OTHER, text: 'VPN broken' }));
    const mention = appMention({
      channel: ALL_FOR_ASKERS,
      user: OTHER,
      text: `<@${IDS.botUser}> How do I connect to the VPN?`,
    });
    await answerTo(mention);
  });

  it('leaves an empty message alone', async () => {
    await expectIgnored(channelMessage({ channel: ALL_FOR_ASKERS, user: ASKER, text: '   ' }));
  });
});

describe('robot', () => {
  it("asks the channel's robot, and its answer comes from that robot's knowledge base", async () => {
    const mention = appMention({ channel: IT_DESK, text: `<@${IDS.botUser}> How do I reset my password?` });
    const answer = await answerTo(mention);
    expect(harness().robotAsks().at(-1)).toMatchObject({ robotFlag: 2 });
    const plain = appMention({ channel: 'C0PLAIN', text: `<@${IDS.botUser}> How do I reset my password?` });
    const elsewhere = await answerTo(plain);
    // The same question, another knowledge base: another answer.
    expect(textOf(answer)).not.toBe(textOf(elsewhere));
  });

  it('a suggestion clicked under its answer is asked of the same robot', async () => {
    const h = harness();
    const mention = appMention({ channel: IT_DESK, text: `<@${IDS.botUser}> How do I connect to the VPN?` });
    const answer = await answerTo(mention);
    const suggestion = buttonsOf(answer).find((button) => button.actionId.startsWith('suggestion:'));
    if (!suggestion) throw new Error('the answer offered no suggestion');
    const asks = h.robotAsks().length;
    const mark = h.slack.calls().length;
    await h.click(clickButton(answer, suggestion, { threadTs: mention.ts, ts: String(answer.response?.ts) }));
    await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.thread_ts === mention.ts && h.slack.calls().indexOf(call) >= mark,
      WAIT_MS,
    );
    expect(h.robotAsks().slice(asks)).toEqual([expect.objectContaining({ robotFlag: 2, questionFlag: 1 })]);
  });
});

describe('reply: ephemeral', () => {
  it('shows the answer to the asker alone, in the thread', async () => {
    const h = harness();
    const mention = appMention({ channel: PRIVATE, text: `<@${IDS.botUser}> How do I connect to the VPN?` });
    expect((await h.sendEvent(mention)).status).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.body.thread_ts === mention.ts,
      WAIT_MS,
    );
    expect(answer.body.user).toBe(IDS.user);
    expect(textOf(answer)).toContain('GlobalProtect');
    expect(h.slack.calls('chat.postMessage').filter((call) => call.body.channel === PRIVATE)).toEqual([]);
  });

  it('answers questions on its own privately too, and a 👍 on the private answer reaches the robot', async () => {
    const h = harness();
    const question = channelMessage({ channel: PRIVATE, user: ASKER, text: 'How do I connect to the VPN?' });
    expect((await h.sendEvent(question)).status).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.body.thread_ts === question.ts,
      WAIT_MS,
    );
    expect(answer.body.user).toBe(ASKER);
    const feedbacks = h.feedbacks().length;
    // Slack sends a click in an ephemeral message with the container only, no message.
    const { message: _none, ...click } = clickButton(answer, buttonOf(answer, 'rate_up'), {
      user: ASKER,
      threadTs: question.ts,
      ts: String(answer.response?.message_ts),
    });
    const response = await h.click({
      ...click,
      container: { ...click.container, is_ephemeral: true, thread_ts: question.ts },
      response_url: h.slack.responseUrl('private-rating'),
    });
    expect(response.status).toBe(200);
    const rated = await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.body.user === ASKER && textOf(call).includes('rated this answer 👍'),
      WAIT_MS,
    );
    expect(rated.body.thread_ts).toBe(question.ts);
    expect(h.feedbacks().slice(feedbacks)).toEqual([expect.objectContaining({ status: 1 })]);
  });
});

describe('reply: ephemeral, with a robot slower than the placeholder delay', () => {
  // Every question here is past its placeholder delay at once, as with a slow robot.
  const placeholderAtOnce = useGatewayHarness({
    env: { STATE_PATH: placeholderStatePath, PLACEHOLDER_DELAY_MS: '0' },
  });

  it('puts no "working" placeholder in the channel, where everyone would see it', async () => {
    const h = placeholderAtOnce();
    // The control: on this gateway a public question gets its placeholder, replaced by the answer.
    const { answer: publicAnswer } = await askByMention(h, 'How do I connect to the VPN?', {
      channel: 'C0PLAIN',
    });
    expect(textOf(publicAnswer)).toContain('GlobalProtect');

    const mention = appMention({ channel: PRIVATE, text: `<@${IDS.botUser}> How do I connect to the VPN?` });
    expect((await h.sendEvent(mention)).status).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.body.thread_ts === mention.ts,
      WAIT_MS,
    );
    expect(answer.body.user).toBe(IDS.user);
    expect(textOf(answer)).toContain('GlobalProtect');
    const inChannel = h.slack.calls().filter((call) => call.body.channel === PRIVATE);
    expect(inChannel.map((call) => call.method)).toEqual(['chat.postEphemeral']);
  });
});

describe('reply: ephemeral, escalate', () => {
  it('calls a person from a private answer in its thread, and tells the clicker alone', async () => {
    const h = harness();
    const mention = appMention({
      channel: PRIVATE_WITH_CALL,
      text: `<@${IDS.botUser}> How do I connect to the VPN?`,
    });
    expect((await h.sendEvent(mention)).status).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.body.thread_ts === mention.ts,
      WAIT_MS,
    );
    const { message: _none, ...click } = clickButton(answer, buttonOf(answer, 'escalate'), {
      threadTs: mention.ts,
      ts: String(answer.response?.message_ts),
    });
    expect(
      (
        await h.click({
          ...click,
          container: { ...click.container, is_ephemeral: true, thread_ts: mention.ts },
          response_url: h.slack.responseUrl('private-call'),
        })
      ).status,
    ).toBe(200);
    const call = await h.slack.waitForCall(
      'chat.postMessage',
      (posted) => posted.body.channel === PRIVATE_WITH_CALL && posted.body.thread_ts === mention.ts,
      WAIT_MS,
    );
    expect(textOf(call)).toContain(`<@${OTHER}>`);
    const told = await h.slack.waitForCall(
      'chat.postEphemeral',
      (posted) => posted.body.user === IDS.user && textOf(posted).includes(`called <@${OTHER}>`),
      WAIT_MS,
    );
    expect(told.body.thread_ts).toBe(mention.ts);
  });
});

describe('lang', () => {
  it("speaks the channel's language to everyone there, whatever their own", async () => {
    const ratings = (answer: RecordedCall) =>
      buttonsOf(answer)
        .filter((button) => button.actionId.startsWith('rate_'))
        .map((button) => button.text);
    // Two askers whose own language is English (and one whose own is Chinese) get the app's words in Chinese.
    for (const user of [IDS.user, OTHER, 'U_ZH']) {
      const mention = appMention({
        channel: CHINESE,
        user,
        text: `<@${IDS.botUser}> How do I connect to the VPN?`,
      });
      expect(ratings(await answerTo(mention))).toEqual(['👍 有帮助', '👎 没帮助']);
    }
    // The control: the same English asker in a channel without a language gets them in English.
    const plain = appMention({ channel: 'C0PLAIN', text: `<@${IDS.botUser}> How do I connect to the VPN?` });
    expect(ratings(await answerTo(plain))).toEqual(['👍 Helpful', '👎 Not helpful']);
  });
});
