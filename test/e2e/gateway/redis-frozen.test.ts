// Redis stopped with its socket open (SIGSTOP, as in a network partition) under a running gateway:
// questions must not wait out a store timeout per store call, and everything recovers on SIGCONT.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buttonsOf,
  type GatewayHarness,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import { freezeRedis, startRedisOnFreePort, stopRedis, thawRedis } from '../../support/redis-server.js';
import { appMention, IDS } from '../../support/slack-payloads.js';
import { waitFor } from '../../support/wait.js';

/** How long the robot takes to answer each question in this file. */
const ROBOT_MS = 500;
/** What a frozen Redis may add to a question, and the longest /readyz may take to say so. */
const BUDGET_MS = 1_000;
/** Long enough that a gateway waiting out timeouts one after another shows its real figure. */
const PATIENCE_MS = 30_000;

let redis: ChildProcess | undefined;
let harness: GatewayHarness;

beforeAll(async () => {
  const started = await startRedisOnFreePort();
  redis = started.child;
  harness = await startGatewayHarness({
    env: {
      REDIS_URL: `redis://127.0.0.1:${started.port}`,
      REDIS_KEY_PREFIX: `test:frozen:${process.pid}:${randomBytes(4).toString('hex')}:`,
      // The production timeout: what an outage costs a question is this test's subject.
      REDIS_COMMAND_TIMEOUT_MS: '300',
    },
  });
});
afterAll(async () => {
  // A frozen server would hold up the gateway's shutdown: thaw it first, then stop both.
  thawRedis(redis);
  await harness?.close();
  await stopRedis(redis);
});
beforeEach(() => {
  harness.slack.reset();
  harness.simulator.faults.set({ kind: 'delay', ms: ROBOT_MS, actions: ['chat_user_robot_ask'] });
});
afterEach(async () => {
  harness.simulator.faults.clear();
  thawRedis(redis);
  // Each test starts from a gateway that has found Redis back.
  await waitFor(async () => ((await readiness()).status === 200 ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 50,
  });
});

