// Slack's 429: the gate (rate-limits.ts) waits out a Retry-After for that method and channel alone.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  type GatewayHarness,
  isRecord,
  SIGNING_SECRET,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { appMention, eventCallback, IDS, nextTs } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const QUESTION = 'How do I reset my password?';
/** Text of the simulator's answer to QUESTION. */
const ANSWER_TEXT = 'password portal';

async function ask(h: GatewayHarness): Promise<string> {
  const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
  expect((await h.sendEvent(event)).status).toBe(200);
  return event.ts;
}

const inThread = (threadTs: string) => (call: RecordedCall) => call.body.thread_ts === threadTs;
const answered = (call: RecordedCall) => call.status === 200 && textOf(call).includes(ANSWER_TEXT);

/** Waits for the answer in the thread of `threadTs`: posted there, or replacing the placeholder posted there. */
async function answerIn(h: GatewayHarness, threadTs: string): Promise<void> {
  await waitFor(
    () => {
      const calls = h.slack.calls();
      const placeholders = new Set(
        calls
          .filter((call) => call.method === 'chat.postMessage' && inThread(threadTs)(call))
          .map((call) => (isRecord(call.response) ? call.response.ts : undefined)),
      );
      return calls.some(
        (call) =>
          answered(call) &&
          (inThread(threadTs)(call) || (call.method === 'chat.update' && placeholders.has(call.body.ts))),
      );
    },
    { timeoutMs: 5_000, message: `no answer in ${threadTs}` },
  );
}

/**
 * The same person asks again and is answered: the gateway takes one person's questions in turn, so
 * the first question's handling (and any second post it would make) is over by then.
 */
async function afterTheNextAnswer(h: GatewayHarness): Promise<void> {
  await answerIn(h, await ask(h));
}

describe('a 429 (Retry-After: 0) on the answer, with one Web API retry', () => {
  // A robot faster than the placeholder delay: the answer is one chat.postMessage.
  const harness = useGatewayHarness({
    env: { PLACEHOLDER_DELAY_MS: '10000', SLACK_WEB_API_RETRIES: '1' },
  });

  it('posts the answer exactly once', async () => {
    const h = harness();
    h.slack.failNext('chat.postMessage', { status: 429, retryAfter: 0 });
    const threadTs = await ask(h);

    await h.slack.waitForCall(
      'chat.postMessage',
      (call) => inThread(threadTs)(call) && answered(call),
      5_000,
    );
    await afterTheNextAnswer(h);
    const posts = h.slack.calls('chat.postMessage').filter(inThread(threadTs));
    expect(posts.map((call) => call.status)).toEqual([429, 200]);
    expect(posts.filter(answered)).toHaveLength(1);
    expect(h.slack.calls('chat.update')).toHaveLength(0);
  });
});

describe('a 429 (Retry-After: 0) on the update that shows the answer, with one Web API retry', () => {
  const harness = useGatewayHarness({ env: { SLACK_WEB_API_RETRIES: '1' } });

  it('replaces the placeholder with the answer once, and posts nothing else', async () => {
    const h = harness();
    h.slack.failNext('chat.update', { status: 429, retryAfter: 0 });
    const threadTs = await ask(h);

    const placeholder = await h.slack.waitForCall('chat.postMessage', inThread(threadTs), 5_000);
    const placeholderTs = isRecord(placeholder.response) ? placeholder.response.ts : undefined;
    await h.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === placeholderTs && answered(call),
      5_000,
    );
    await afterTheNextAnswer(h);
    const updates = h.slack.calls('chat.update').filter((call) => call.body.ts === placeholderTs);
    expect(updates.map((call) => call.status)).toEqual([429, 200]);
    // Not shown twice: no second message carries the answer next to the updated placeholder.
    expect(h.slack.calls('chat.postMessage').filter(inThread(threadTs))).toHaveLength(1);
  });
});

