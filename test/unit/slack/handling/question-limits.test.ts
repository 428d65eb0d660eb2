import { webApi } from '@slack/bolt';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { beginHandling } from '../../../../src/slack/handling/handling.js';
import {
  type LimitScope,
  type LimitStore,
  QuestionLimits,
  questionGate,
} from '../../../../src/slack/handling/question-limits.js';
import { evalBySha } from '../../../../src/stores/redis-client.js';
import { redisLimitStores } from '../../../support/limit-stores.js';
import { logSink } from '../../../support/log-sink.js';
import { freezeRedis, startRedisOnFreePort, stopRedis, thawRedis } from '../../../support/redis-server.js';
import { waitFor } from '../../../support/wait.js';

const _REDIS_URL = 'redis://127.0.0.1:6379';
const silent = createLogger({ level: 'silent' });
const memory: LimitStore = { kind: 'memory' };

function limits(user: string | 'off', channel: string | 'off', store: LimitStore = memory) {
  const parse = (form: string) => {
    if (form === 'off') return 'off' as const;
    const [points, seconds] = form.split('/').map((part) => Number.parseInt(part, 10));
    return { points: points ?? 0, seconds: seconds ?? 0 };
  };
  return new QuestionLimits({
    user: parse(user),
    channel: parse(channel),
    store,
    timeoutMs: 1_000,
    logger: silent,
  });
}

async function askTimes(
  questionLimits: QuestionLimits,
  times: number,
  asked: { userId: string; channel: string | undefined },
) {
  const admissions = [];
  for (let index = 0; index < times; index += 1) {
    admissions.push(await questionLimits.admit({ workspace: 'T1', ...asked }));
  }
  return admissions;
}

describe('QuestionLimits in one process', () => {
  it('lets a person ask the limit, then drops the rest and tells them once, saying when', async () => {
    const admissions = await askTimes(limits('3/10s', 'off'), 6, { userId: 'U1', channel: 'C1' });
    expect(admissions.slice(0, 3)).toEqual([
      { kind: 'admitted' },
      { kind: 'admitted' },
      { kind: 'admitted' },
    ]);
    expect(admissions.slice(3).map((admission) => admission.kind === 'throttled' && admission.tell)).toEqual([
      true,
      false,
      false,
    ]);
    const first = admissions[3];
    expect(first?.kind === 'throttled' && first.firstInWindow).toBe(true);
    expect(first?.kind === 'throttled' && first.scope).toBe('user');
    expect(first?.kind === 'throttled' && first.retryAfterMs).toBeGreaterThan(0);
    expect(first?.kind === 'throttled' && first.retryAfterMs).toBeLessThanOrEqual(10_000);
  });

  it("counts people apart: one person's flood leaves another's question alone", async () => {
    const questionLimits = limits('2/10s', 'off');
    await askTimes(questionLimits, 5, { userId: 'U1', channel: 'C1' });
    expect(await questionLimits.admit({ workspace: 'T1', userId: 'U2', channel: 'C1' })).toEqual({
      kind: 'admitted',
    });
    // The same person id in another workspace is another person.
    expect(await questionLimits.admit({ workspace: 'T2', userId: 'U1', channel: 'C1' })).toEqual({
      kind: 'admitted',
    });
  });

  it('limits a channel of many people, telling each person over it once', async () => {
    const questionLimits = limits('off', '3/10s');
    const ask = (userId: string) => questionLimits.admit({ workspace: 'T1', userId, channel: 'C1' });
    for (const userId of ['U1', 'U2', 'U3']) expect((await ask(userId)).kind).toBe('admitted');
    const [fourth, fifth, again] = [await ask('U4'), await ask('U5'), await ask('U4')];
    expect(
      [fourth, fifth, again].map((admission) => admission.kind === 'throttled' && admission.tell),
    ).toEqual([true, true, false]);
    // Logged once a window, whoever asked.
    expect(
      [fourth, fifth, again].map((admission) => admission.kind === 'throttled' && admission.firstInWindow),
    ).toEqual([true, false, false]);
    expect(fourth?.kind === 'throttled' && fourth.scope).toBe('channel');
    // Another channel has its own count.
    expect((await questionLimits.admit({ workspace: 'T1', userId: 'U4', channel: 'C2' })).kind).toBe(
      'admitted',
    );
  });

  it("leaves a channel's count alone for the questions the asker's own limit drops", async () => {
    await expectFloodLeavesChannel(limits('2/10s', '3/10s'));
  });

  it('counts a DM against the person only', async () => {
    const questionLimits = limits('off', '1/10s');
    const admissions = await askTimes(questionLimits, 4, { userId: 'U1', channel: undefined });
    expect(admissions.every((admission) => admission.kind === 'admitted')).toBe(true);
  });

  it('limits nothing when both are off', async () => {
    const admissions = await askTimes(limits('off', 'off'), 50, { userId: 'U1', channel: 'C1' });
    expect(admissions.every((admission) => admission.kind === 'admitted')).toBe(true);
  });
});

