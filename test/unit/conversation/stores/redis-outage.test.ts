// Redis going away and coming back, on a redis-server of this file's own that it stops and starts.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectRedis,
  RedisContextStore,
  type StoreLogger,
} from '../../../../src/conversation/stores/redis.js';
import { StoreUnavailableError } from '../../../../src/conversation/stores.js';
import type { AnswerContext } from '../../../../src/conversation/types.js';
import { freePort, startRedis, stopRedis } from '../../../support/redis-server.js';

function recordingLogger(): StoreLogger & { lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  return {
    lines,
    warn: (_obj, msg) => lines.push({ level: 'warn', msg }),
    info: (_obj, msg) => lines.push({ level: 'info', msg }),
  };
}

const answer: AnswerContext = {
  uid: undefined,
  cid: 'cid-1',
  msgId: 'msg-1',
  docId: 'doc-1',
  docName: 'Reset password',
  robotFlag: 1,
  partnerId: 'T1:U1',
  askerUserId: 'U1',
  question: 'reset password',
  suggestions: [],
  rateable: true,
  conversationId: 'C1',
  threadId: undefined,
  createdAt: 1_700_000_000_000,
};

/** Milliseconds until the promise settles, with its rejection, if any. */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  try {
    await promise;
    return { ms: Date.now() - started, error: undefined };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

describe('Redis lost while running', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    port = await freePort();
  });

  afterAll(async () => {
    for (const close of closers) await close();
    await stopRedis(redis);
  });

  it('waits at start for a Redis that comes up within the budget', async () => {
    const connecting = connectRedis({
      url: `redis://127.0.0.1:${port}`,
      keyPrefix: 'outage:',
      connectTimeoutMs: 5_000,
    });
    // Registered before awaiting, so a failed assertion still closes it.
    closers.push(async () => (await connecting.catch(() => undefined))?.close());
    await new Promise((resolve) => setTimeout(resolve, 300));
    redis = await startRedis(port);
    const connection = await connecting;
    expect(await connection.ping()).toBe(true);
  });

  it('fails fast while Redis is down, never crashes, and recovers when it returns', async () => {
    const logger = recordingLogger();
    const connection = await connectRedis({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'outage:', logger });
    closers.push(() => connection.close());
    const store = new RedisContextStore(connection, { ttlSeconds: 60 });
    await store.put('k1', answer);
    expect(await store.get('k1')).toStrictEqual(answer);

    await stopRedis(redis);
    redis = undefined;

    // Right after the kill: the command may meet the dying socket or the offline client.
    const first = await timed(store.get('k1'));
    expect(first.error).toBeInstanceOf(StoreUnavailableError);
    expect(first.ms).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const offline = await timed(store.put('k2', answer));
    expect(offline.error).toBeInstanceOf(StoreUnavailableError);
    expect(offline.ms).toBeLessThan(100);
    expect(await connection.ping()).toBe(false);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      msg: expect.stringContaining('redis connection lost'),
    });

    redis = await startRedis(port);
    const restarted = Date.now();
    let recovered = false;
    while (!recovered && Date.now() - restarted < 10_000) {
      recovered = await store.put('k3', answer).then(
        () => true,
        () => false,
      );
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).toBe(true);
    expect(Date.now() - restarted).toBeLessThan(5_000);
    expect(await store.get('k3')).toStrictEqual(answer);
    expect(await connection.ping()).toBe(true);
    expect(logger.lines).toContainEqual({ level: 'info', msg: 'redis connection restored' });
    // One outage, one warning: reconnection attempts do not flood the log.
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('fails a command that gets no answer from a frozen Redis, then works when it thaws', async () => {
    const connection = await connectRedis({
      url: `redis://127.0.0.1:${port}`,
      keyPrefix: 'outage:',
      commandTimeoutMs: 300,
    });
    closers.push(() => connection.close());
    const store = new RedisContextStore(connection, { ttlSeconds: 60 });
    await store.put('k4', answer);
    const server = redis;
    if (server === undefined) throw new Error('redis-server is not running');
    // A stopped process keeps its socket open: the half-open case that only a command timeout catches.
    server.kill('SIGSTOP');
    try {
      const frozen = await timed(store.get('k4'));
      expect(frozen.error).toBeInstanceOf(StoreUnavailableError);
      expect(frozen.ms).toBeLessThan(1_000);
    } finally {
      server.kill('SIGCONT');
    }
    expect(await store.get('k4')).toStrictEqual(answer);
  });
});
