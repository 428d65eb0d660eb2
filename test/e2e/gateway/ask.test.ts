import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PlatformClient, StaticTokenProvider } from '../../../src/platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN } from '../../../src/simulator/index.js';
import { expectLeftAlone } from '../../support/event-verdicts.js';
import {
  askByMention,
  blocksOf,
  buttonsOf,
  type GatewayHarness,
  isRecord,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import {
  appMention,
  botMessage,
  channelMessage,
  directMessage,
  IDS,
  messageChanged,
  messageDeleted,
} from '../../support/slack-payloads.js';
import { waitFor } from '../../support/wait.js';

let harness: GatewayHarness;

beforeAll(async () => {
  harness = await startGatewayHarness();
});
afterAll(async () => {
  await harness.close();
});
beforeEach(() => {
  harness.slack.reset();
  harness.slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
  harness.slack.setUser('U_OTHER', { displayName: 'Sam Other', locale: 'en-US' });
  harness.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
});

const CONTROL_QUESTION = 'How do I connect to the VPN?';

/**
 * Asks a question as the same user in the same channel and waits for its answer (the gateway takes
 * one person's messages in turn), then expects that to be the only robot ask since `asksBefore`.
 */
async function expectOnlyTheControlAsked(asksBefore: number): Promise<void> {
  await askByMention(harness, CONTROL_QUESTION);
  expect(
    harness
      .robotAsks()
      .slice(asksBefore)
      .map((ask) => ask.question),
  ).toEqual([CONTROL_QUESTION]);
}

describe('a mention in a channel', () => {
  it('is answered in the thread of the mention, replacing a "working" placeholder', async () => {
    const asksBefore = harness.robotAsks().length;
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');

    const placeholder = harness.slack
      .calls('chat.postMessage')
      .find((call) => call.body.thread_ts === threadTs);
    expect(placeholder?.body.channel).toBe(IDS.channel);
    expect(textOf(answer)).toContain('password portal');
    // The question went to the robot as the spec's chat_user_robot_ask, mention removed.
    const ask = harness.robotAsks().slice(asksBefore);
    expect(ask).toHaveLength(1);
    expect(ask[0]).toMatchObject({
      sysNum: 'acme',
      partnerId: `slack-${IDS.team}-${IDS.user}`,
      question: 'How do I reset my password?',
      uname: 'Jane Doe',
      questionFlag: 0,
      requestText: 'How do I reset my password?',
    });
  });

  it('shows the suggestions as buttons under the lead-in, and 👍/👎 for a real answer', async () => {
    const { answer } = await askByMention(harness, 'How do I reset my password?');
    const buttons = buttonsOf(answer);
    const suggestions = buttons.filter((button) => button.actionId.startsWith('suggestion:'));
    expect(suggestions.length).toBeGreaterThan(0);
    for (const suggestion of suggestions) expect(suggestion.text.length).toBeLessThanOrEqual(75);
    expect(buttons.map((button) => button.actionId)).toEqual(
      expect.arrayContaining(['rate_up', 'rate_down']),
    );
    expect(buttons.find((button) => button.actionId === 'rate_up')?.text).toContain('👍');
    expect(typeof answer.body.text).toBe('string');
    expect(String(answer.body.text).length).toBeGreaterThan(0);
  });

  it('offers no rating for an "unknown question" answer', async () => {
    const { answer } = await askByMention(harness, 'xyzzy plugh frobnicate');
    const actionIds = buttonsOf(answer).map((button) => button.actionId);
    expect(actionIds).not.toContain('rate_up');
    expect(actionIds.some((id) => id.startsWith('suggestion:'))).toBe(true);
  });

  it('makes the question plain: other mentions, channels, links and entities become readable', async () => {
    const asksBefore = harness.robotAsks().length;
    await askByMention(
      harness,
      'ask <@U_OTHER|sam> in <#C123|it-help> about <https://vpn.example.com|VPN> &amp; wifi',
    );
    expect(harness.robotAsks()[asksBefore]?.question).toBe(
      'ask @sam in #it-help about VPN (https://vpn.example.com) & wifi',
    );
  });

  it('names a user mentioned without a label, as Slack sends mentions, by their display name', async () => {
    const asksBefore = harness.robotAsks().length;
    await askByMention(harness, 'is <@U_OTHER> or <@U_ZH> on call for the VPN?');
    expect(harness.robotAsks()[asksBefore]?.question).toBe('is @Sam Other or @王小明 on call for the VPN?');
  });

  it('answers a mention with no question with help, without calling the robot', async () => {
    const asksBefore = harness.robotAsks().length;
    const event = appMention({ text: `<@${IDS.botUser}>   ` });
    expect((await harness.sendEvent(event)).status).toBe(200);
    const help = await harness.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.thread_ts === event.ts,
    );
    expect(textOf(help).toLowerCase()).toContain('ask');
    await expectOnlyTheControlAsked(asksBefore);
  });

  it('refuses an oversized question clearly, without calling the robot', async () => {
    const asksBefore = harness.robotAsks().length;
    const event = appMention({ text: `<@${IDS.botUser}> ${'why '.repeat(400)}` });
    await harness.sendEvent(event);
    const reply = await harness.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.thread_ts === event.ts,
    );
    expect(textOf(reply)).toContain('1,000');
    await expectOnlyTheControlAsked(asksBefore);
  });

  it('splits a very long answer across messages that Slack accepts, losing none of it', async () => {
    // An operator makes an entry's answer far longer than one Slack message can hold.
    const paragraphs = Array.from(
      { length: 60 },
      (_, index) =>
        `<p>Rule ${index + 1}: <b>book</b> through the portal &amp; keep receipts. ${'Details. '.repeat(50)}</p>`,
    );
    const platform = new PlatformClient({
      openUrl: harness.simulator.url,
      baseUrl: harness.simulator.url,
      tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
      timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
    });
    await platform.updateRobotDoc({ docId: 'doc-travel-policy', answerDesc: paragraphs.join('') });
    await platform.close();

    const { answer, threadTs } = await askByMention(harness, 'What is the travel policy?');
    const rest = await waitFor(() => {
      const posts = harness.slack
        .calls('chat.postMessage')
        .filter((call) => call.body.thread_ts === threadTs && blocksOf(call).length > 0);
      // The placeholder is the first post; the answer's later parts follow it.
      return posts.some((call) => textOf(call).includes('Rule 60:')) ? posts.slice(1) : undefined;
    });
    const parts = [answer, ...rest];
    expect(parts.length).toBeGreaterThan(1);
    const shown = parts.map(textOf).join('\n');
    for (const rule of [1, 30, 60]) expect(shown).toContain(`Rule ${rule}:`);
    for (const part of parts) {
      expect(blocksOf(part).length).toBeLessThanOrEqual(50);
      expect(JSON.stringify(part.body.blocks).length).toBeLessThanOrEqual(13_000);
      expect(String(part.body.text).length).toBeGreaterThan(0);
      for (const block of blocksOf(part)) {
        if (block.type === 'section' && isRecord(block.text)) {
          expect(String(block.text.text).length).toBeLessThanOrEqual(3000);
        }
      }
    }
    // Suggestions and ratings come once, on the last part.
    expect(parts.slice(0, -1).every((part) => buttonsOf(part).length === 0)).toBe(true);
    expect(buttonsOf(parts[parts.length - 1] ?? answer).some((button) => button.actionId === 'rate_up')).toBe(
      true,
    );
  });
});

