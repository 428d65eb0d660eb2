// One replica without Redis, stopped and started again on the same SQLite file, as a deploy does it:
// what was asked before the restart can still be rated, a 👎 counts on the card posted before it,
// and a channel's settings still apply.
// And a state file the gateway cannot use stops the start with one line that says what to do.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type RunningEntry, runEntry } from '../../support/child-process.js';
import { type FakeSlackApi, type RecordedCall, startFakeSlackApi } from '../../support/fake-slack-api.js';
import {
  BOT_TOKEN,
  blocksOf,
  clickFeedback,
  isRecord,
  SIGNING_SECRET,
  textOf,
} from '../../support/gateway-harness.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { sendEvent, sendInteraction, sendSlashCommand } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const REVIEW_CHANNEL = 'C0REVIEW';
const IT_DESK = 'C0ITDESK';
const OPERATOR = 'U0OPERATOR';
const OTHER = 'U_OTHER';
const THIRD = 'U_THIRD';
/** Generous: a busy two-core machine runs other e2e files beside this one. */
const WAIT_MS = 10_000;

let simulator: Simulator;
let slack: FakeSlackApi;
let folder: string;
const running: RunningEntry[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  slack = await startFakeSlackApi({
    users: {
      [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' },
      [OTHER]: { displayName: 'Sam Other', locale: 'en-US' },
      [THIRD]: { displayName: 'Kim Third', locale: 'en-US' },
      [OPERATOR]: { displayName: 'Olga Operator', locale: 'en-US' },
    },
  });
  folder = mkdtempSync(join(tmpdir(), 'gateway-restart-'));
});

