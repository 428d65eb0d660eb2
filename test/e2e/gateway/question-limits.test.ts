// USER_QUESTION_LIMIT and CHANNEL_QUESTION_LIMIT over signed HTTP: a flood reaches the platform only up
// to the limit, its sender is told once, everyone else is answered as usual; on Redis the fleet shares it.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  buttonOf,
  clickButton,
  type GatewayHarness,
  SIGNING_SECRET,
  textOf,
  useGatewayHarness,
  useRedisReplicas,
} from '../../support/gateway-harness.js';
import { appMention, directMessage, eventCallback, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const NOTICE = 'You can ask again in';

async function throttledCount(url: string, scope: 'user' | 'channel'): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find((candidate) => candidate.startsWith(`cs_gateway_throttled_total{scope="${scope}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Waits until the gateways together have dropped `count` questions over the limit of `scope`. */
async function untilThrottled(urls: string[], scope: 'user' | 'channel', count: number): Promise<void> {
  await waitFor(
    async () =>
      (await Promise.all(urls.map((url) => throttledCount(url, scope)))).reduce((a, b) => a + b) >= count,
    { timeoutMs: 10_000 },
  );
}

function asksOf(harness: GatewayHarness, tag: string): string[] {
  return harness
    .robotAsks()
    .map((ask) => String(ask.question))
    .filter((question) => question.includes(tag));
}

function noticesTo(calls: RecordedCall[], userId: string): RecordedCall[] {
  return calls.filter((call) => call.body.user === userId && textOf(call).includes(NOTICE));
}

describe('USER_QUESTION_LIMIT', () => {
  const get = useGatewayHarness({
    env: { USER_QUESTION_LIMIT: '3/60s', CHANNEL_QUESTION_LIMIT: 'off', OPERATOR_USER_IDS: 'UOPS1' },
  });

  it("lets a person's flood reach the platform only up to the limit, tells them once, and answers another person in the middle", async () => {
    const harness = get();
    const flooder = 'U_FLOOD';
    // One person's questions are handled in turn: once seven are dropped, the three before them were asked.
    harness.slack.setUser(flooder, { displayName: 'Flo Od', locale: 'en-US' });
    const throttledBefore = await throttledCount(harness.url, 'user');
    const flood = (from: number, to: number) =>
      Promise.all(
        Array.from({ length: to - from }, (_, index) =>
          harness.sendEvent(
            appMention({ user: flooder, text: `<@${IDS.botUser}> flood ${from + index} reset my password?` }),
          ),
        ),
      );
    await flood(0, 5);
    // Another person's question, asked while the flood is being handled, is answered as usual.
    const other = await askByMention(harness, 'How do I connect to the VPN?', { user: IDS.user });
    expect(textOf(other.answer)).toContain('VPN');
    await flood(5, 10);

    await untilThrottled([harness.url], 'user', throttledBefore + 7);
    expect(asksOf(harness, 'flood ')).toHaveLength(3);
    const notices = noticesTo(harness.slack.calls('chat.postEphemeral'), flooder);
    expect(notices).toHaveLength(1);
    expect(textOf(notices[0] as RecordedCall)).toContain('You have asked many questions just now');
    // Only the person who asked sees it, in the channel they asked in.
    expect(notices[0]?.body.channel).toBe(IDS.channel);
    expect(harness.slack.calls('chat.postMessage').filter((call) => textOf(call).includes(NOTICE))).toEqual(
      [],
    );
  });

  it('counts a click on a suggested question as a question', async () => {
    const harness = get();
    const clicker = 'U_CLICKER';
    harness.slack.setUser(clicker, { displayName: 'Cli Cker', locale: 'en-US' });
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?', {
      user: clicker,
    });
    const suggestion = buttonOf(answer, 'suggestion:0');
    const asked = () => harness.robotAsks().filter((ask) => String(ask.partnerId).endsWith(clicker));
    for (const expected of [2, 3]) {
      await harness.click(clickButton(answer, suggestion, { user: clicker, threadTs }));
      await waitFor(() => asked().length === expected);
    }
    await harness.click(clickButton(answer, suggestion, { user: clicker, threadTs }));
    const notice = await harness.slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.body.user === clicker && textOf(call).includes(NOTICE),
    );
    expect(notice.body.thread_ts).toBe(threadTs);
    expect(asked()).toHaveLength(3);
  });

  it('tells a person over the limit in their language, and in a DM as a plain message', async () => {
    const harness = get();
    const person = 'U_ZH_DM';
    harness.slack.setUser(person, { displayName: '王小明', locale: 'zh-CN' });
    for (let index = 0; index < 4; index += 1) {
      await harness.sendEvent(directMessage({ user: person, text: `dm ${index} 怎么重置密码？` }));
    }
    const notice = await harness.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === IDS.dm && textOf(call).includes('后再问'),
      5_000,
    );
    expect(textOf(notice)).toContain('你刚才的提问太多了');
    expect(asksOf(harness, 'dm ')).toHaveLength(3);
  });

  it('never limits an operator', async () => {
    const harness = get();
    harness.slack.setUser('UOPS1', { displayName: 'Op Erator', locale: 'en-US' });
    for (let index = 0; index < 5; index += 1) {
      const { answer } = await askByMention(harness, `ops ${index} How do I reset my password?`, {
        user: 'UOPS1',
      });
      expect(textOf(answer)).not.toContain(NOTICE);
    }
    expect(asksOf(harness, 'ops ')).toHaveLength(5);
    expect(noticesTo(harness.slack.calls('chat.postEphemeral'), 'UOPS1')).toEqual([]);
  });
});

describe('CHANNEL_QUESTION_LIMIT', () => {
  const get = useGatewayHarness({ env: { USER_QUESTION_LIMIT: 'off', CHANNEL_QUESTION_LIMIT: '4/60s' } });

  it('lets a busy channel of many people reach the platform only up to the limit, tells each person over it once, and answers other channels', async () => {
    const harness = get();
    const busy = 'C_BUSY';
    const people = ['U_P1', 'U_P2', 'U_P3', 'U_P4', 'U_P5', 'U_P6'];
    for (const person of people) harness.slack.setUser(person, { displayName: person, locale: 'en-US' });
    // Four people fill the channel's window, each answered in turn.
    for (const [index, user] of people.slice(0, 4).entries()) {
      await askByMention(harness, `busy ${index} reset my password?`, { user, channel: busy });
    }
    // Two more ask twice each: nothing reaches the platform, and each is told once.
    for (const [index, user] of ['U_P5', 'U_P6', 'U_P5', 'U_P6'].entries()) {
      await harness.sendEvent(
        appMention({ user, channel: busy, text: `<@${IDS.botUser}> busy ${4 + index} reset my password?` }),
      );
    }
    const elsewhere = await askByMention(harness, 'How do I connect to the VPN?', { channel: 'C_QUIET' });
    expect(textOf(elsewhere.answer)).toContain('VPN');

    await untilThrottled([harness.url], 'channel', 4);
    expect(asksOf(harness, 'busy ')).toHaveLength(4);
    const notices = harness.slack.calls('chat.postEphemeral').filter((call) => textOf(call).includes(NOTICE));
    expect(notices.map((call) => call.body.user).sort()).toEqual(['U_P5', 'U_P6']);
    expect(notices.every((call) => call.body.channel === busy)).toBe(true);
    expect(textOf(notices[0] as RecordedCall)).toContain('Many questions were asked in this channel');
  });
});

describe('two replicas on Redis', () => {
  const fleet = useRedisReplicas('question-limits', {
    env: { USER_QUESTION_LIMIT: '3/60s', CHANNEL_QUESTION_LIMIT: 'off' },
    users: { U_SHARED: { displayName: 'Sha Red', locale: 'en-US' } },
  });

  it("share one person's limit: questions spread over both reach the platform only up to it, with one notice", async () => {
    const { replicas, slack } = fleet();
    const [replicaA, replicaB] = replicas;
    for (let index = 0; index < 8; index += 1) {
      const replica = index % 2 === 0 ? replicaA : replicaB;
      const event = appMention({
        user: 'U_SHARED',
        text: `<@${IDS.botUser}> shared ${index} reset my password?`,
      });
      const response = await sendEvent(replica.url, SIGNING_SECRET, eventCallback(event));
      expect(response.status).toBe(200);
    }
    // Counted before it is asked: the last admitted question may still be on its way to the platform.
    await waitFor(() => asksOf(replicaA, 'shared ').length >= 3, { timeoutMs: 10_000 });
    await untilThrottled([replicaA.url, replicaB.url], 'user', 5);
    expect(asksOf(replicaA, 'shared ')).toHaveLength(3);
    expect(noticesTo(slack.calls('chat.postEphemeral'), 'U_SHARED')).toHaveLength(1);
  });
});
