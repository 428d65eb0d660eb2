// PLATFORM_QUESTION_RATE on a real client and a loopback platform: asks leave at the rate, in order;
// what cannot leave in time is refused as busy and never sent; replicas on one Redis share the rate.
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { platformPacing } from '../../../src/composition/platform-pacing.js';
import { createLogger } from '../../../src/logging/logger.js';
import {
  MemoryWindow,
  PlatformBusyError,
  type PlatformClient,
  SharedWindow,
} from '../../../src/platform/index.js';
import type { LimitStore } from '../../../src/slack/handling/question-limits.js';
import { redisLimitStores } from '../../support/limit-stores.js';
import { logSink } from '../../support/log-sink.js';
import { expectPaced } from '../../support/pacing.js';
import { freezeRedis, startRedisOnFreePort, stopRedis, thawRedis } from '../../support/redis-server.js';
import { sleep } from '../../support/wait.js';
import {
  type Loopback,
  ROBOT_ANSWER_DATA,
  ROBOT_ASK,
  sendJson,
  startLoopback,
  testClient,
} from './loopback.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const ACCOUNT = { openUrl: 'http://platform.test', sysNum: 'sys-1' };

interface Platform {
  loopback: Loopback;
  /** When each ask arrived, by its question. */
  arrivals: Array<{ question: string; at: number }>;
}

const platforms: Loopback[] = [];
afterEach(async () => {
  for (const loopback of platforms.splice(0)) await loopback.close();
});

async function startPlatform(): Promise<Platform> {
  const arrivals: Platform['arrivals'] = [];
  const loopback = await startLoopback((request, response) => {
    const body = request.body as { data: { question: string } };
    arrivals.push({ question: body.data.question, at: Date.now() });
    sendJson(response, { code: '1000', data: ROBOT_ANSWER_DATA });
  });
  platforms.push(loopback);
  return { loopback, arrivals };
}

function pacedClient(
  url: string,
  settings: { rate: number; deadlineSeconds?: number; store?: LimitStore },
  deps: { onBusy?: () => void; logger?: ReturnType<typeof createLogger> } = {},
): PlatformClient {
  const pacingFor = platformPacing(
    {
      PLATFORM_QUESTION_RATE: settings.rate,
      QUESTION_DEADLINE_SECONDS: settings.deadlineSeconds ?? 60,
      REDIS_COMMAND_TIMEOUT_MS: 1_000,
    },
    {
      store: settings.store ?? { kind: 'memory' },
      logger: deps.logger ?? createLogger({ level: 'silent' }),
      onBusy: deps.onBusy ?? (() => undefined),
    },
  );
  return testClient(url, { questionPacing: pacingFor(ACCOUNT) });
}

/** Asks every question at once; each settles as the question or the busy reason. */
function askAll(client: PlatformClient, questions: string[], sendBy?: number): Promise<string[]> {
  return Promise.all(
    questions.map((question) =>
      client.askRobot({ ...ROBOT_ASK, question }, { sendBy }).then(
        () => question,
        (error: unknown) => (error instanceof PlatformBusyError ? `busy:${error.reason}` : String(error)),
      ),
    ),
  );
}

/**
 * Takes turns for 2.5 s, the second one 600 ms after the first, and returns when each was granted:
 * a window reset each second would grant two more at once at 1,000 ms.
 */
async function grantedTurns(window: SlidingWindow): Promise<number[]> {
  const granted: number[] = [];
  const started = Date.now();
  expect(await window.take(1)).toEqual({ granted: 1, waitMs: 0 });
  granted.push(Date.now());
  await sleep(600);
  while (Date.now() - started < 2_500) {
    const taken = await window.take(1);
    if (taken.granted === 1) granted.push(Date.now());
    else await sleep(taken.waitMs);
  }
  return granted;
}

type SlidingWindow = Pick<MemoryWindow, 'take'>;

/** A batch is granted what fits in the second and no more; then nothing until the second has passed. */
async function expectBatchWithinRate(window: SlidingWindow): Promise<void> {
  expect(await window.take(5)).toEqual({ granted: 2, waitMs: 0 });
  const full = await window.take(3);
  expect(full.granted).toBe(0);
  expect(full.waitMs).toBeGreaterThan(900);
  await sleep(full.waitMs);
  expect((await window.take(1)).granted).toBe(1);
}

/** On the window's own clock: any `rate + 1` turns in a row span more than a second. */
function expectSliding(granted: number[], rate: number): void {
  expect(granted.length).toBeGreaterThanOrEqual(4);
  for (let index = 0; index + rate < granted.length; index += 1) {
    // A second less the time between a turn being counted and this test reading the clock.
    expect((granted[index + rate] ?? 0) - (granted[index] ?? 0)).toBeGreaterThanOrEqual(900);
  }
}

