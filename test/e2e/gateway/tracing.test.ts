// Traces, opt-in: the real entry point in a process of its own, exporting to a receiver on loopback.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type RunningEntry, runEntry } from '../../support/child-process.js';
import { type FakeSlackApi, type RecordedCall, startFakeSlackApi } from '../../support/fake-slack-api.js';
import { type FakeSocketModeServer, startFakeSocketMode } from '../../support/fake-socket-mode.js';
import { BOT_TOKEN, clickFeedback, SIGNING_SECRET } from '../../support/gateway-harness.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../../support/otlp-receiver.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { sendEvent, sendInteraction } from '../../support/slack-signing.js';
import { tempStateFiles } from '../../support/temp-state-files.js';
import { waitFor, withTimeout } from '../../support/wait.js';

const ENTRY = 'test/entries/main-with-module-watch.ts';
const APP_TOKEN = 'xapp-tracing-test-app-token';
const REDIS_URL = 'redis://127.0.0.1:6379';
/** A gateway's start, or its stop, on a busy machine: a bound, not a measure. */
const STARTUP_MS = 60_000;
const TEST_MS = 150_000;
/** An answer or an export after start-up; the first loads the modules a lean start left out. */
const ANSWER_MS = 30_000;

let simulator: Simulator;
let slack: FakeSlackApi;
let socket: FakeSocketModeServer;
let receiver: OtlpReceiver;
// Before the afterEach that stops the processes: hooks run last-registered first.
const stateFile = tempStateFiles('cs-gateway-tracing-');
const running: RunningEntry[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  slack = await startFakeSlackApi({ users: { [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' } } });
  socket = await startFakeSocketMode({ appId: IDS.app });
  slack.setSocketModeUrl(socket.url);
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  for (const { child, exited } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
});
afterAll(async () => {
  await receiver.close();
  await socket.close();
  await slack.close();
  await simulator.close();
});

function runGateway(env: Record<string, string>): RunningEntry {
  const gateway = runEntry(ENTRY, {
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.url,
    CS_OPEN_URL: simulator.url,
    CS_SYS_NUM: 'acme',
    CS_ACCESS_TOKEN: DEFAULT_SIMULATOR_TOKEN,
    PLACEHOLDER_DELAY_MS: '0',
    SHUTDOWN_GRACE_SECONDS: '2',
    ...env,
  });
  running.push(gateway);
  return gateway;
}

const jsonLines = (lines: readonly string[]) =>
  lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });

async function listeningPort(gateway: RunningEntry): Promise<number> {
  const line = await waitFor(
    // HTTP mode says it listens, Socket Mode that it is connected: both with the port.
    () => jsonLines(gateway.stdout).find((line) => /^gateway (listening|connected)/.test(String(line.msg))),
    // Started through tsx: compiling the sources takes most of it, and far longer on a busy machine.
    {
      timeoutMs: STARTUP_MS,
      intervalMs: 50,
      message: () => [...gateway.stdout, ...gateway.stderr].join('\n'),
    },
  );
  return Number(line.port);
}

/** Stops it as an orchestrator does, and returns the OpenTelemetry modules it had loaded. */
async function stopAndListModules(gateway: RunningEntry): Promise<string[]> {
  gateway.child.kill('SIGTERM');
  expect(await withTimeout(gateway.exited, STARTUP_MS, 'gateway did not stop')).toBe(0);
  const report = jsonLines(gateway.stderr).find((line) => Array.isArray(line.opentelemetryModules));
  if (!report) throw new Error(`no module report in:\n${gateway.stderr.join('\n')}`);
  return report.opentelemetryModules as string[];
}

/** Asks by mention, over HTTP or the socket, and waits for the answer to replace the placeholder. */
async function ask(to: number | 'socket', question: string): Promise<RecordedCall> {
  const event = appMention({ text: `<@${IDS.botUser}> ${question}` });
  if (to === 'socket') {
    await socket.sendEventsApi(eventCallback(event));
  } else {
    const response = await sendEvent(`http://127.0.0.1:${to}`, SIGNING_SECRET, eventCallback(event));
    expect(response.status).toBe(200);
  }
  const placeholder = await slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.thread_ts === event.ts,
    ANSWER_MS,
  );
  const placeholderTs = String((placeholder.response as { ts?: unknown }).ts);
  return slack.waitForCall('chat.update', (call) => call.body.ts === placeholderTs, ANSWER_MS);
}

const TRACING_ON = {
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  // The batch's delay, shortened so the spans arrive while the test waits.
  OTEL_BSP_SCHEDULE_DELAY: '50',
};

/** The delivery span of `kind`, once it has ended with an outcome and been exported. */
function deliveryOf(kind: string): Promise<ReceivedSpan> {
  return waitFor(
    () =>
      receiver
        .spans()
        .find((span) => span.name === `slack ${kind}` && span.attributes['cs.outcome'] !== undefined),
    { timeoutMs: ANSWER_MS, message: () => JSON.stringify(receiver.spans().map((span) => span.name)) },
  );
}

/** No question, token, signing secret or platform credential anywhere in what was exported. */
function expectNothingSecretExported(question: string): void {
  const exported = receiver.bodies().join('\n');
  for (const secret of [question, BOT_TOKEN, SIGNING_SECRET, APP_TOKEN, DEFAULT_SIMULATOR_TOKEN]) {
    expect(exported).not.toContain(secret);
  }
}

const childrenOf = (spans: readonly ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.parentSpanId === parent.spanId);

function descendantsOf(spans: readonly ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return childrenOf(spans, parent).flatMap((child) => [child, ...descendantsOf(spans, child)]);
}

/** Beyond the API, which prom-client loads for its exemplars and which does nothing without an SDK. */
const beyondTheApi = (modules: readonly string[]) =>
  modules.filter((url) => !url.includes('/@opentelemetry/api/'));

describe('with no OTLP endpoint', () => {
  it('loads no OpenTelemetry SDK, exporter or instrumentation', { timeout: TEST_MS }, async () => {
    const gateway = runGateway({ STATE_PATH: ':memory:' });
    const port = await listeningPort(gateway);
    await ask(port, 'How do I reset my password?');
    expect(beyondTheApi(await stopAndListModules(gateway))).toEqual([]);
  });
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('stops at start-up on a malformed OpenTelemetry variable, one line each', {
    timeout: TEST_MS,
  }, async () => {
    const gateway = runGateway({
      STATE_PATH: ':memory:',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/xml',
    });
    expect(await withTimeout(gateway.exited, STARTUP_MS, 'gateway did not exit')).toBe(1);
    const output = gateway.stderr.join('\n');
    expect(output).toContain('OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL');
    expect(output).toContain('OTEL_EXPORTER_OTLP_PROTOCOL: must be one of http/protobuf, http/json, grpc');
  });

  beforeEach(() => receiver.clear());

  it('exports a trace per question and per click: the receive, the robot, store and Slack calls', {
    timeout: TEST_MS,
  }, async () => {
    const question = 'How do I reset my password?';
    const gateway = runGateway({
      REDIS_URL,
      REDIS_KEY_PREFIX: `cs-trace-test-${process.pid}-${Date.now()}:`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      ...TRACING_ON,
    });
    const port = await listeningPort(gateway);
    const answer = await ask(port, question);

    const delivery = await deliveryOf('app_mention');
    // The calls made within it ended before it did, so they were exported with it or before.
    const trace = receiver.spans().filter((span) => span.traceId === delivery.traceId);
    const roots = trace.filter((span) => span.parentSpanId === '');
    expect(roots).toHaveLength(1);
    expect(roots[0]?.attributes['url.path']).toBe('/slack/events');
    expect(delivery.parentSpanId).toBe(roots[0]?.spanId);
    expect(delivery.serviceName).toBe('cs-gateway');
    expect(delivery.attributes).toMatchObject({
      'cs.workspace': IDS.team,
      'cs.surface': 'answers',
      'cs.event': 'app_mention',
      'cs.outcome': 'question',
    });

    const within = descendantsOf(trace, delivery);
    expectCallsOfOneQuestion(within);
    const contextPut = within.find((span) => span.name === 'store contexts.put');
    if (!contextPut) throw new Error(`no store span in ${JSON.stringify(within.map((span) => span.name))}`);
    expect(childrenOf(trace, contextPut).map((span) => span.attributes['db.system.name'])).toContain('redis');
    expect(
      within
        .filter((span) => span.attributes['db.system.name'] === 'redis')
        .map((span) => span.attributes['db.query.text']),
    ).not.toContainEqual(expect.stringContaining(' '));

    // A click is a trace of its own: the rating sent to the platform under it.
    const click = await sendInteraction(
      `http://127.0.0.1:${port}`,
      SIGNING_SECRET,
      clickFeedback(answer, 'positive'),
    );
    expect(click.status).toBe(200);
    const rating = await deliveryOf('block_actions');
    expect(rating.traceId).not.toBe(delivery.traceId);
    expect(rating.attributes).toMatchObject({
      'cs.workspace': IDS.team,
      'cs.surface': 'answers',
      'cs.event': 'rating',
    });
    const ratingCalls = descendantsOf(receiver.spans(), rating).map((span) =>
      String(span.attributes['url.full']),
    );
    expect(ratingCalls).toContainEqual(expect.stringContaining(simulator.url));

    expectNothingSecretExported(question);
    const replyReady = jsonLines(gateway.stdout).find((line) => line.msg === 'reply ready');
    expect(replyReady).toMatchObject({
      trace_id: delivery.traceId,
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    // The watch that found none above sees the SDK when it is there.
    expect(beyondTheApi(await stopAndListModules(gateway))).toEqual(
      expect.arrayContaining([expect.stringContaining('/@opentelemetry/sdk-node/')]),
    );
  });

  it('in Socket Mode, with SQLite, makes the delivery the root of the trace', {
    timeout: TEST_MS,
  }, async () => {
    const question = 'Who signs the socket-marker-51c2 forms?';
    const connections = socket.connectionCount;
    const gateway = runGateway({
      SLACK_APP_TOKEN: APP_TOKEN,
      STATE_PATH: stateFile(),
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      ...TRACING_ON,
    });
    await listeningPort(gateway);
    await socket.waitForConnection(connections + 1, STARTUP_MS);
    await ask('socket', question);

    const delivery = await deliveryOf('app_mention');
    expect(delivery.parentSpanId).toBe('');
    expect(delivery.attributes).toMatchObject({ 'cs.workspace': IDS.team, 'cs.surface': 'answers' });
    const trace = receiver.spans().filter((span) => span.traceId === delivery.traceId);
    const within = descendantsOf(trace, delivery);
    expectCallsOfOneQuestion(within);
    // SQLite has no instrumentation: the store's contract is where its spans are made.
    expect(within.map((span) => span.name)).toEqual(
      expect.arrayContaining(['store deliveries.claim', 'store contexts.put', 'store names.get']),
    );
    expectNothingSecretExported(question);
    await stopAndListModules(gateway);
  });
});

/** The robot asked on the platform, the placeholder posted and then replaced with the answer. */
function expectCallsOfOneQuestion(within: readonly ReceivedSpan[]): void {
  const calls = (origin: string) =>
    within.filter((span) => String(span.attributes['url.full']).startsWith(origin));
  expect(calls(simulator.url).length).toBeGreaterThanOrEqual(1);
  const slackPaths = calls(slack.url).map((span) => String(span.attributes['url.path']));
  expect(slackPaths).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/chat\.postMessage$/),
      expect.stringMatching(/chat\.update$/),
    ]),
  );
}
