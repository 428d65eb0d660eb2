import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchedTokenProvider } from '../../../src/platform/access-token.js';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  DEFAULT_SIMULATOR_TOKEN,
  type Simulator,
  startSimulator,
} from '../../../src/simulator/index.js';
import { redisTokenCache } from '../../../src/stores/redis.js';
import { type RedisCommands, RedisConnection } from '../../../src/stores/redis-connection.js';
import { waitFor } from '../../support/wait.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
let simulator: Simulator;
const connections: RedisConnection[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
});
afterAll(async () => {
  // Only this file's keys: the token and its renewal lock under each fleet's own prefix.
  for (const connection of connections) {
    await connection.del(`${connection.keyPrefix}platform-token`);
    await connection.del(`${connection.keyPrefix}platform-token:renewing`);
  }
  await Promise.all(connections.map((connection) => connection.close()));
  await simulator.close();
});

/** Two replicas: each its own Redis connection and token provider, one key prefix between them. */
async function fleet(size: number) {
  const keyPrefix = `test:token:${process.pid}:${randomBytes(4).toString('hex')}:`;
  return Promise.all(
    Array.from({ length: size }, async () => {
      const connection = await RedisConnection.connect({
        server: { kind: 'url', url: REDIS_URL },
        keyPrefix,
      });
      connections.push(connection);
      return new FetchedTokenProvider({
        openUrl: simulator.url,
        appId: DEFAULT_SIMULATOR_APP_ID,
        appKey: DEFAULT_SIMULATOR_APP_KEY,
        cache: redisTokenCache(connection),
      });
    }),
  );
}

const issued = () => Number(simulator.stats().tokensIssued ?? 0);

/** Two replicas' connections under one fresh prefix, and the key of their renewal lock. */
async function twoConnections() {
  const keyPrefix = `test:token-lock:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const [a, b] = await Promise.all([
    RedisConnection.connect({ server: { kind: 'url', url: REDIS_URL }, keyPrefix }),
    RedisConnection.connect({ server: { kind: 'url', url: REDIS_URL }, keyPrefix }),
  ]);
  connections.push(a, b);
  return { a, b, lockKey: `${keyPrefix}platform-token:renewing` };
}

/** The connection, except that its first command on `key` after `meanwhile(work)` runs `work` before returning. */
function interleaved(connection: RedisCommands, key: string) {
  let pending: (() => Promise<void>) | undefined;
  const after = async <T>(commandKey: string, result: Promise<T>): Promise<T> => {
    const value = await result;
    const work = commandKey === key ? pending : undefined;
    if (work) {
      pending = undefined;
      await work();
    }
    return value;
  };
  const wrapped: RedisCommands = {
    keyPrefix: connection.keyPrefix,
    get: (k) => after(k, connection.get(k)),
    set: (k, value, ttl, options) => after(k, connection.set(k, value, ttl, options)),
    del: (k) => after(k, connection.del(k)),
    delIfEquals: (k, value) => after(k, connection.delIfEquals(k, value)),
    setIfEquals: (guard, owner, k, value, ttl) =>
      after(k, connection.setIfEquals(guard, owner, k, value, ttl)),
    deleteStartingWith: (prefix) => after(prefix, connection.deleteStartingWith(prefix)),
  };
  return {
    connection: wrapped,
    meanwhile(work: () => Promise<void>) {
      pending = work;
    },
  };
}

describe('the platform token shared through Redis', () => {
  it('is fetched once for the whole fleet, however many callers ask at once', async () => {
    const before = issued();
    const replicas = await fleet(3);
    const tokens = await Promise.all(
      replicas.flatMap((replica) => Array.from({ length: 10 }, () => replica.getToken())),
    );
    expect(new Set(tokens).size).toBe(1);
    expect(issued() - before).toBe(1);
  });

  it('is renewed once for the whole fleet when the platform rejects it', async () => {
    const replicas = await fleet(3);
    const first = await replicas[0]?.getToken();
    await Promise.all(replicas.map((replica) => replica.getToken()));
    const before = issued();
    simulator.expireTokens();
    const renewed = await Promise.all(replicas.map((replica) => replica.renew(first ?? '')));
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]).not.toBe(first);
    expect(issued() - before).toBe(1);
  });
});

describe('the renewal lock', () => {
  it("released after it expired and another replica took it, stays the other replica's", async () => {
    const { a, b, lockKey } = await twoConnections();
    const releaseA = await redisTokenCache(a).lock(1_000);
    if (!releaseA) throw new Error('replica A did not get the free lock');
    await waitFor(async () => (await a.get(lockKey)) === undefined, { timeoutMs: 3_000, intervalMs: 20 });
    const releaseB = await redisTokenCache(b).lock(30_000);
    if (!releaseB) throw new Error('replica B did not get the expired lock');

    await releaseA();
    expect(await a.get(lockKey)).toBeDefined();
    expect(await redisTokenCache(a).lock(30_000)).toBeUndefined();
    await releaseB();
    expect(await a.get(lockKey)).toBeUndefined();
  });

  it("released while it expires and changes hands, leaves the new owner's lock", async () => {
    const { a, b, lockKey } = await twoConnections();
    const replicaA = interleaved(a, lockKey);
    const releaseA = await redisTokenCache(replicaA.connection).lock(30_000);
    if (!releaseA) throw new Error('replica A did not get the free lock');
    let releaseB: (() => Promise<void>) | undefined;
    // Right after the release's first command on the lock: A's lock expires and B takes it.
    replicaA.meanwhile(async () => {
      await b.del(lockKey);
      releaseB = await redisTokenCache(b).lock(30_000);
    });

    await releaseA();
    expect(releaseB).toBeDefined();
    expect(await a.get(lockKey)).toBeDefined();
    await releaseB?.();
    expect(await a.get(lockKey)).toBeUndefined();
  });
});
