// The gateway run the way its image runs it (the Dockerfile's final stage, read by its parser): its
// CMD and ENV, as an unprivileged user, from a read-only copy of the build with production
// dependencies only, and only the volume's stand-in writable. It starts, answers, passes the image's
// health check, stops on SIGTERM within the grace and, started again on the same volume, remembers;
// an env file that leaves STATE_PATH empty still keeps the state on the volume.
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../src/simulator/index.js';
import type { RunningEntry } from '../support/child-process.js';
import { finalStage, readDockerfile, runtimeImage } from '../support/dockerfile-image.js';
import { type FakeSlackApi, type RecordedCall, startFakeSlackApi } from '../support/fake-slack-api.js';
import { BOT_TOKEN, clickFeedback, isRecord, SIGNING_SECRET, textOf } from '../support/gateway-harness.js';
import {
  type ImageLikeApp,
  onDataDir,
  prepareImageLikeApp,
  runAsImage,
  runHealthcheck,
  uidOf,
} from '../support/image-like-app.js';
import { appMention, eventCallback, IDS } from '../support/slack-payloads.js';
import { sendEvent, sendInteraction } from '../support/slack-signing.js';
import { waitFor, withTimeout } from '../support/wait.js';

const GRACE_SECONDS = 4;
/** Generous: a busy two-core machine runs other e2e files beside this one. */
const WAIT_MS = 10_000;

const image = runtimeImage(finalStage(readDockerfile()));
let app: ImageLikeApp;
let simulator: Simulator;
let slack: FakeSlackApi;
const running: RunningEntry[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  slack = await startFakeSlackApi({ users: { [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' } } });
  app = await prepareImageLikeApp();
}, 180_000);

afterEach(async () => {
  for (const { child, exited } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
  // Each test starts on an empty volume (the folder stays, with its owner).
  if (!app) return;
  for (const entry of await readdir(app.dataDir)) await rm(join(app.dataDir, entry), { force: true });
});

afterAll(async () => {
  await app?.remove();
  await slack?.close();
  await simulator?.close();
});

function runGateway(overrides: Record<string, string> = {}): RunningEntry {
  const gateway = runAsImage(app, image, {
    LOG_LEVEL: 'info',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.url,
    CS_OPEN_URL: simulator.url,
    CS_SYS_NUM: 'acme',
    CS_ACCESS_TOKEN: DEFAULT_SIMULATOR_TOKEN,
    PLACEHOLDER_DELAY_MS: '0',
    SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    // Port 0 rather than the image's: a port picked beforehand can be taken before the gateway binds it.
    PORT: '0',
    HOST: '127.0.0.1',
    ...overrides,
  });
  running.push(gateway);
  return gateway;
}

const logLines = (gateway: RunningEntry) =>
  gateway.stdout.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });

async function startUpLine(gateway: RunningEntry): Promise<{ port: number; msg: string }> {
  const line = await waitFor(
    () => {
      const listening = logLines(gateway).find((record) => String(record.msg).includes('gateway listening'));
      // A start that failed says why at once, rather than after the wait.
      if (!listening && gateway.child.exitCode !== null) {
        throw new Error(`the gateway exited ${gateway.child.exitCode}: ${gateway.stderr.join('\n')}`);
      }
      return listening;
    },
    { timeoutMs: 45_000, intervalMs: 50, message: () => [...gateway.stdout, ...gateway.stderr].join('\n') },
  );
  if (typeof line.port !== 'number') throw new Error(`no port in ${JSON.stringify(line)}`);
  return { port: line.port, msg: String(line.msg) };
}

/** Sends SIGTERM and expects exit 0 within the grace (and a second for the process to end). */
async function stopWithinGrace(gateway: RunningEntry): Promise<void> {
  const signalled = performance.now();
  gateway.child.kill('SIGTERM');
  const code = await withTimeout(gateway.exited, (GRACE_SECONDS + 5) * 1000, 'the gateway did not exit');
  expect(code).toBe(0);
  expect(performance.now() - signalled).toBeLessThan(GRACE_SECONDS * 1000 + 1_000);
}

/** Anything the gateway said went wrong: an error or fatal log line, or stderr other than Node's warning. */
const complaints = (gateway: RunningEntry) => [
  ...logLines(gateway)
    .filter((record) => Number(record.level) >= 50)
    .map((record) => JSON.stringify(record)),
  // Node 22 warns that node:sqlite is experimental; the README says so.
  ...gateway.stderr.filter((line) => !/ExperimentalWarning|--trace-warnings/.test(line)),
];

async function ask(origin: string, question: string): Promise<{ answer: RecordedCall; threadTs: string }> {
  const event = appMention({ text: `<@${IDS.botUser}> ${question}` });
  expect((await sendEvent(origin, SIGNING_SECRET, eventCallback(event))).status).toBe(200);
  const placeholder = await slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.thread_ts === event.ts,
    WAIT_MS,
  );
  const answer = await slack.waitForCall(
    'chat.update',
    (call) => call.body.ts === placeholder.response?.ts,
    WAIT_MS,
  );
  return { answer, threadTs: event.ts };
}

const feedbacks = () =>
  simulator.received
    .filter((request) => isRecord(request.body) && request.body.action === 'robot_feedback')
    .map((request) => (isRecord(request.body) && isRecord(request.body.data) ? request.body.data : {}));

describe('the gateway run as its image runs it', () => {
  it('starts unprivileged on a read-only build, answers, stops within the grace and remembers after a restart', async () => {
    const statePath = onDataDir(app, image, image.env.STATE_PATH ?? '');
    const first = runGateway();
    const started = await startUpLine(first);
    expect(started.msg).toContain(`state in SQLite at ${statePath}`);
    expect(await uidOf(first.child.pid)).not.toBe(0);
    if (app.user) expect(await uidOf(first.child.pid)).toBe(app.user.uid);
    const env = { PORT: String(started.port) };
    expect(await runHealthcheck(app, image, env)).toBe(0);

    const origin = `http://127.0.0.1:${started.port}`;
    const asked = await ask(origin, 'How do I install software?');
    expect(textOf(asked.answer)).toMatch(/install/i);
    await stopWithinGrace(first);
    // Stopped, the image's health check says so.
    expect(await runHealthcheck(app, image, env)).not.toBe(0);
    // The state went to the volume, and there only.
    expect(await readdir(app.dataDir)).toContain(basename(statePath));

    const second = runGateway();
    const after = `http://127.0.0.1:${(await startUpLine(second)).port}`;
    // 👍 on the answer given before the restart reaches the platform with that answer's ids.
    const click = clickFeedback(asked.answer, 'positive', { threadTs: asked.threadTs });
    expect((await sendInteraction(after, SIGNING_SECRET, click)).status).toBe(200);
    await slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === asked.answer.body.ts && textOf(call).includes('rated this answer'),
      WAIT_MS,
    );
    expect(feedbacks()).toEqual([expect.objectContaining({ status: 1, docId: 'doc-software-install' })]);
    await stopWithinGrace(second);

    expect([...complaints(first), ...complaints(second)]).toEqual([]);
  }, 120_000);

  it('keeps the state on the volume when an env file leaves STATE_PATH empty, as .env.example does', async () => {
    const gateway = runGateway({ STATE_PATH: '' });
    await startUpLine(gateway);
    await stopWithinGrace(gateway);
    expect(await readdir(app.dataDir)).toContain('gateway.sqlite');
    expect(complaints(gateway)).toEqual([]);
  }, 60_000);
});