async function readiness(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${harness.url}/readyz`);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

function frozen(): ChildProcess {
  if (redis === undefined) throw new Error('redis-server is not running');
  freezeRedis(redis);
  return redis;
}

const mention = (question: string) => appMention({ text: `<@${IDS.botUser}> ${question}` });

/** Sends a question and resolves, once its answer is shown, with the time that took. */
async function ask(question: string | ReturnType<typeof appMention>, eventId?: string) {
  return answerTo(await send(question, eventId));
}

/** Sends a question; resolves once Slack would have its acknowledgement (the question is queued by then). */
async function send(question: string | ReturnType<typeof appMention>, eventId?: string) {
  const event = typeof question === 'string' ? mention(question) : question;
  const started = performance.now();
  const response = await harness.sendEvent(event, undefined, eventId);
  expect(response.status).toBe(200);
  return { event, started };
}

/** Resolves, once the question's answer is shown, with the time from its sending. */
async function answerTo({ event, started }: Awaited<ReturnType<typeof send>>) {
  const placeholder = await harness.slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.thread_ts === event.ts,
    PATIENCE_MS,
  );
  const placeholderTs = String((placeholder.response as { ts?: unknown } | undefined)?.ts);
  const answer = await harness.slack.waitForCall(
    'chat.update',
    (call) => call.body.ts === placeholderTs,
    PATIENCE_MS,
  );
  return { answer, ms: performance.now() - started };
}

const rateable = (answer: Parameters<typeof buttonsOf>[0]) =>
  buttonsOf(answer).some((button) => button.actionId === 'rate_up');

describe('Redis frozen while running', () => {
  it('answers within the robot time plus a second, the same user next too, and recovers on thaw', async () => {
    const before = await ask('How do I reset my password?');
    expect(rateable(before.answer)).toBe(true);

    const server = frozen();
    const frozenAt = performance.now();
    // Two questions from one user at once: the second is answered after the first, by design. The
    // second is sent once the first is acknowledged (and so queued): sent together, either could be
    // read first on a busy machine.
    const sentFirst = await send('How do I connect to the VPN?');
    const sentSecond = await send('How do I reset my password?');
    const [first, second] = await Promise.all([answerTo(sentFirst), answerTo(sentSecond)]);
    expect(textOf(first.answer)).toContain('VPN');
    expect(rateable(first.answer)).toBe(false);
    expect(first.ms).toBeLessThan(ROBOT_MS + BUDGET_MS);
    expect(second.ms).toBeLessThan(2 * ROBOT_MS + BUDGET_MS);
    // Skipped store calls fail at once: a question asked now pays no timeout at all.
    const third = await ask('How do I connect to the VPN?');
    expect(third.ms).toBeLessThan(ROBOT_MS + BUDGET_MS);
    const frozenFor = performance.now() - frozenAt;

    thawRedis(server);
    const thawedAt = performance.now();
    await waitFor(async () => ((await readiness()).status === 200 ? true : undefined), {
      timeoutMs: 5_000,
      intervalMs: 20,
    });
    const recoveryMs = performance.now() - thawedAt;
    const after = await ask('How do I reset my password?');
    expect(rateable(after.answer)).toBe(true);
    console.info(
      `redis-frozen: robot ${ROBOT_MS} ms; Redis up ${before.ms.toFixed(0)} ms; frozen: first ${first.ms.toFixed(0)} ms, ` +
        `same user's next ${second.ms.toFixed(0)} ms, third ${third.ms.toFixed(0)} ms (frozen ${frozenFor.toFixed(0)} ms); ` +
        `/readyz 200 ${recoveryMs.toFixed(0)} ms after thaw; then ${after.ms.toFixed(0)} ms`,
    );
  }, 60_000);

  it('/readyz says 503 within a second while Redis is frozen, and 200 again once it thaws', async () => {
    expect((await readiness()).status).toBe(200);
    const server = frozen();
    // The first probe meets a closed circuit and waits for the command timeout; the next ones skip.
    const first = await readiness();
    const second = await readiness();
    expect(first.status).toBe(503);
    expect(first.ms).toBeLessThan(BUDGET_MS);
    expect(second.status).toBe(503);
    expect(second.ms).toBeLessThan(BUDGET_MS);

    thawRedis(server);
    const thawedAt = performance.now();
    await waitFor(async () => ((await readiness()).status === 200 ? true : undefined), {
      timeoutMs: 5_000,
      intervalMs: 20,
    });
    console.info(
      `redis-frozen: /readyz 503 in ${first.ms.toFixed(0)} ms, then ${second.ms.toFixed(0)} ms; ` +
        `200 ${(performance.now() - thawedAt).toFixed(0)} ms after thaw`,
    );
  }, 30_000);

  it("recognises Slack's retry of a message it answered, before or during the outage", async () => {
    const retryHeaders = { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' };
    const answeredBefore = mention('How do I reset my password?');
    await ask(answeredBefore, 'Ev-frozen-before');

    frozen();
    const answeredDuring = mention('How do I connect to the VPN?');
    await ask(answeredDuring, 'Ev-frozen-during');
    const asks = harness.robotAsks().length;
    const duplicates = () => harness.logs.filter((line) => line.msg === 'duplicate delivery ignored').length;
    const duplicatesBefore = duplicates();

    // Slack retries with the event id of the first delivery.
    for (const [event, eventId] of [
      [answeredBefore, 'Ev-frozen-before'],
      [answeredDuring, 'Ev-frozen-during'],
    ] as const) {
      expect((await harness.sendEvent(event, retryHeaders, eventId)).status).toBe(200);
    }
    await waitFor(() => duplicates() - duplicatesBefore === 2, {
      timeoutMs: 5_000,
      message: () => `${harness.robotAsks().length - asks} retries asked the robot again`,
    });
    expect(harness.robotAsks()).toHaveLength(asks);
  }, 30_000);
});