describe('a direct message', () => {
  it('is answered in the DM itself, not in a thread', async () => {
    const event = directMessage({ text: '忘记密码怎么办？', user: 'U_ZH' });
    await harness.sendEvent(event);
    const placeholder = await harness.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === IDS.dm,
    );
    expect(placeholder.body.thread_ts).toBeUndefined();
    const answer = await harness.slack.waitForCall('chat.update', (call) => call.body.channel === IDS.dm);
    expect(textOf(answer)).toContain('密码');
    // A Chinese-speaking user gets the app's own words in Chinese.
    expect(buttonsOf(answer).find((button) => button.actionId === 'rate_up')?.text).toMatch(
      /[\u4e00-\u9fff]/,
    );
  });

  it('in a DM thread (a thread of the assistant panel) is answered in that thread, with no placeholder', async () => {
    const parent = directMessage({ text: 'VPN' });
    const reply = directMessage({ text: 'How do I connect to the VPN?', thread_ts: parent.ts });
    await harness.sendEvent(reply);
    const answer = await harness.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === IDS.dm,
    );
    expect(answer.body.thread_ts).toBe(parent.ts);
    expect(textOf(answer)).toContain('VPN');
    expect(harness.slack.calls().some((call) => textOf(call).includes('Thinking…'))).toBe(false);
  });
});

