// The real entry point as an operator runs it: start-up checks, demo mode, and a graceful stop.
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import {
  buildCompiledApp,
  type CompiledApp,
  type RunningEntry,
  runCompiled,
  runEntry,
} from '../../support/child-process.js';
import { type FakeSlackApi, startFakeSlackApi } from '../../support/fake-slack-api.js';
import { BOT_TOKEN, SIGNING_SECRET, textOf } from '../../support/gateway-harness.js';
import {
  getOnNewConnection,
  keepAliveConnection,
  postOnNewConnection,
} from '../../support/http-connections.js';
import { freePort } from '../../support/redis-server.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { JSON_CONTENT_TYPE, sendEvent, signSlackRequest } from '../../support/slack-signing.js';
import { sleep, waitFor, withTimeout } from '../../support/wait.js';

const running: RunningEntry[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const { child, exited } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
  for (const close of closers.splice(0)) await close();
});

/** Runs src/main.ts in a Node process of its own, with only the environment given (plus PATH). */
function runGateway(env: Record<string, string>): RunningEntry {
  const handle = runEntry('src/main.ts', { LOG_LEVEL: 'info', STATE_PATH: ':memory:', ...env });
  running.push(handle);
  return handle;
}

/** Runs a compiled main.js with plain node, as production does. */
function runCompiledGateway(main: string, env: Record<string, string>): RunningEntry {
  const handle = runCompiled(main, { LOG_LEVEL: 'info', STATE_PATH: ':memory:', ...env });
  running.push(handle);
  return handle;
}

async function platformAndSlack(): Promise<{ simulator: Simulator; slack: FakeSlackApi }> {
  const simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  const slack = await startFakeSlackApi({
    users: { [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' } },
  });
  closers.push(async () => {
    await slack.close();
    await simulator.close();
  });
  return { simulator, slack };
}

const logLines = (stdout: string[]) =>
  stdout.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });

/**
 * The port the gateway listens on, from its start-up line. Gateways are started on port 0: a port
 * picked free beforehand can be taken by another test's server before the gateway binds it.
 */
const listening = async (gateway: RunningEntry): Promise<number> => {
  const line = await waitFor(
    () => logLines(gateway.stdout).find((line) => String(line.msg).includes('gateway listening')),
    {
      timeoutMs: 15_000,
      intervalMs: 50,
      message: () => [...gateway.stdout, ...gateway.stderr].join('\n'),
    },
  );
  if (typeof line.port !== 'number') throw new Error(`no port in ${JSON.stringify(line)}`);
  return line.port;
};