describe('a sliding second', () => {
  it('never grants more than the rate in any one second, in this process', async () => {
    expectSliding(await grantedTurns(new MemoryWindow(2)), 2);
  });

  it('nor on Redis', async () => {
    await withSharedWindow(async (window) => expectSliding(await grantedTurns(window), 2));
  });

  it('grants a batch of turns only as far as the rate, in this process and on Redis', async () => {
    await expectBatchWithinRate(new MemoryWindow(2));
    await withSharedWindow(expectBatchWithinRate);
  });
});

async function withSharedWindow(use: (window: SharedWindow) => Promise<void>): Promise<void> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  const key = `test:platform-window:${process.pid}:${randomBytes(4).toString('hex')}`;
  try {
    await use(
      new SharedWindow({
        evalScript: (script, keys, args) => client.eval(script, { keys, arguments: args }),
        key,
        rate: 2,
        fallback: new MemoryWindow(2),
        timeoutMs: 1_000,
        logger: createLogger({ level: 'silent' }),
      }),
    );
  } finally {
    await client.del(key);
    await client.close();
  }
}

describe('PLATFORM_QUESTION_RATE in one process', () => {
  it('sends the rate at once, the rest a second later each, in the order asked', async () => {
    const platform = await startPlatform();
    const client = pacedClient(platform.loopback.url, { rate: 2 });
    const questions = ['q0', 'q1', 'q2', 'q3', 'q4', 'q5'];
    expect(await askAll(client, questions)).toEqual(questions);
    expect(platform.arrivals.map((arrival) => arrival.question)).toEqual(questions);
    expectPaced(
      platform.arrivals.map((arrival) => arrival.at),
      2,
    );
    await client.close();
  });

  it('refuses at once, unsent, what could not be sent before its deadline, and logs that once', async () => {
    const platform = await startPlatform();
    const sink = logSink();
    let busy = 0;
    const client = pacedClient(
      platform.loopback.url,
      { rate: 1 },
      { onBusy: () => (busy += 1), logger: createLogger({ level: 'info', destination: sink.destination }) },
    );
    const started = Date.now();
    // A turn a second away is past a deadline less than a second away.
    const outcomes = await askAll(client, ['q0', 'q1', 'q2', 'q3'], started + 900);
    expect(outcomes).toEqual(['q0', 'busy:deadline', 'busy:deadline', 'busy:deadline']);
    expect(Date.now() - started).toBeLessThan(900);
    expect(platform.arrivals.map((arrival) => arrival.question)).toEqual(['q0']);
    expect(busy).toBe(3);
    expect(sink.records.map((record) => [record.msg, record.reason])).toEqual([
      ['platform question rate reached; questions refused as busy', 'deadline'],
    ]);
    await client.close();
  });

  it('refuses at once what finds the queue full: the rate times QUESTION_DEADLINE_SECONDS', async () => {
    const platform = await startPlatform();
    const client = pacedClient(platform.loopback.url, { rate: 1, deadlineSeconds: 2 });
    const outcomes = await askAll(client, ['q0', 'q1', 'q2', 'q3']);
    expect(outcomes).toEqual(['q0', 'q1', 'busy:queue_full', 'busy:queue_full']);
    expect(platform.arrivals.map((arrival) => arrival.question)).toEqual(['q0', 'q1']);
    expectPaced(
      platform.arrivals.map((arrival) => arrival.at),
      1,
    );
    await client.close();
  });

  it('counts each account apart', async () => {
    const platform = await startPlatform();
    const pacingFor = platformPacing(
      { PLATFORM_QUESTION_RATE: 1, QUESTION_DEADLINE_SECONDS: 60, REDIS_COMMAND_TIMEOUT_MS: 1_000 },
      { store: { kind: 'memory' }, logger: createLogger({ level: 'silent' }), onBusy: () => undefined },
    );
    const first = testClient(platform.loopback.url, { questionPacing: pacingFor(ACCOUNT) });
    const second = testClient(platform.loopback.url, {
      questionPacing: pacingFor({ ...ACCOUNT, sysNum: 'sys-2' }),
    });
    const started = Date.now();
    await Promise.all([askAll(first, ['a0', 'a1']), askAll(second, ['b0'])]);
    // b0 is not held behind a1, which waits for the next second of its own account.
    const order = platform.arrivals.map((arrival) => arrival.question);
    expect([order.slice(0, 2).sort(), order[2]]).toEqual([['a0', 'b0'], 'a1']);
    expect((platform.arrivals[1]?.at ?? 0) - started).toBeLessThan(900);
    await Promise.all([first.close(), second.close()]);
  });

  it('is off with PLATFORM_QUESTION_RATE=off', () => {
    const pacingFor = platformPacing(
      { PLATFORM_QUESTION_RATE: 'off', QUESTION_DEADLINE_SECONDS: 60, REDIS_COMMAND_TIMEOUT_MS: 1_000 },
      { store: { kind: 'memory' }, logger: createLogger({ level: 'silent' }), onBusy: () => undefined },
    );
    expect(pacingFor(ACCOUNT)).toBeUndefined();
  });
});

