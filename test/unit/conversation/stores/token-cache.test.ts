import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectRedis,
  type RedisConnection,
  RedisTokenCache,
} from '../../../../src/conversation/stores/redis.js';
import { FetchedTokenProvider } from '../../../../src/platform/access-token.js';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  DEFAULT_SIMULATOR_TOKEN,
  type Simulator,
  startSimulator,
} from '../../../../src/simulator/index.js';

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
      const connection = await connectRedis({ url: REDIS_URL, keyPrefix });
      connections.push(connection);
      return new FetchedTokenProvider({
        openUrl: simulator.url,
        appId: DEFAULT_SIMULATOR_APP_ID,
        appKey: DEFAULT_SIMULATOR_APP_KEY,
        cache: new RedisTokenCache(connection),
      });
    }),
  );
}

const issued = () => Number(simulator.stats().tokensIssued ?? 0);

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
