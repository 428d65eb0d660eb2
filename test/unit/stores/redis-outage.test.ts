// Redis going away and coming back, on a redis-server of this file's own that it stops and starts.
import type { ChildProcess } from 'node:child_process';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import type { AnswerContext } from '../../../src/conversation/types.js';
import { createStores } from '../../../src/stores/index.js';
import { keptContexts } from '../../../src/stores/kept-stores.js';
import { redisNamespaces } from '../../../src/stores/redis.js';
import { RedisConnection, type StoreLogger } from '../../../src/stores/redis-connection.js';
import { freePort, freezeRedis, startRedis, stopRedis, thawRedis } from '../../support/redis-server.js';
import { waitFor } from '../../support/wait.js';

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
  placement: undefined,
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
    thawRedis(redis);
    for (const close of closers) await close();
    await stopRedis(redis);
  });

  function running(): ChildProcess {
    if (redis === undefined) throw new Error('redis-server is not running');
    return redis;
  }

  it('waits at start for a Redis that comes up within the budget', async () => {
    const connecting = RedisConnection.connect({
      server: { kind: 'url', url: `redis://127.0.0.1:${port}` },
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
    const connection = await RedisConnection.connect({
      server: { kind: 'url', url: `redis://127.0.0.1:${port}` },
      keyPrefix: 'outage:',
      logger,
    });
    closers.push(() => connection.close());
    const store = keptContexts(redisNamespaces(connection), 60);
    await store.put('k1', answer);
    expect(await store.get('k1')).toStrictEqual(answer);

    await stopRedis(redis);
    redis = undefined;

    // Right after the kill: the command may meet the dying socket or the offline client.
    const first = await timed(store.get('k1'));
    expect(first.error).toBeInstanceOf(StoreUnavailableError);
    expect(first.ms).toBeLessThan(1_000);
    // Once the connection says it is lost (the breaker open), calls fail at once.
    await waitFor(() => logger.lines.some((line) => line.msg.includes('redis connection lost')), {
      timeoutMs: 5_000,
    });
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

  it('fails the first command a frozen Redis leaves unanswered, skips the rest at once, recovers on thaw', async () => {
    const logger = recordingLogger();
    const connection = await RedisConnection.connect({
      server: { kind: 'url', url: `redis://127.0.0.1:${port}` },
      keyPrefix: 'outage:',
      commandTimeoutMs: 300,
      logger,
    });
    closers.push(() => connection.close());
    const store = keptContexts(redisNamespaces(connection), 60);
    await store.put('k4', answer);
    const server = running();
    // A stopped process keeps its socket open: the half-open case that only a command timeout catches.
    freezeRedis(server);
    try {
      const first = await timed(store.get('k4'));
      expect(first.error).toBeInstanceOf(StoreUnavailableError);
      expect(first.ms).toBeGreaterThanOrEqual(250);
      expect(first.ms).toBeLessThan(1_000);
      // The circuit is open: no call waits for the frozen server any more.
      const skipped = await timed(store.put('k5', answer));
      expect(skipped.error).toBeInstanceOf(StoreUnavailableError);
      expect(skipped.ms).toBeLessThan(50);
      const ping = await timed(connection.ping());
      expect(ping.ms).toBeLessThan(50);
      expect(await connection.ping()).toBe(false);
    } finally {
      thawRedis(server);
    }
    // The probe sent when the circuit opened is answered as soon as the server runs again.
    const thawed = Date.now();
    await waitFor(() => connection.ping(), { timeoutMs: 2_000, intervalMs: 5 });
    expect(Date.now() - thawed).toBeLessThan(1_000);
    expect(await store.get('k4')).toStrictEqual(answer);
    expect(logger.lines).toEqual([
      { level: 'warn', msg: expect.stringContaining('not answering') },
      { level: 'info', msg: 'redis connection restored' },
    ]);
  });

  it('closes at once while Redis is frozen, without waiting for answers that will not come', async () => {
    const connection = await RedisConnection.connect({
      server: { kind: 'url', url: `redis://127.0.0.1:${port}` },
      keyPrefix: 'outage:',
    });
    closers.push(() => connection.close());
    const server = running();
    freezeRedis(server);
    try {
      await expect(connection.get('k6')).rejects.toBeInstanceOf(StoreUnavailableError);
      const closing = await timed(connection.close());
      expect(closing.error).toBeUndefined();
      expect(closing.ms).toBeLessThan(200);
    } finally {
      thawRedis(server);
    }
  });

  it("decides deliveries in process while Redis is frozen, and /readyz's ping says so at once", async () => {
    const stores = await createStores({
      state: {
        kind: 'redis',
        server: { kind: 'url', url: `redis://127.0.0.1:${port}` },
        keyPrefix: 'outage:',
      },
      maxEntries: 100,
      ttlSeconds: 60,
    });
    closers.push(() => stores.close());
    expect(await stores.deliveries.claim('msg:before', 60)).toBe(true);
    const server = running();
    freezeRedis(server);
    try {
      const ping = await timed(stores.ping());
      expect(ping.ms).toBeLessThan(1_000);
      expect(await stores.ping()).toBe(false);
      expect(await stores.deliveries.claim('msg:before', 60)).toBe(false);
      expect(await stores.deliveries.claim('msg:during', 60)).toBe(true);
      expect(await stores.deliveries.claim('msg:during', 60)).toBe(false);
    } finally {
      thawRedis(server);
    }
    await waitFor(() => stores.ping(), { timeoutMs: 2_000, intervalMs: 5 });
    expect(await stores.deliveries.claim('msg:during', 60)).toBe(false);
  });

  it('refuses tick claims while Redis is frozen instead of deciding them in process like deliveries', async () => {
    const stores = await createStores({
      state: {
        kind: 'redis',
        server: { kind: 'url', url: `redis://127.0.0.1:${port}` },
        keyPrefix: 'outage:',
      },
      maxEntries: 100,
      ttlSeconds: 60,
    });
    closers.push(() => stores.close());
    expect(await stores.ticks.claim('digest:C1:before', 60)).toBe(true);
    const server = running();
    freezeRedis(server);
    try {
      await expect(stores.ticks.claim('digest:C1:during', 60)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(stores.ticks.claim('digest:C1:during', 60)).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      thawRedis(server);
    }
    await waitFor(() => stores.ping(), { timeoutMs: 2_000, intervalMs: 5 });
    // The claim sent to the frozen server may land when it thaws: that tick is then posted by no one,
    // which is allowed (at most once). Claims work again as before.
    expect(await stores.ticks.claim('digest:C1:after', 60)).toBe(true);
    expect(await stores.ticks.claim('digest:C1:after', 60)).toBe(false);
    expect(await stores.ticks.claim('digest:C1:before', 60)).toBe(false);
  });

  it('sends its scripts by EVALSHA, and by EVAL again once Redis has forgotten them', async () => {
    const connection = await RedisConnection.connect({
      server: { kind: 'url', url: `redis://127.0.0.1:${port}` },
      keyPrefix: 'outage:',
    });
    closers.push(() => connection.close());
    // A client of the test's own server only: SCRIPT FLUSH and CONFIG RESETSTAT touch no one else.
    const raw = createClient({ url: `redis://127.0.0.1:${port}` });
    await raw.connect();
    closers.push(() => raw.close());
    await raw.scriptFlush();
    await raw.configResetStat();
    const calls = async (command: string) => {
      const stats = await raw.info('commandstats');
      return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
    };

    await raw.set('outage:lock', 'mine');
    expect(await connection.delIfEquals('outage:lock', 'theirs')).toBe(false);
    expect(await connection.delIfEquals('outage:lock', 'mine')).toBe(true);
    // The first call met NOSCRIPT and was sent again with the script's text; the second by hash alone.
    expect({ evalsha: await calls('evalsha'), eval: await calls('eval') }).toEqual({ evalsha: 2, eval: 1 });
    await raw.scriptFlush();
    await raw.set('outage:lock', 'mine');
    expect(await connection.delIfEquals('outage:lock', 'mine')).toBe(true);
    expect({ evalsha: await calls('evalsha'), eval: await calls('eval') }).toEqual({ evalsha: 3, eval: 2 });
  });
});