afterEach(async () => {
  for (const { child, exited } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
});

afterAll(async () => {
  await slack?.close();
  await simulator?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

function runGateway(statePath: string): RunningEntry {
  const handle = runEntry('src/main.ts', {
    LOG_LEVEL: 'info',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.url,
    CS_OPEN_URL: simulator.url,
    CS_SYS_NUM: 'acme',
    CS_ACCESS_TOKEN: DEFAULT_SIMULATOR_TOKEN,
    REVIEW_CHANNEL_ID: REVIEW_CHANNEL,
    OPERATOR_USER_IDS: OPERATOR,
    PLACEHOLDER_DELAY_MS: '0',
    PORT: '0',
    HOST: '127.0.0.1',
    STATE_PATH: statePath,
  });
  running.push(handle);
  return handle;
}

/** The gateway's start-up line, parsed, once it is listening. */
async function startUpLine(gateway: RunningEntry): Promise<{ port: number; msg: string }> {
  const line = await waitFor(
    () =>
      gateway.stdout
        .flatMap((text) => {
          try {
            return [JSON.parse(text) as Record<string, unknown>];
          } catch {
            return [];
          }
        })
        .find((record) => String(record.msg).includes('gateway listening')),
    { timeoutMs: 45_000, intervalMs: 50, message: () => [...gateway.stdout, ...gateway.stderr].join('\n') },
  );
  if (typeof line.port !== 'number') throw new Error(`no port in ${JSON.stringify(line)}`);
  return { port: line.port, msg: String(line.msg) };
}

async function stop(gateway: RunningEntry): Promise<void> {
  gateway.child.kill('SIGTERM');
  expect(await gateway.exited).toBe(0);
}

/** Asks by mention and waits for the answer to replace the placeholder. */
async function ask(
  origin: string,
  question: string,
  user: string,
  channel: string = IDS.channel,
): Promise<{ answer: RecordedCall; threadTs: string }> {
  const event = appMention({ text: `<@${IDS.botUser}> ${question}`, user, channel });
  const response = await sendEvent(origin, SIGNING_SECRET, eventCallback(event));
  expect(response.status).toBe(200);
  const placeholder = await slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.thread_ts === event.ts,
    WAIT_MS,
  );
  const placeholderTs = placeholder.response?.ts;
  const answer = await slack.waitForCall('chat.update', (call) => call.body.ts === placeholderTs, WAIT_MS);
  return { answer, threadTs: event.ts };
}

async function rate(
  origin: string,
  asked: { answer: RecordedCall; threadTs: string },
  side: 'positive' | 'negative',
  user: string,
): Promise<RecordedCall> {
  // The process runs with the production default: Slack's own feedback buttons.
  const click = clickFeedback(asked.answer, side, { user, threadTs: asked.threadTs });
  expect((await sendInteraction(origin, SIGNING_SECRET, click)).status).toBe(200);
  return slack.waitForCall(
    'chat.update',
    (call) => call.body.ts === asked.answer.body.ts && textOf(call).includes('rated this answer'),
    WAIT_MS,
  );
}

const toReview = (call: RecordedCall) => call.body.channel === REVIEW_CHANNEL;

function headerOf(call: RecordedCall): string {
  const header = blocksOf(call).find((block) => block.type === 'header');
  return header && isRecord(header.text) ? String(header.text.text ?? '') : '';
}

const dataOf = (action: string) =>
  simulator.received
    .filter((request) => isRecord(request.body) && request.body.action === action)
    .map((request) => (isRecord(request.body) && isRecord(request.body.data) ? request.body.data : {}));
const feedbacks = () => dataOf('robot_feedback');
const robotAsks = () => dataOf('chat_user_robot_ask');

describe('a restart on the same SQLite file', () => {
  it("keeps the answers to rate, the review card to count on and the channels' settings", async () => {
    const statePath = join(folder, 'restart', 'gateway.sqlite');
    const first = runGateway(statePath);
    const started = await startUpLine(first);
    // The operator is told where the state is: the file, created with its folder.
    expect(started.msg).toContain(`state in SQLite at ${statePath}`);
    const before = `http://127.0.0.1:${started.port}`;

    const unrated = await ask(before, 'How do I install software?', IDS.user);
    const disliked = await ask(before, 'How do I install software?', OTHER);
    await rate(before, disliked, 'negative', OTHER);
    const card = await slack.waitForCall('chat.postMessage', toReview, WAIT_MS);
    expect(headerOf(card)).toBe('👎 Answer disliked');
    const cardTs = card.response?.ts;
    // A third asker gets an answer before the restart and rates it after.
    const later = await ask(before, 'How do I install software?', THIRD);
    // An operator gives a channel its own robot.
    const set = await sendSlashCommand(before, SIGNING_SECRET, {
      command: '/cs',
      text: 'channel robot:2',
      user_id: OPERATOR,
      channel_id: IT_DESK,
      response_url: slack.responseUrl('restart-set'),
    });
    expect(set.status).toBe(200);
    await slack.waitForCall('response_url', (call) => textOf(call).includes('robot 2'), WAIT_MS);
    await stop(first);

    const second = runGateway(statePath);
    const after = `http://127.0.0.1:${(await startUpLine(second)).port}`;
    const feedbacksBefore = feedbacks().length;

    // 👍 on an answer given before the restart reaches the platform with that answer's ids.
    const liked = await rate(after, unrated, 'positive', IDS.user);
    expect(textOf(liked)).toContain('👍');
    const sent = feedbacks().slice(feedbacksBefore);
    expect(sent).toEqual([expect.objectContaining({ status: 1, docId: 'doc-software-install' })]);
    expect(simulator.stats().feedbackRejected ?? 0).toBe(0);

    // 👎 on the same entry counts on the card posted before the restart: updated, not posted again.
    const cardPostsBefore = slack.calls('chat.postMessage').filter(toReview).length;
    await rate(after, later, 'negative', THIRD);
    const counted = await slack.waitForCall(
      'chat.update',
      (call) => toReview(call) && call.body.ts === cardTs && headerOf(call).includes('2 times'),
      WAIT_MS,
    );
    expect(headerOf(counted)).toBe('👎 Answer disliked · 2 times');
    expect(slack.calls('chat.postMessage').filter(toReview)).toHaveLength(cardPostsBefore);

    // The channel's settings still apply: a question there goes to its robot.
    const asksBefore = robotAsks().length;
    await ask(after, 'How do I connect to the VPN?', IDS.user, IT_DESK);
    expect(robotAsks().slice(asksBefore)).toEqual([expect.objectContaining({ robotFlag: 2 })]);
    await stop(second);
  }, 90_000);
});

describe('a state file the gateway cannot use', () => {
  /** Starts the gateway on `statePath`, expects it to stop, and returns what it printed on stderr. */
  async function refusedStart(statePath: string): Promise<string[]> {
    const gateway = runGateway(statePath);
    expect(await gateway.exited).toBe(1);
    // Node 22 prints an experimental warning for node:sqlite; the README says so, nothing hides it.
    return gateway.stderr.filter((line) => !/ExperimentalWarning|--trace-warnings/.test(line));
  }

  it('stops with one line when the file is not a database', async () => {
    const statePath = join(folder, 'notes.txt');
    writeFileSync(statePath, 'shopping list: milk, eggs, and a database this is not\n'.repeat(20));
    expect(await refusedStart(statePath)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Cannot start: STATE_PATH ${statePath} is not a SQLite database of this gateway .*move the file away`,
        ),
      ),
    ]);
  }, 30_000);

  it('stops with one line when a newer release wrote the file', async () => {
    const statePath = join(folder, 'newer.sqlite');
    const db = new DatabaseSync(statePath);
    db.exec('PRAGMA user_version = 999');
    db.close();
    expect(await refusedStart(statePath)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Cannot start: STATE_PATH ${statePath} was written by a newer release \\(schema version 999`,
        ),
      ),
    ]);
  }, 30_000);
});