describe('start-up', () => {
  it('stops on invalid configuration with one line per problem, echoing no secret', async () => {
    const secret = 'tok-this-is-far-longer-than-forty-characters-and-secret';
    const gateway = runGateway({
      PORT: 'eighty',
      CS_OPEN_URL: 'https://open.example.com',
      CS_ACCESS_TOKEN: secret,
    });
    expect(await gateway.exited).toBe(1);
    const output = gateway.stderr.join('\n');
    expect(output).toContain('PORT: must be a whole number');
    expect(output).toContain('CS_SYS_NUM: is required when CS_OPEN_URL is set');
    expect(output).toContain('CS_ACCESS_TOKEN: must be at most 40 characters');
    expect(output).toContain('SLACK_BOT_TOKEN: is required');
    expect(output).not.toContain(secret);
  }, 60_000);

  it('stops with a clear error when Redis cannot be reached', async () => {
    const { slack } = await platformAndSlack();
    const gateway = runGateway({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      PORT: '0',
      // Nothing listens there; if something else took the port meanwhile, it is no Redis either.
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    expect(await gateway.exited).toBe(1);
    const fatal = logLines(gateway.stdout).find((line) => line.level === 60);
    expect(JSON.stringify(fatal)).toMatch(/redis/i);
  }, 60_000);

  it('stops with a clear error when Slack rejects the bot token', async () => {
    const { slack } = await platformAndSlack();
    slack.setHandler('auth.test', () => ({ ok: false, error: 'invalid_auth' }));
    const gateway = runGateway({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      PORT: '0',
    });
    expect(await gateway.exited).toBe(1);
    expect(gateway.stdout.join('\n')).toContain('SLACK_BOT_TOKEN was rejected by Slack (invalid_auth)');
    expect(gateway.stdout.join('\n')).not.toContain(BOT_TOKEN);
  }, 60_000);

  it('with no platform configured, runs the built-in simulator and marks answers as demo content', async () => {
    const { slack } = await platformAndSlack();
    const gateway = runGateway({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      PORT: '0',
    });
    const port = await listening(gateway);
    expect(logLines(gateway.stdout).some((line) => String(line.msg).includes('DEMO MODE'))).toBe(true);

    const event = appMention({ text: `<@${IDS.botUser}> How do I reset my password?` });
    await sendEvent(`http://127.0.0.1:${port}`, SIGNING_SECRET, eventCallback(event));
    // The robot answers at once, so the answer is the first and only message (no placeholder).
    const answer = await slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.thread_ts === event.ts,
      10_000,
    );
    expect(textOf(answer)).toContain('password portal');
    expect(textOf(answer)).toMatch(/demo knowledge base/i);
  }, 60_000);
});

describe('SIGTERM', () => {
  it('stops taking events, still posts the answer in flight, and exits 0', async () => {
    const { simulator, slack } = await platformAndSlack();
    const gateway = runGateway({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      CS_OPEN_URL: simulator.url,
      CS_SYS_NUM: 'acme',
      CS_ACCESS_TOKEN: DEFAULT_SIMULATOR_TOKEN,
      PORT: '0',
    });
    const port = await listening(gateway);

    simulator.faults.set({ kind: 'delay', ms: 3000, actions: ['chat_user_robot_ask'] });
    const event = appMention({ text: `<@${IDS.botUser}> How do I reset my password?` });
    await sendEvent(`http://127.0.0.1:${port}`, SIGNING_SECRET, eventCallback(event));
    // The placeholder is up: the robot is working on the answer.
    await slack.waitForCall('chat.postMessage', (call) => call.body.thread_ts === event.ts, 10_000);

    gateway.child.kill('SIGTERM');
    await waitFor(() => logLines(gateway.stdout).some((line) => String(line.msg).includes('stopping')), {
      timeoutMs: 5_000,
      message: 'the gateway never said it was stopping',
    });
    // It stops taking events: a new one, correctly signed, is refused for Slack to retry elsewhere. It
    // goes on a new connection, as Slack's retry would: the stop closes the idle pooled one.
    const late = appMention({ text: `<@${IDS.botUser}> How do I connect to the VPN?` });
    const lateBody = JSON.stringify(eventCallback(late));
    const refused = await postOnNewConnection(
      `http://127.0.0.1:${port}`,
      '/slack/events',
      { 'content-type': JSON_CONTENT_TYPE, ...signSlackRequest(SIGNING_SECRET, lateBody) },
      lateBody,
    );
    expect(refused.status).toBe(503);
    const answer = await slack.waitForCall('chat.update', undefined, 10_000);
    expect(textOf(answer)).toContain('password portal');
    expect(await gateway.exited).toBe(0);
    expect(slack.calls().filter((call) => call.body.thread_ts === late.ts)).toEqual([]);
    // Once stopped, nothing is listening any more.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 60_000);
});

describe('node dist/main.js, the production entry', () => {
  let build: CompiledApp | undefined;
  beforeAll(async () => {
    build = await buildCompiledApp();
  }, 180_000);
  afterAll(async () => {
    await build?.remove();
  });

  // tsc emits no font: the build copies it (scripts/copy-build-assets.mjs), or charts fail in production.
  it('draws a chart from the compiled code, on its worker, with the font the build carries', async () => {
    if (!build) throw new Error('not built');
    const compiled = join(dirname(build.main), 'charts', 'chart-drawer.js');
    const { ChartDrawer } = (await import(compiled)) as typeof import('../../../src/charts/chart-drawer.js');
    const drawer = new ChartDrawer();
    const image = await drawer.draw({
      kind: 'comparison',
      chart: {
        title: '每日提问',
        labels: ['11月27日', '11月28日'],
        locale: 'zh-CN',
        current: { name: '本期', values: [12, 9] },
        previous: { name: '上一期', values: [10, 9] },
      },
    });
    expect(image.png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  // Regression: a request mid-body on a keep-alive connection at SIGTERM held the process for Node's
  // keep-alive timeout (66 s), and the health routes were closed instead of answering 503.
  it('on SIGTERM drains a question in flight and a request mid-body, answers 503 on health, and exits 0 within the grace', async () => {
    if (!build) throw new Error('not built');
    const graceSeconds = 4;
    const { simulator, slack } = await platformAndSlack();
    slack.setUser('U_OTHER', { displayName: 'Sam Other', locale: 'en-US' });
    const gateway = runCompiledGateway(build.main, {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      CS_OPEN_URL: simulator.url,
      CS_SYS_NUM: 'acme',
      CS_ACCESS_TOKEN: DEFAULT_SIMULATOR_TOKEN,
      PORT: '0',
      PLACEHOLDER_DELAY_MS: '0',
      SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
    });
    const origin = `http://127.0.0.1:${await listening(gateway)}`;

    // The robot is slow, so the question is still being answered when SIGTERM arrives.
    simulator.faults.set({ kind: 'delay', ms: 2000, actions: ['chat_user_robot_ask'] });
    const inFlight = appMention({ text: `<@${IDS.botUser}> How do I reset my password?` });
    expect((await sendEvent(origin, SIGNING_SECRET, eventCallback(inFlight))).status).toBe(200);
    await slack.waitForCall('chat.postMessage', (call) => call.body.thread_ts === inFlight.ts, 10_000);

    const idle = keepAliveConnection(origin);
    const midBody = keepAliveConnection(origin);
    closers.push(async () => {
      idle.destroy();
      midBody.destroy();
    });
    expect((await idle.get('/healthz')).status).toBe(200);
    const late = appMention({ text: `<@${IDS.botUser}> How do I reset my password?`, user: 'U_OTHER' });
    const body = JSON.stringify(eventCallback(late));
    const pending = midBody.postInTwoParts(
      '/slack/events',
      { 'content-type': JSON_CONTENT_TYPE, ...signSlackRequest(SIGNING_SECRET, body) },
      body,
      100,
    );
    // The gateway has the request's headers, so it has begun before the signal: the child may be kept
    // off the CPU for a while on a busy machine, and this pause is all that says it has read them
    // (the robot's 2 s keep the first question in flight meanwhile).
    await sleep(600);

    const signalled = performance.now();
    gateway.child.kill('SIGTERM');
    await waitFor(() => logLines(gateway.stdout).some((line) => String(line.msg).includes('stopping')), {
      timeoutMs: 2_000,
    });
    await withTimeout(idle.closed, 1_000, 'the idle keep-alive connection was not closed');
    const healthz = await getOnNewConnection(origin, '/healthz');
    expect(healthz.status).toBe(503);
    expect((await getOnNewConnection(origin, '/readyz')).status).toBe(503);

    expect((await pending.finish()).status).toBe(200);
    // Both questions are answered: the placeholders are replaced by the robot's answers.
    const answers = () =>
      slack.calls('chat.update').filter((call) => textOf(call).includes('password portal'));
    await waitFor(() => answers().length === 2, {
      timeoutMs: 10_000,
      message: () => `${answers().length} answers`,
    });
    expect(slack.calls('chat.postMessage').some((call) => call.body.thread_ts === late.ts)).toBe(true);

    const code = await withTimeout(gateway.exited, (graceSeconds + 5) * 1000, 'the gateway did not exit');
    const elapsed = performance.now() - signalled;
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(graceSeconds * 1000 + 1_000);
    expect(logLines(gateway.stdout).some((line) => line.msg === 'stopped with questions in flight')).toBe(
      false,
    );
  }, 60_000);
});