/** The gateway's counter for `labels` now (0 before it is first counted). */
async function counted(h: GatewayHarness, name: string, labels: Record<string, string>): Promise<number> {
  const metrics = await (await fetch(`${h.url}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find(
      (candidate) =>
        candidate.startsWith(`${name}{`) &&
        Object.entries(labels).every(([key, value]) => candidate.includes(`${key}="${value}"`)),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

const LIMITED_CHANNEL = 'C0LIMITED';
const OTHER_CHANNEL = 'C0OTHER';
const RETRY_AFTER_SECONDS = 3;

async function askIn(h: GatewayHarness, channel: string, user: string = IDS.user): Promise<string> {
  const event = appMention({ channel, user, text: `<@${IDS.botUser}> ${QUESTION}` });
  expect((await h.sendEvent(event)).status).toBe(200);
  return event.ts;
}

const answerPosted = (threadTs: string) => (call: RecordedCall) =>
  call.method === 'chat.postMessage' && inThread(threadTs)(call) && answered(call);

describe(`Slack answering one channel's posts with 429 (Retry-After: ${RETRY_AFTER_SECONDS})`, () => {
  // A robot faster than the placeholder delay: each answer is one chat.postMessage.
  const harness = useGatewayHarness({ env: { PLACEHOLDER_DELAY_MS: '10000' } });

  it("answers another channel at once, and the limited channel's questions after the wait, in order", async () => {
    const h = harness();
    h.slack.rateLimit('chat.postMessage', LIMITED_CHANNEL, RETRY_AFTER_SECONDS);
    const first = await askIn(h, LIMITED_CHANNEL);
    const refused = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => inThread(first)(call) && call.status === 429,
      5_000,
    );
    // Another person, so the gateway's per-person turns do not order the two questions: the gate does.
    const second = await askIn(h, LIMITED_CHANNEL, 'U_OTHER');
    await waitFor(() => h.robotAsks().length === 2, {
      timeoutMs: 5_000,
      message: 'second question not asked',
    });

    // A third person: one person's questions are answered in turn, whatever the channel.
    h.slack.setUser('U0THIRD', { displayName: 'Kim Third', locale: 'en-US' });
    const askedElsewhere = Date.now();
    const elsewhere = await askIn(h, OTHER_CHANNEL, 'U0THIRD');
    const otherAnswer = await h.slack.waitForCall('chat.postMessage', answerPosted(elsewhere), 5_000);
    expect(otherAnswer.at - askedElsewhere).toBeLessThan(1_000);

    const firstAnswer = await h.slack.waitForCall('chat.postMessage', answerPosted(first), 10_000);
    const secondAnswer = await h.slack.waitForCall('chat.postMessage', answerPosted(second), 10_000);
    expect(firstAnswer.at - refused.at).toBeGreaterThanOrEqual(RETRY_AFTER_SECONDS * 1000 - 50);
    expect(otherAnswer.at).toBeLessThan(firstAnswer.at);
    const limitedAnswers = h.slack
      .calls('chat.postMessage')
      .filter((call) => call.body.channel === LIMITED_CHANNEL && call.status === 200);
    expect(limitedAnswers).toEqual([firstAnswer, secondAnswer]);
    // Nothing hammered Slack during the wait: the second question's answer queued behind the first.
    expect(h.slack.calls('chat.postMessage').filter((call) => call.status === 429)).toHaveLength(1);
    expect(h.logs.filter((record) => record.level >= 40)).toEqual([]);
  });
});

describe("Slack's 429 lasting past the question's deadline", () => {
  const harness = useGatewayHarness({
    env: { PLACEHOLDER_DELAY_MS: '10000', QUESTION_DEADLINE_SECONDS: '1' },
  });

  it('drops the answer once, logged with its method and channel and counted, never retried', async () => {
    const h = harness();
    const labels = { method: 'chat.postMessage', outcome: 'gave_up' };
    const before = await counted(h, 'cs_gateway_slack_rate_limited_total', labels);
    h.slack.rateLimit('chat.postMessage', LIMITED_CHANNEL, 5);
    await askIn(h, LIMITED_CHANNEL);

    await waitFor(() => h.logs.some((record) => record.level === 40 && record.channel === LIMITED_CHANNEL), {
      timeoutMs: 5_000,
      message: 'no warning for the dropped answer',
    });
    const warning = h.logs.find((record) => record.level === 40 && record.channel === LIMITED_CHANNEL);
    expect(warning).toMatchObject({ method: 'chat.postMessage' });
    expect(JSON.stringify(warning)).not.toContain(ANSWER_TEXT);
    expect(await counted(h, 'cs_gateway_slack_rate_limited_total', labels)).toBe(before + 1);
    // The same person's next question, in another channel, is answered: the dropped one is over by then.
    await answerIn(h, await askIn(h, OTHER_CHANNEL));
    expect(
      h.slack.calls('chat.postMessage').filter((call) => call.body.channel === LIMITED_CHANNEL),
    ).toHaveLength(1);
  });
});

describe('a 429 on a call to no conversation (the Home tab)', () => {
  const harness = useGatewayHarness({ env: {} });

  it('publishes the Home after the Retry-After, once, instead of failing it', async () => {
    const h = harness();
    const user = 'U0HOMELIMITED';
    h.slack.failNext('views.publish', { status: 429, retryAfter: 1 });
    const opened = {
      type: 'app_home_opened',
      user,
      channel: 'D0HOMELIMITED',
      tab: 'home',
      event_ts: nextTs(),
    };
    expect((await sendEvent(h.url, SIGNING_SECRET, eventCallback(opened))).status).toBe(200);

    const published = await h.slack.waitForCall(
      'views.publish',
      (call) => call.body.user_id === user && call.status === 200,
      8_000,
    );
    const attempts = h.slack.calls('views.publish').filter((call) => call.body.user_id === user);
    expect(attempts.map((call) => call.status)).toEqual([429, 200]);
    // Held back for the Retry-After, not retried at once by the SDK.
    expect(published.at - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(h.logs.filter((record) => record.level >= 50)).toEqual([]);
  });
});