describe('QuestionLimits on Redis', () => {
  const stores = redisLimitStores('question-limits');
  const { keyPrefix } = stores;
  afterAll(() => stores.close());
  const onRedis = () => stores.open();

  it('shares one count between two replicas, each with its own connection', async () => {
    const replicaA = limits('3/10s', 'off', await onRedis());
    const replicaB = limits('3/10s', 'off', await onRedis());
    const asked = { workspace: 'T1', userId: 'U1', channel: 'C1' };
    const kinds = [];
    for (const replica of [replicaA, replicaB, replicaA, replicaB, replicaA]) {
      kinds.push((await replica.admit(asked)).kind);
    }
    expect(kinds).toEqual(['admitted', 'admitted', 'admitted', 'throttled', 'throttled']);
  });

  it("leaves a channel's count alone for the questions the asker's own limit drops", async () => {
    await expectFloodLeavesChannel(limits('2/10s', '3/10s', await onRedis()));
  });

  it('lets questions through when Redis is not there, and logs that once', async () => {
    const sink = logSink();
    const logger = createLogger({ level: 'info', destination: sink.destination });
    // Never connected: as a replica finds Redis while it is down.
    const client = createClient({ url: 'redis://127.0.0.1:1', disableOfflineQueue: true });
    const questionLimits = new QuestionLimits({
      user: { points: 1, seconds: 10 },
      channel: { points: 1, seconds: 10 },
      store: { kind: 'redis', client, keyPrefix },
      timeoutMs: 1_000,
      logger,
    });
    const admissions = await askTimes(questionLimits, 5, { userId: 'U1', channel: 'C1' });
    expect(admissions.every((admission) => admission.kind === 'admitted')).toBe(true);
    expect(sink.records.map((record) => record.msg)).toEqual([
      'question limits unavailable; questions are let through',
    ]);
  });
});

/** One person's flood in a channel whose limit is above theirs: another person may still ask there. */
async function expectFloodLeavesChannel(questionLimits: QuestionLimits): Promise<void> {
  const flood = await askTimes(questionLimits, 6, { userId: 'U-flooding', channel: 'C-flood' });
  expect(flood.map((admission) => admission.kind === 'throttled' && admission.scope)).toEqual([
    false,
    false,
    'user',
    'user',
    'user',
    'user',
  ]);
  expect((await askTimes(questionLimits, 1, { userId: 'U-other', channel: 'C-flood' }))[0]).toEqual({
    kind: 'admitted',
  });
}

describe('QuestionLimits on a Redis that lost its scripts', () => {
  it('counts on after a SCRIPT FLUSH, as after a new primary', async () => {
    const { port, child } = await startRedisOnFreePort();
    const client = createClient({ url: `redis://127.0.0.1:${port}` });
    try {
      await client.connect();
      const questionLimits = limits('2/60s', 'off', {
        kind: 'redis',
        client: evalBySha(client),
        keyPrefix: 'flushed:',
      });
      const asked = { userId: 'U1', channel: 'C1' };
      expect((await askTimes(questionLimits, 1, asked))[0]?.kind).toBe('admitted');
      await client.scriptFlush();
      expect((await askTimes(questionLimits, 2, asked)).map((admission) => admission.kind)).toEqual([
        'admitted',
        'throttled',
      ]);
    } finally {
      await client.close();
      await stopRedis(child);
    }
  });
});

describe('QuestionLimits on a frozen Redis', () => {
  it('lets a question through after the command timeout, and counts again once Redis answers', async () => {
    const { port, child } = await startRedisOnFreePort();
    const client = createClient({ url: `redis://127.0.0.1:${port}`, disableOfflineQueue: true });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const sink = logSink();
      const questionLimits = new QuestionLimits({
        user: { points: 1, seconds: 60 },
        channel: 'off',
        store: { kind: 'redis', client, keyPrefix: 'frozen:' },
        timeoutMs: 200,
        logger: createLogger({ level: 'info', destination: sink.destination }),
      });
      const asked = { workspace: 'T1', userId: 'U1', channel: 'C1' };
      expect((await questionLimits.admit(asked)).kind).toBe('admitted');
      freezeRedis(child);
      // Over the limit, but Redis cannot say so: an outage must not silence the robot.
      expect((await questionLimits.admit(asked)).kind).toBe('admitted');
      thawRedis(child);
      // The count that was sent while frozen lands on thawing; the next one is over the limit again.
      await waitFor(async () => (await questionLimits.admit(asked)).kind === 'throttled', {
        timeoutMs: 5_000,
      });
      expect(sink.records.map((record) => record.msg)).toEqual([
        'question limits unavailable; questions are let through',
        'question limits counted again',
      ]);
    } finally {
      thawRedis(child);
      client.destroy();
      await stopRedis(child);
    }
  });
});

describe('questionGate', () => {
  const client = new webApi.WebClient('xoxb-test', { slackApiUrl: 'http://127.0.0.1:9/api/' });
  const users = { lookup: async () => ({ displayName: 'Jane', locale: 'en' as const }) };

  it('lets an operator through a limit, and counts and logs once what it drops for others', async () => {
    const sink = logSink();
    const logger = createLogger({ level: 'info', destination: sink.destination });
    const throttled: LimitScope[] = [];
    const gate = questionGate(limits('1/10s', 'off'), {
      operators: {
        check: async (_client, _workspace, userId) =>
          userId === 'UOPERATOR' ? { kind: 'operator' } : { kind: 'refused', reason: 'not_operator' },
      },
      onThrottled: (scope) => throttled.push(scope),
    });
    const ask = (userId: string) =>
      gate(beginHandling({ client, context: { teamId: 'T1' } }, { logger, users }), {
        userId,
        channel: 'C1',
      });
    const operator = [await ask('UOPERATOR'), await ask('UOPERATOR'), await ask('UOPERATOR')];
    expect(operator.map((admission) => admission.kind)).toEqual(['admitted', 'admitted', 'admitted']);
    const person = [await ask('U1'), await ask('U1'), await ask('U1')];
    expect(person.map((admission) => admission.kind)).toEqual(['admitted', 'throttled', 'throttled']);
    expect(throttled).toEqual(['user', 'user']);
    const lines = sink.records.filter((record) => record.msg.startsWith('question limit reached'));
    expect(lines).toEqual([expect.objectContaining({ scope: 'user', userId: 'U1', channel: 'C1' })]);
  });
});
