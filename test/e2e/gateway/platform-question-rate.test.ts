// PLATFORM_QUESTION_RATE over signed HTTP: however many people ask at once, the platform sees at most
// the rate each second, in the order the questions queued; what cannot be sent before its deadline is
// told as busy with Try again and never reaches the platform; on Redis two gateways share the rate.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  buttonsOf,
  clickButton,
  type GatewayHarness,
  SIGNING_SECRET,
  textOf,
  useGatewayHarness,
  useRedisReplicas,
} from '../../support/gateway-harness.js';
import { expectPaced } from '../../support/pacing.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const BUSY = 'The robot is busy';
const BUSY_ZH = '机器人正忙';

type Simulated = Pick<GatewayHarness, 'simulator'>;

/** The robot asks the simulator received for questions carrying `tag`, in the order they arrived. */
function asksOf(harness: Simulated, tag: string): Array<{ question: string; at: number }> {
  return harness.simulator.received.flatMap((request) => {
    const body = request.body as { action?: unknown; data?: { question?: unknown } } | undefined;
    const question = String(body?.data?.question ?? '');
    return body?.action === 'chat_user_robot_ask' && question.includes(tag)
      ? [{ question, at: request.at }]
      : [];
  });
}

async function throttledCount(url: string): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find((each) => each.startsWith('cs_gateway_throttled_total{scope="platform"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** What replaced a question's "Thinking…" placeholder: its answer, or why it has none. */
async function outcomeOf(harness: Pick<GatewayHarness, 'slack'>, threadTs: string): Promise<RecordedCall> {
  const placeholder = await harness.slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.thread_ts === threadTs,
    10_000,
  );
  const ts = (placeholder.response as { ts?: string }).ts;
  return harness.slack.waitForCall('chat.update', (call) => call.body.ts === ts, 15_000);
}

/** One after another: the fake Slack keeps a listener per wait, and a crowd of them at once warns. */
async function outcomesOf(
  harness: Pick<GatewayHarness, 'slack'>,
  events: Array<{ ts: string }>,
): Promise<RecordedCall[]> {
  const outcomes: RecordedCall[] = [];
  for (const event of events) outcomes.push(await outcomeOf(harness, event.ts));
  return outcomes;
}

function hasTryAgain(call: RecordedCall): boolean {
  return buttonsOf(call).some((button) => button.actionId === 'try_again');
}

describe('PLATFORM_QUESTION_RATE=2', () => {
  const get = useGatewayHarness({ env: { PLATFORM_QUESTION_RATE: '2', QUESTION_DEADLINE_SECONDS: '3' } });

  it('lets many people asking at once reach the platform at most two a second, and tells the rest busy with Try again', async () => {
    const harness = get();
    const people = Array.from({ length: 14 }, (_, index) => `U_RATE${index}`);
    for (const person of people) harness.slack.setUser(person, { displayName: person, locale: 'en-US' });
    const events = people.map((user, index) =>
      appMention({ user, text: `<@${IDS.botUser}> crowd${index}: how do I reset my password?` }),
    );
    // Fourteen questions need seven seconds' turns: more than a three-second deadline allows.
    const responses = await Promise.all(events.map((event) => harness.sendEvent(event)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const outcomes = await outcomesOf(harness, events);

    const asks = asksOf(harness, 'crowd');
    expectPaced(
      asks.map((arrival) => arrival.at),
      2,
    );
    const busy = outcomes.filter((outcome) => textOf(outcome).includes(BUSY));
    expect(busy.length).toBeGreaterThan(0);
    // Each question either reached the platform or was told busy, never both.
    expect(asks.length + busy.length).toBe(events.length);
    for (const [index, outcome] of outcomes.entries()) {
      const sent = asks.some((ask) => ask.question.startsWith(`crowd${index}:`));
      expect(textOf(outcome).includes(BUSY)).toBe(!sent);
    }
    expect(busy.every(hasTryAgain)).toBe(true);
    expect(await throttledCount(harness.url)).toBe(busy.length);
    // Logged once a second at most, not once a question.
    const lines = harness.logs.filter(
      (record) => record.msg === 'platform question rate reached; questions refused as busy',
    );
    expect(lines.length).toBeGreaterThan(0);
    const times = lines.map((record) => Number(record.time));
    for (let index = 1; index < times.length; index += 1) {
      expect((times[index] ?? 0) - (times[index - 1] ?? 0)).toBeGreaterThanOrEqual(1_000);
    }

    // Try again is a question like any other: asked through the same rate, and answered once there is room.
    const refused = busy[0] as RecordedCall;
    const tryAgain = buttonsOf(refused).find((button) => button.actionId === 'try_again');
    if (!tryAgain) throw new Error('no Try again button');
    const index = outcomes.indexOf(refused);
    const threadTs = events[index]?.ts ?? '';
    expect(
      (await harness.click(clickButton(refused, tryAgain, { user: people[index] ?? '', threadTs }))).status,
    ).toBe(200);
    await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === refused.body.ts && textOf(call).includes('password portal'),
      10_000,
    );
    expect(asksOf(harness, `crowd${index}:`)).toHaveLength(1);
  });

  it('sends the questions that queued in the order they queued', async () => {
    const harness = get();
    const people = Array.from({ length: 6 }, (_, index) => `U_ORDER${index}`);
    for (const person of people) harness.slack.setUser(person, { displayName: person, locale: 'en-US' });
    const ask = async (index: number) => {
      const event = appMention({
        user: people[index],
        text: `<@${IDS.botUser}> order${index}: how do I reset my password?`,
      });
      expect((await harness.sendEvent(event)).status).toBe(200);
      // The placeholder is posted just before the question takes its place in the queue.
      await harness.slack.waitForCall('chat.postMessage', (call) => call.body.thread_ts === event.ts, 5_000);
      return event;
    };
    // Two fill this second; four more queue one after another, within the deadline of each.
    const events = [...(await Promise.all([ask(0), ask(1)]))];
    for (const index of [2, 3, 4, 5]) events.push(await ask(index));
    await outcomesOf(harness, events);

    const asks = asksOf(harness, 'order');
    expect(asks.slice(2).map((each) => each.question.split(':')[0])).toEqual([
      'order2',
      'order3',
      'order4',
      'order5',
    ]);
    expectPaced(
      asks.map((arrival) => arrival.at),
      2,
    );
  });
});

describe('PLATFORM_QUESTION_RATE=1 with QUESTION_DEADLINE_SECONDS=1', () => {
  const get = useGatewayHarness({ env: { PLATFORM_QUESTION_RATE: '1', QUESTION_DEADLINE_SECONDS: '1' } });

  it('tells a question whose turn would come past its deadline that the robot is busy, in the asker’s language', async () => {
    const harness = get();
    for (const person of ['U_ZH1', 'U_ZH2'])
      harness.slack.setUser(person, { displayName: '王小明', locale: 'zh-CN' });
    const first = appMention({ text: `<@${IDS.botUser}> first: how do I reset my password?` });
    expect((await harness.sendEvent(first)).status).toBe(200);
    await waitFor(() => asksOf(harness, 'first:').length === 1, { timeoutMs: 5_000 });
    // This second is taken: one of the two waits for the next, the other's turn would come too late.
    const late = ['U_ZH1', 'U_ZH2'].map((user, index) =>
      appMention({ user, text: `<@${IDS.botUser}> late${index}: 怎么重置密码？` }),
    );
    await Promise.all(late.map((event) => harness.sendEvent(event)));
    const outcomes = await outcomesOf(harness, late);
    const busy = outcomes.filter((outcome) => textOf(outcome).includes(BUSY_ZH));
    expect(busy).toHaveLength(1);
    expect(busy.every(hasTryAgain)).toBe(true);
    expect(asksOf(harness, 'late')).toHaveLength(1);
  });
});

describe('two replicas on Redis', () => {
  const fleet = useRedisReplicas('platform-rate', {
    env: { PLATFORM_QUESTION_RATE: '2', QUESTION_DEADLINE_SECONDS: '10' },
    users: Object.fromEntries(
      Array.from({ length: 8 }, (_, index) => [
        `U_FLEET${index}`,
        { displayName: 'Fle Et', locale: 'en-US' },
      ]),
    ),
  });

  it('share one rate: questions spread over both reach the platform at most two a second', async () => {
    const { replicas, slack, simulator } = fleet();
    const [replicaA, replicaB] = replicas;
    const events = Array.from({ length: 8 }, (_, index) =>
      appMention({
        user: `U_FLEET${index}`,
        text: `<@${IDS.botUser}> fleet${index}: how do I reset my password?`,
      }),
    );
    const responses = await Promise.all(
      events.map((event, index) =>
        sendEvent((index % 2 === 0 ? replicaA : replicaB).url, SIGNING_SECRET, eventCallback(event)),
      ),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const outcomes = await outcomesOf({ slack }, events);
    expect(outcomes.filter((outcome) => textOf(outcome).includes('password portal'))).toHaveLength(8);
    const asks = asksOf({ simulator }, 'fleet');
    expect(asks).toHaveLength(8);
    expectPaced(
      asks.map((arrival) => arrival.at),
      2,
    );
  });
});
