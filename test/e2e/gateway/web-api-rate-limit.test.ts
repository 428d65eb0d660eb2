// Production retries rate-limited Web API calls; every other gateway suite runs with retries off.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { type GatewayHarness, isRecord, textOf, useGatewayHarness } from '../../support/gateway-harness.js';
import { appMention, IDS } from '../../support/slack-payloads.js';
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