describe('PLATFORM_QUESTION_RATE on Redis', () => {
  const stores = redisLimitStores('platform-rate');
  const { keyPrefix } = stores;
  afterAll(() => stores.close());
  const onRedis = () => stores.open();

  it('shares one rate between two replicas, each with its own connection', async () => {
    const platform = await startPlatform();
    const replicaA = pacedClient(platform.loopback.url, { rate: 2, store: await onRedis() });
    const replicaB = pacedClient(platform.loopback.url, { rate: 2, store: await onRedis() });
    const outcomes = await Promise.all([
      askAll(replicaA, ['a0', 'a1', 'a2']),
      askAll(replicaB, ['b0', 'b1', 'b2']),
    ]);
    expect(outcomes).toEqual([
      ['a0', 'a1', 'a2'],
      ['b0', 'b1', 'b2'],
    ]);
    expect(platform.arrivals).toHaveLength(6);
    expectPaced(
      platform.arrivals.map((arrival) => arrival.at),
      2,
    );
    await Promise.all([replicaA.close(), replicaB.close()]);
  });

  it('keeps to the rate in each process while Redis is not there, and logs that once', async () => {
    const platform = await startPlatform();
    const sink = logSink();
    // Never connected: as a replica finds Redis while it is down.
    const client = createClient({ url: 'redis://127.0.0.1:1', disableOfflineQueue: true });
    const paced = pacedClient(
      platform.loopback.url,
      { rate: 1, store: { kind: 'redis', client, keyPrefix } },
      { logger: createLogger({ level: 'info', destination: sink.destination }) },
    );
    expect(await askAll(paced, ['q0', 'q1', 'q2'])).toEqual(['q0', 'q1', 'q2']);
    expectPaced(
      platform.arrivals.map((arrival) => arrival.at),
      1,
    );
    expect(sink.records.map((record) => record.msg)).toEqual([
      'platform question rate unavailable on Redis; each replica keeps to it alone',
    ]);
    await paced.close();
  });
});

describe('PLATFORM_QUESTION_RATE on a frozen Redis', () => {
  it('keeps to the rate in this process after the command timeout, and counts on Redis again once it answers', async () => {
    const { port, child } = await startRedisOnFreePort();
    const client = createClient({ url: `redis://127.0.0.1:${port}`, disableOfflineQueue: true });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const platform = await startPlatform();
      const sink = logSink();
      const pacingFor = platformPacing(
        { PLATFORM_QUESTION_RATE: 1, QUESTION_DEADLINE_SECONDS: 60, REDIS_COMMAND_TIMEOUT_MS: 200 },
        {
          store: { kind: 'redis', client, keyPrefix: 'frozen:' },
          logger: createLogger({ level: 'info', destination: sink.destination }),
          onBusy: () => undefined,
        },
      );
      const paced = testClient(platform.loopback.url, { questionPacing: pacingFor(ACCOUNT) });
      expect(await askAll(paced, ['q0'])).toEqual(['q0']);
      freezeRedis(child);
      // Redis cannot say; this process counts alone, and still one a second.
      expect(await askAll(paced, ['q1', 'q2'])).toEqual(['q1', 'q2']);
      expectPaced(
        platform.arrivals.filter((arrival) => arrival.question !== 'q0').map((arrival) => arrival.at),
        1,
      );
      thawRedis(child);
      // Redis is left alone a second after a failure, then asked again.
      await sleep(1_100);
      expect(await askAll(paced, ['q3'])).toEqual(['q3']);
      expect(sink.records.map((record) => record.msg)).toEqual([
        'platform question rate unavailable on Redis; each replica keeps to it alone',
        'platform question rate counted on Redis again',
      ]);
      await paced.close();
    } finally {
      thawRedis(child);
      client.destroy();
      await stopRedis(child);
    }
  });
});
