// Traces, opt-in: the real entry point in a process of its own, exporting to a receiver on loopback.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type RunningEntry, runEntry } from '../../support/child-process.js';
import { type FakeSlackApi, startFakeSlackApi } from '../../support/fake-slack-api.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../../support/gateway-harness.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../../support/otlp-receiver.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { waitFor, withTimeout } from '../../support/wait.js';

const ENTRY = 'test/entries/main-with-module-watch.ts';
const REDIS_URL = 'redis://127.0.0.1:6379';

let simulator: Simulator;
let slack: FakeSlackApi;
let receiver: OtlpReceiver;
const running: RunningEntry[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  slack = await startFakeSlackApi({ users: { [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' } } });
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
    () => jsonLines(gateway.stdout).find((line) => String(line.msg).includes('gateway listening')),
    { timeoutMs: 20_000, intervalMs: 50, message: () => [...gateway.stdout, ...gateway.stderr].join('\n') },
  );
  return Number(line.port);
}

/** Stops it as an orchestrator does, and returns the OpenTelemetry modules it had loaded. */
async function stopAndListModules(gateway: RunningEntry): Promise<string[]> {
  gateway.child.kill('SIGTERM');
  expect(await withTimeout(gateway.exited, 20_000, 'gateway did not stop')).toBe(0);
  const report = jsonLines(gateway.stderr).find((line) => Array.isArray(line.opentelemetryModules));
  if (!report) throw new Error(`no module report in:\n${gateway.stderr.join('\n')}`);
  return report.opentelemetryModules as string[];
}

/** Asks by mention and waits for the answer to replace the placeholder. */
async function ask(port: number, question: string): Promise<void> {
  const event = appMention({ text: `<@${IDS.botUser}> ${question}` });
  const response = await sendEvent(`http://127.0.0.1:${port}`, SIGNING_SECRET, eventCallback(event));
  expect(response.status).toBe(200);
  const placeholder = await slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.thread_ts === event.ts,
    10_000,
  );
  const placeholderTs = String((placeholder.response as { ts?: unknown }).ts);
  await slack.waitForCall('chat.update', (call) => call.body.ts === placeholderTs, 10_000);
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
  it('loads no OpenTelemetry SDK, exporter or instrumentation', { timeout: 60_000 }, async () => {
    const gateway = runGateway({ STATE_PATH: ':memory:' });
    const port = await listeningPort(gateway);
    await ask(port, 'How do I reset my password?');
    expect(beyondTheApi(await stopAndListModules(gateway))).toEqual([]);
  });
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('exports one trace per question: the receive, then the robot call, the store and Slack calls', {
    timeout: 60_000,
  }, async () => {
    const question = 'Where is the tracing-marker-7f3e handbook?';
    const prefix = `cs-trace-test-${process.pid}-${Date.now()}:`;
    const gateway = runGateway({
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    const port = await listeningPort(gateway);
    await ask(port, question);

    const delivery = await waitFor(
      () =>
        receiver
          .spans()
          .find((span) => span.name === 'slack app_mention' && span.attributes['cs.outcome'] !== undefined),
      { timeoutMs: 10_000, message: () => JSON.stringify(receiver.spans().map((span) => span.name)) },
    );
    // The spans of the calls made within it ended before it did, so they were exported with it or before.
    const trace = receiver.spans().filter((span) => span.traceId === delivery.traceId);
    const roots = trace.filter((span) => span.parentSpanId === '');
    expect(roots).toHaveLength(1);
    expect(roots[0]?.attributes['url.path'] ?? roots[0]?.attributes['http.target']).toBe('/slack/events');
    expect(delivery.parentSpanId).toBe(roots[0]?.spanId);
    expect(delivery.serviceName).toBe('cs-gateway');
    expect(delivery.attributes).toMatchObject({
      'cs.workspace': IDS.team,
      'cs.surface': 'answers',
      'cs.event': 'app_mention',
      'cs.outcome': 'question',
    });

    const within = descendantsOf(trace, delivery);
    const calls = (origin: string) =>
      within.filter((span) => String(span.attributes['url.full']).startsWith(origin));
    expect(calls(simulator.url).length).toBeGreaterThanOrEqual(1);
    const slackPaths = calls(slack.url).map((span) => String(span.attributes['url.path']));
    expect(slackPaths).toEqual(expect.arrayContaining([expect.stringMatching(/chat\.postMessage$/)]));
    expect(slackPaths).toEqual(expect.arrayContaining([expect.stringMatching(/chat\.update$/)]));
    const contextPut = within.find((span) => span.name === 'store contexts.put');
    if (!contextPut) throw new Error(`no store span in ${JSON.stringify(within.map((span) => span.name))}`);
    expect(childrenOf(trace, contextPut).map((span) => span.attributes['db.system.name'])).toContain('redis');

    const exported = receiver.bodies().join('\n');
    for (const secret of [
      question,
      'tracing-marker-7f3e',
      BOT_TOKEN,
      SIGNING_SECRET,
      DEFAULT_SIMULATOR_TOKEN,
    ]) {
      expect(exported).not.toContain(secret);
    }

    const replyReady = jsonLines(gateway.stdout).find((line) => line.msg === 'reply ready');
    expect(replyReady?.trace_id).toBe(delivery.traceId);
    // The watch that found none above sees the SDK when it is there.
    expect(beyondTheApi(await stopAndListModules(gateway))).toEqual(
      expect.arrayContaining([expect.stringContaining('/@opentelemetry/sdk-node/')]),
    );
  });
});
