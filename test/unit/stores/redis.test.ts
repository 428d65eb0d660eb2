// What only the Redis stores promise (keys, TTLs, corrupt values, the connection), against the real
// Redis at 127.0.0.1:6379, in a key namespace of its own that it cleans up after; what every store
// promises is in contract.test.ts.
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import { KeptOnceStore, KeptRatingStore, keptContexts } from '../../../src/stores/kept-stores.js';
import { redisNamespaces, redisStrings } from '../../../src/stores/redis.js';
import type { RedisCommands } from '../../../src/stores/redis-connection.js';
import { RedisConnection } from '../../../src/stores/redis-connection.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';
import { answerContext } from '../../support/answer-context.js';
import { deleteKeysWithPrefix } from '../../support/redis-server.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `test:${process.pid}:${randomBytes(4).toString('hex')}:`;

const raw = createClient({ url: REDIS_URL });
// Two connections with the same prefix stand for two replicas of the gateway.
let replicaA: RedisConnection;
let replicaB: RedisConnection;

beforeAll(async () => {
  await raw.connect();
  replicaA = await RedisConnection.connect({ server: { kind: 'url', url: REDIS_URL }, keyPrefix: prefix });
  replicaB = await RedisConnection.connect({ server: { kind: 'url', url: REDIS_URL }, keyPrefix: prefix });
});

afterAll(async () => {
  // Only this run's keys: the Redis is shared with whoever else uses it.
  await deleteKeysWithPrefix(prefix);
  await replicaA?.close();
  await replicaB?.close();
  await raw.close();
});

const context = answerContext;

const contextsOn = (redis: RedisCommands) => keptContexts(redisNamespaces(redis), 60);
const claimsOn = (redis: RedisCommands) => new KeptOnceStore(redisStrings(redis, 'once:'));
const ratingsOn = (redis: RedisCommands) => new KeptRatingStore(redisStrings(redis, 'rated:'));

function uniqueKey(): string {
  return randomBytes(6).toString('base64url');
}

describe('contexts in Redis', () => {
  it('stores under the prefix with the configured TTL', async () => {
    const store = contextsOn(replicaA);
    const key = uniqueKey();
    await store.put(key, context());
    const pttl = await raw.pTTL(`${prefix}ctx:${key}`);
    expect(pttl).toBeGreaterThan(58_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
  });

  it.each([
    ['not JSON', '{"cid":'],
    ['JSON of the wrong shape', JSON.stringify({ cid: 7 })],
    ['JSON null', 'null'],
  ])('reads a stored value that is %s as a miss', async (_name, value) => {
    const key = uniqueKey();
    await raw.set(`${prefix}ctx:${key}`, value, { expiration: { type: 'EX', value: 60 } });
    expect(await contextsOn(replicaA).get(key)).toBeUndefined();
  });
});

describe('claims in Redis', () => {
  it('sets the claim TTL', async () => {
    const key = uniqueKey();
    await claimsOn(replicaA).claim(key, 30);
    const ttl = await raw.ttl(`${prefix}once:${key}`);
    expect(ttl).toBeGreaterThan(28);
    expect(ttl).toBeLessThanOrEqual(30);
  });

  it('keeps a short claim for longer once its work is done, for every replica', async () => {
    const key = uniqueKey();
    expect(await claimsOn(replicaA).claim(key, 5)).toBe(true);
    await claimsOn(replicaA).keep(key, 7200);
    expect(await raw.ttl(`${prefix}once:${key}`)).toBeGreaterThan(7000);
    expect(await claimsOn(replicaB).claim(key, 5)).toBe(false);
  });
});

describe('ratings in Redis', () => {
  it('sets the rating TTL', async () => {
    const store = ratingsOn(replicaA);
    const key = uniqueKey();
    expect(await store.recordOnce(key, 2, 60)).toEqual({ recorded: true, rating: 2 });
    const ttl = await raw.ttl(`${prefix}rated:${key}`);
    expect(ttl).toBeGreaterThan(58);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('reads a corrupt rating as none and lets a new rating replace it', async () => {
    const store = ratingsOn(replicaA);
    const key = uniqueKey();
    await raw.set(`${prefix}rated:${key}`, '3', { expiration: { type: 'EX', value: 60 } });
    expect(await store.get(key)).toBeUndefined();
    expect(await store.recordOnce(key, 1, 60)).toEqual({ recorded: true, rating: 1 });
    expect(await store.get(key)).toBe(1);
  });
});

describe('the name cache in Redis', () => {
  it('sets the name TTL and reads a corrupt one as a miss', async () => {
    const cache = declaredNamespaces(redisNamespaces(replicaA), 3600).names;
    const userId = `U${uniqueKey()}`;
    await cache.set(userId, 'Ada "the first" Lovelace', 300);
    const ttl = await raw.ttl(`${prefix}name:${userId}`);
    expect(ttl).toBeGreaterThan(298);
    expect(ttl).toBeLessThanOrEqual(300);
    await raw.set(`${prefix}name:${userId}`, '{', { expiration: { type: 'EX', value: 60 } });
    expect(await cache.get(userId)).toBeUndefined();
  });
});

describe('RedisConnection', () => {
  it('answers ping while connected', async () => {
    expect(await replicaA.ping()).toBe(true);
  });

  it('rejects fast with StoreUnavailableError when nothing listens', async () => {
    const started = Date.now();
    const error = await RedisConnection.connect({
      server: { kind: 'url', url: 'redis://127.0.0.1:1' },
      keyPrefix: prefix,
      connectTimeoutMs: 500,
    }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(2_000);
    assert.instanceOf(error, StoreUnavailableError);
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain('127.0.0.1:1');
    expect(error.cause).toBeDefined();
  });

  it('keeps a password in the URL out of the error message', async () => {
    const error = await RedisConnection.connect({
      server: { kind: 'url', url: 'redis://user:hunter2@127.0.0.1:1' },
      keyPrefix: prefix,
      connectTimeoutMs: 200,
    }).catch((caught: unknown) => caught);
    assert.instanceOf(error, StoreUnavailableError);
    expect(error.message).not.toContain('hunter2');
  });

  it('deletes a key only while it holds the given value', async () => {
    const key = `${prefix}lock:${uniqueKey()}`;
    await raw.set(key, 'theirs', { expiration: { type: 'EX', value: 60 } });
    expect(await replicaA.delIfEquals(key, 'mine')).toBe(false);
    expect(await raw.get(key)).toBe('theirs');
    expect(await replicaA.delIfEquals(key, 'theirs')).toBe(true);
    expect(await raw.exists(key)).toBe(0);
    expect(await replicaA.delIfEquals(key, 'theirs')).toBe(false);
  });

  it('keeps serving after an error reply: a Redis that answers is not down', async () => {
    const key = `${prefix}list:${uniqueKey()}`;
    await raw.lPush(key, 'not a string');
    await raw.expire(key, 60);
    await expect(replicaA.get(key)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await replicaA.ping()).toBe(true);
    await replicaA.del(key);
    expect(await raw.exists(key)).toBe(0);
  });

  it('fails commands with StoreUnavailableError after close, and ping says false', async () => {
    const connection = await RedisConnection.connect({
      server: { kind: 'url', url: REDIS_URL },
      keyPrefix: prefix,
    });
    await connection.close();
    await connection.close();
    await expect(connection.get(`${prefix}anything`)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await connection.ping()).toBe(false);
  });
});
