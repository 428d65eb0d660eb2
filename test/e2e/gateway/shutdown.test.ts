// Regression: stop() waited for the HTTP server to close before the grace even started, so a
// keep-alive connection that had been mid-request at SIGTERM held the process for Node's keep-alive
// timeout (66 s), and the health routes went dark instead of answering 503 during the drain.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type GatewayHarness,
  type HarnessOptions,
  SIGNING_SECRET,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import {
  getOnNewConnection,
  type KeepAliveConnection,
  keepAliveConnection,
  postOnNewConnection,
} from '../../support/http-connections.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { JSON_CONTENT_TYPE, signSlackRequest } from '../../support/slack-signing.js';
import { sleep, withTimeout } from '../../support/wait.js';

/** How far past the grace a stop may end: timers and closing sockets, never a keep-alive timeout. */
const MARGIN_MS = 1_000;
const QUESTION = 'How do I reset my password?';
const ANSWER_TEXT = 'password portal';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harnessWithGrace(graceMs: number, options: HarnessOptions = {}): Promise<GatewayHarness> {
  const harness = await startGatewayHarness({
    ...options,
    env: { SHUTDOWN_GRACE_SECONDS: String(graceMs / 1000), ...options.env },
  });
  cleanups.push(() => harness.close());
  return harness;
}

function connection(harness: GatewayHarness): KeepAliveConnection {
  const opened = keepAliveConnection(harness.url);
  cleanups.push(() => opened.destroy());
  return opened;
}

/** Starts stop() and resolves with how long it took. */
function timedStop(harness: GatewayHarness): Promise<number> {
  const started = performance.now();
  return harness.gateway.stop().then(() => performance.now() - started);
}

/** A signed Events API request carrying a question, as Slack would send it. */
function signedQuestion(user: string = IDS.user) {
  const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}`, user });
  const body = JSON.stringify(eventCallback(event));
  return {
    event,
    body,
    headers: { 'content-type': JSON_CONTENT_TYPE, ...signSlackRequest(SIGNING_SECRET, body) },
  };
}

describe('stopping with keep-alive connections open', () => {
  it('answers a request that was mid-body, closes idle and finished connections, and ends within the grace', async () => {
    const graceMs = 2_000;
    const harness = await harnessWithGrace(graceMs);

    const idle = connection(harness);
    expect((await idle.get('/healthz')).status).toBe(200);

    const midBody = connection(harness);
    const question = signedQuestion();
    const pending = midBody.postInTwoParts('/slack/events', question.headers, question.body, 100);
    // The server has the headers, so the request has begun before the stop.
    await sleep(200);

    const stopped = timedStop(harness);
    // An idle connection is closed at once, not when the keep-alive timeout ends it.
    await withTimeout(idle.closed, 1_000, 'the idle keep-alive connection was not closed');

    await sleep(300);
    const answer = await pending.finish();
    expect(answer.status).toBe(200);
    // The connection is not kept alive for a next request that would be refused anyway.
    expect(answer.headers.connection).toBe('close');
    await withTimeout(midBody.closed, 1_000, 'the answered connection was kept open');

    // The question in flight is answered during the drain (waitForCall throws if it never is).
    await harness.slack.waitForCall('chat.update', (call) => textOf(call).includes(ANSWER_TEXT), 5_000);
    const elapsed = await withTimeout(stopped, graceMs + MARGIN_MS, 'stop() outlasted the grace');
    expect(elapsed).toBeLessThan(graceMs + MARGIN_MS);
  }, 20_000);

  it('ends at the grace when a question outlasts it, whatever the platform call still waits for', async () => {
    const graceMs = 2_000;
    const harness = await harnessWithGrace(graceMs, {
      // The robot call would otherwise time out before the grace is up.
      env: { CS_HEADERS_TIMEOUT_MS: '20000', CS_BODY_TIMEOUT_MS: '20000' },
    });
    harness.simulator.faults.set({ kind: 'delay', ms: 15_000, actions: ['chat_user_robot_ask'] });
    const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
    expect((await harness.sendEvent(event)).status).toBe(200);
    await harness.slack.waitForCall('chat.postMessage', (call) => call.body.thread_ts === event.ts);

    const elapsed = await withTimeout(timedStop(harness), graceMs + MARGIN_MS, 'stop() outlasted the grace');
    expect(elapsed).toBeGreaterThanOrEqual(graceMs * 0.8);
    expect(elapsed).toBeLessThan(graceMs + MARGIN_MS);
    expect(harness.logs.some((line) => line.msg === 'stopped with questions in flight')).toBe(true);
  }, 20_000);
});

describe('during the drain', () => {
  it('answers 503 on the health routes, refuses new Slack requests, and still posts the answer in flight', async () => {
    const graceMs = 5_000;
    const harness = await harnessWithGrace(graceMs, {
      env: { CS_HEADERS_TIMEOUT_MS: '10000', CS_BODY_TIMEOUT_MS: '10000' },
    });
    // The robot is slow, so the question is still in flight while the drain lasts.
    harness.simulator.faults.set({ kind: 'delay', ms: 2_500, actions: ['chat_user_robot_ask'] });
    const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
    expect((await harness.sendEvent(event)).status).toBe(200);
    await harness.slack.waitForCall('chat.postMessage', (call) => call.body.thread_ts === event.ts);

    const stopped = timedStop(harness);
    await sleep(100);

    // Each on a connection opened during the drain: a load balancer's probe, and Slack retrying.
    const healthz = await getOnNewConnection(harness.url, '/healthz');
    expect(healthz.status).toBe(503);
    expect(JSON.parse(healthz.body)).toEqual({ status: 'stopping' });
    expect(healthz.headers.connection).toBe('close');
    const readyz = await getOnNewConnection(harness.url, '/readyz');
    expect(readyz.status).toBe(503);

    const late = signedQuestion('U_OTHER');
    const refused = await postOnNewConnection(harness.url, '/slack/events', late.headers, late.body);
    // 503 makes Slack retry the event, which another replica then answers.
    expect(refused.status).toBe(503);
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body)).toEqual({ error: 'shutting_down' });

    // The question in flight is answered during the drain (waitForCall throws if it never is).
    await harness.slack.waitForCall('chat.update', (call) => textOf(call).includes(ANSWER_TEXT), 5_000);
    const elapsed = await withTimeout(stopped, graceMs + MARGIN_MS, 'stop() outlasted the grace');
    // It ends when the question is answered, not when the grace is up.
    expect(elapsed).toBeLessThan(graceMs);
    expect(harness.robotAsks()).toHaveLength(1);
    // The drain is over: the port is closed.
    await expect(getOnNewConnection(harness.url, '/healthz')).rejects.toThrow();
  }, 20_000);
});