describe('a thread the app is answering', () => {
  it('continues without a new mention; other channel messages are left alone', async () => {
    const { threadTs } = await askByMention(harness, 'How do I reset my password?');
    const asksBefore = harness.robotAsks().length;

    await expectLeftAlone(harness, channelMessage({ text: 'unrelated chatter', ts: undefined }));
    await expectLeftAlone(
      harness,
      channelMessage({ text: 'a reply in someone else’s thread', thread_ts: '1600000000.000001' }),
    );

    await harness.sendEvent(channelMessage({ text: 'How do I connect to the VPN?', thread_ts: threadTs }));
    await harness.slack.waitForCall(
      'chat.update',
      (call) => textOf(call).toLowerCase().includes('vpn') && call.body.channel === IDS.channel,
    );
    expect(
      harness
        .robotAsks()
        .slice(asksBefore)
        .map((ask) => ask.question),
    ).toEqual(['How do I connect to the VPN?']);
  });
});

describe('messages that are never relayed', () => {
  it('ignores bots, the app itself, edits, deletions and other subtypes', async () => {
    // Each is counted ignored by the gateway, with nothing asked and no Slack call.
    await expectLeftAlone(
      harness,
      botMessage({ text: 'I am a bot asking about VPN', channel: IDS.dm, channel_type: 'im' }),
    );
    await expectLeftAlone(harness, directMessage({ text: 'my own echo', user: IDS.botUser }));
    await expectLeftAlone(harness, messageChanged({ channel: IDS.dm }));
    await expectLeftAlone(harness, messageDeleted({ channel: IDS.dm }));
    await expectLeftAlone(harness, directMessage({ text: 'joined' }, { subtype: 'channel_join' } as never));
  });
});

describe('one user asking several questions', () => {
  it('gets the answers in the order the questions were asked', async () => {
    const questions = [
      'How do I reset my password?',
      'How do I connect to the VPN?',
      'How do I apply for leave?',
    ];
    for (const question of questions) await harness.sendEvent(directMessage({ text: question }));
    await harness.slack.waitForCall(
      'chat.update',
      () => harness.slack.calls('chat.update').length >= 3,
      8_000,
    );
    const asked = harness
      .robotAsks()
      .slice(-3)
      .map((ask) => ask.question);
    expect(asked).toEqual(questions);
    // And the answers are shown in that order, each the answer to its question.
    const shown = harness.slack.calls('chat.update').map((call) => textOf(call));
    expect(shown).toHaveLength(3);
    expect(shown[0]).toContain('password portal');
    expect(shown[1]).toContain('GlobalProtect');
    expect(shown[2]).toContain('Request leave in the HR portal');
  });

  it('sees the answers posted in that order even when Slack is slow to take the first one', async () => {
    const questions = ['How do I reset my password?', 'How do I connect to the VPN?'];
    // The first answer replaces its placeholder with chat.update; Slack takes a while with it.
    harness.slack.delayNext('chat.update', 400);
    for (const question of questions) await harness.sendEvent(directMessage({ text: question }));
    await harness.slack.waitForCall(
      'chat.update',
      () => harness.slack.calls('chat.update').length >= 2,
      8_000,
    );
    const shown = harness.slack.calls('chat.update').map((call) => textOf(call));
    expect(shown[0]).toContain('password');
    expect(shown[1]).toContain('VPN');
  });
});
