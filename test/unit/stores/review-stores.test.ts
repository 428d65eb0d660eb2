// What only one of the review loop's stores promises, in memory and in the real Redis at
// 127.0.0.1:6379 (a key namespace of this run's own, cleaned up after): retention on an injected
// clock, the Redis lock and index. What every store promises is in contract.test.ts.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import {
  QUESTION_LINK_RETENTION_SECONDS,
  REVIEW_RETENTION_SECONDS,
  ReviewCardBusyError,
  type ReviewStore,
} from '../../../src/review/stores.js';
import type { ReviewCard } from '../../../src/review/types.js';
import { memoryNamespaces } from '../../../src/stores/namespace.js';
import { redisNamespaces } from '../../../src/stores/redis.js';
import { RedisConnection } from '../../../src/stores/redis-connection.js';
import { MemoryReviewStore } from '../../../src/stores/review-memory.js';
import { RedisReviewStore } from '../../../src/stores/review-redis.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';
import { memoryOperatorCache } from '../../support/memory-stores.js';
import {
  deleteKeysWithPrefix,
  freezeRedis,
  startRedisOnFreePort,
  stopRedis,
  thawRedis,
} from '../../support/redis-server.js';
import { entrySnapshot, questionLink, reviewCard } from '../../support/review-values.js';

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

const newId = (): string => `doc:${randomBytes(4).toString('hex')}`;

const increment = (id: string) => async (current: ReviewCard | undefined) => {
  const count = (current?.count ?? 0) + 1;
  // A change that waits on Slack: the others must wait for it, not read the old count meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 2));
  return { card: reviewCard(id, count), result: count };
};

function manualClock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

/** Milliseconds until the promise settles, with its rejection, if any. */
async function _timed(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  try {
    await promise;
    return { ms: Date.now() - started, error: undefined };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

describe('review cards in memory', () => {
  it('forgets a card REVIEW_RETENTION_SECONDS after its last change, and holds at most maxEntries', async () => {
    const clock = manualClock();
    const store = new MemoryReviewStore({ maxEntries: 2, now: clock.now });
    await store.change('doc:a', async () => ({ card: reviewCard('doc:a', 1), result: undefined }));
    clock.advance(REVIEW_RETENTION_SECONDS * 1000 - 1_000);
    await store.change('doc:a', increment('doc:a'));
    clock.advance(2_000);
    expect((await store.get('doc:a'))?.count).toBe(2);
    clock.advance(REVIEW_RETENTION_SECONDS * 1000);
    expect(await store.get('doc:a')).toBeUndefined();

    for (const id of ['doc:b', 'doc:c', 'doc:d']) {
      await store.change(id, async () => ({ card: reviewCard(id, 1), result: undefined }));
    }
    expect(await store.get('doc:b')).toBeUndefined();
    expect(await store.get('doc:d')).toEqual(reviewCard('doc:d', 1));
  });

  it('runs changes of different cards side by side, and one card in order', async () => {
    const store = new MemoryReviewStore({ maxEntries: 10 });
    const order: string[] = [];
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = store.change('doc:slow', async () => {
      await gate;
      order.push('slow');
      return { result: undefined };
    });
    const behind = store.change('doc:slow', async () => {
      order.push('behind');
      return { result: undefined };
    });
    await store.change('doc:other', async () => {
      order.push('other');
      return { result: undefined };
    });
    release();
    await Promise.all([slow, behind]);
    expect(order).toEqual(['other', 'slow', 'behind']);
  });
});

/** A card's lock, hash-tagged with the card's key so a cluster keeps both in one slot. */
const lockKeyOf = (id: string): string => `${prefix}review-lock:{${prefix}review-card:${id}}`;

describe('review cards in Redis', () => {
  it('holds the lock with its own token and a TTL while a change runs, and removes it after', async () => {
    const id = newId();
    const lockKey = lockKeyOf(id);
    const store = new RedisReviewStore(replicaA, { lockTtlSeconds: 7 });
    let during: { owner: string | null; ttlMs: number } | undefined;
    await store.change(id, async () => {
      during = { owner: await raw.get(lockKey), ttlMs: await raw.pTTL(lockKey) };
      return { card: reviewCard(id, 1), result: undefined };
    });
    expect(during?.owner).toMatch(/^[\w-]{8,}$/);
    expect(during?.ttlMs).toBeGreaterThan(0);
    expect(during?.ttlMs).toBeLessThanOrEqual(7_000);
    expect(await raw.exists(lockKey)).toBe(0);
    // The card itself is kept for the retention period from its last change.
    const cardTtl = await raw.ttl(`${prefix}review-card:${id}`);
    expect(cardTtl).toBeGreaterThan(REVIEW_RETENTION_SECONDS - 60);
    expect(cardTtl).toBeLessThanOrEqual(REVIEW_RETENTION_SECONDS);
  });

  it('takes over a lock whose owner died, once it lapses', async () => {
    const id = newId();
    await raw.set(lockKeyOf(id), 'dead-replica', { PX: 300 });
    const store = new RedisReviewStore(replicaA, { lockWaitMs: 5_000, lockPollMs: 20 });
    await expect(store.change(id, increment(id))).resolves.toBe(1);
    expect(await raw.exists(lockKeyOf(id))).toBe(0);
  });

  it('reads a corrupt or misshapen card as none, and a change replaces it', async () => {
    const store = new RedisReviewStore(replicaA);
    const broken = newId();
    await raw.set(`${prefix}review-card:${broken}`, '{"id": 1');
    expect(await store.get(broken)).toBeUndefined();
    const misshapen = newId();
    await raw.set(
      `${prefix}review-card:${misshapen}`,
      JSON.stringify({ ...reviewCard(misshapen, 1), count: 'two' }),
    );
    expect(await store.get(misshapen)).toBeUndefined();
    const seen: (ReviewCard | undefined)[] = [];
    await store.change(broken, async (current) => {
      seen.push(current);
      return { card: reviewCard(broken, 1), result: undefined };
    });
    expect(seen).toEqual([undefined]);
    expect(await store.get(broken)).toEqual(reviewCard(broken, 1));
  });

  it('refuses nonsense lock settings when built', () => {
    expect(() => new RedisReviewStore(replicaA, { lockTtlSeconds: 0 })).toThrow(RangeError);
    expect(() => new RedisReviewStore(replicaA, { lockTtlSeconds: 1.5 })).toThrow(RangeError);
    expect(() => new RedisReviewStore(replicaA, { lockPollMs: 0 })).toThrow(RangeError);
    expect(() => new RedisReviewStore(replicaA, { lockWaitMs: -1 })).toThrow(RangeError);
  });
});

/** The review loop's namespaces as the memory stores declare them. */
const inMemory = (bounds: { maxEntries: number; now?: () => number }) =>
  declaredNamespaces(memoryNamespaces(bounds), 3600);

describe('entry snapshots and operators in memory', () => {
  it('expires an operator group after the TTL it was set with', async () => {
    const clock = manualClock();
    const cache = memoryOperatorCache({ now: clock.now });
    await cache.set('S1', { members: ['U1'], fetchedAt: 1 }, 60);
    clock.advance(59_000);
    expect(await cache.get('S1')).toEqual({ members: ['U1'], fetchedAt: 1 });
    clock.advance(2_000);
    expect(await cache.get('S1')).toBeUndefined();
    // lru-cache would read 0 as "never expires".
    await expect(cache.set('S1', { members: [], fetchedAt: 1 }, 0)).rejects.toBeInstanceOf(RangeError);
  });

  it('hands out copies: changing what was read changes nothing stored', async () => {
    const cache = memoryOperatorCache();
    await cache.set('S1', { members: ['U1'], fetchedAt: 1 }, 60);
    (await cache.get('S1'))?.members.push('U666');
    expect(await cache.get('S1')).toEqual({ members: ['U1'], fetchedAt: 1 });
    const snapshots = inMemory({ maxEntries: 10 }).entrySnapshots;
    const original = entrySnapshot('d1');
    await snapshots.put(original);
    original.answerHtml = '<p>changed after put</p>';
    expect(await snapshots.get('d1')).toEqual(entrySnapshot('d1'));
  });

  it('keeps snapshots REVIEW_RETENTION_SECONDS, at most maxEntries of them', async () => {
    const clock = manualClock();
    const store = inMemory({ maxEntries: 2, now: clock.now }).entrySnapshots;
    await store.put(entrySnapshot('d1'));
    clock.advance(REVIEW_RETENTION_SECONDS * 1000 + 1_000);
    expect(await store.get('d1')).toBeUndefined();
    for (const docId of ['d2', 'd3', 'd4']) await store.put(entrySnapshot(docId));
    expect(await store.get('d2')).toBeUndefined();
    expect(await store.get('d4')).toEqual(entrySnapshot('d4'));
    expect(() => inMemory({ maxEntries: 0 })).toThrow(RangeError);
  });
});

/** The operators' cache, entry snapshots and question links as the Redis stores declare them. */
const inRedis = (redis: RedisConnection) => declaredNamespaces(redisNamespaces(redis), 3600);
const operatorCache = (redis: RedisConnection) => inRedis(redis).operators;

describe('entry snapshots and operators in Redis', () => {
  it('keeps a docId as it is in its key, for REVIEW_RETENTION_SECONDS', async () => {
    const docId = `doc ${randomBytes(4).toString('hex')}:é*`;
    await inRedis(replicaA).entrySnapshots.put(entrySnapshot(docId));
    const ttl = await raw.ttl(`${prefix}kb-entry:${docId}`);
    expect(ttl).toBeGreaterThan(REVIEW_RETENTION_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(REVIEW_RETENTION_SECONDS);
  });

  it('passes the operator TTL through', async () => {
    const group = `S${randomBytes(4).toString('hex').toUpperCase()}`;
    await operatorCache(replicaA).set(group, { members: ['U1'], fetchedAt: 7 }, 60);
    const ttl = await raw.ttl(`${prefix}operators:${group}`);
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('reads corrupt or misshapen values as none', async () => {
    const docId = `doc-${randomBytes(4).toString('hex')}`;
    await raw.set(`${prefix}kb-entry:${docId}`, JSON.stringify({ docId, questionTitle: 3 }));
    expect(await inRedis(replicaB).entrySnapshots.get(docId)).toBeUndefined();
    const group = `S${randomBytes(4).toString('hex').toUpperCase()}`;
    await raw.set(`${prefix}operators:${group}`, JSON.stringify({ members: 'U1', fetchedAt: 7 }));
    expect(await operatorCache(replicaB).get(group)).toBeUndefined();
    await raw.set(`${prefix}operators:${group}`, 'not json');
    expect(await operatorCache(replicaB).get(group)).toBeUndefined();
  });
});

describe('question links in memory', () => {
  it('keeps a link QUESTION_LINK_RETENTION_SECONDS, at most maxEntries, and hands out copies', async () => {
    const clock = manualClock();
    const store = inMemory({ maxEntries: 2, now: clock.now }).questionLinks;
    const original = questionLink('doc-wifi');
    await store.put('1:a', original);
    original.docId = 'changed after put';
    const read = await store.get('1:a');
    expect(read).toEqual(questionLink('doc-wifi'));
    if (read) read.docId = 'changed after get';
    expect(await store.get('1:a')).toEqual(questionLink('doc-wifi'));
    clock.advance(QUESTION_LINK_RETENTION_SECONDS * 1000 - 1_000);
    expect(await store.get('1:a')).toEqual(questionLink('doc-wifi'));
    clock.advance(2_000);
    expect(await store.get('1:a')).toBeUndefined();
    for (const key of ['1:b', '1:c', '1:d']) await store.put(key, questionLink(key));
    expect(await store.get('1:b')).toBeUndefined();
    expect(await store.get('1:d')).toEqual(questionLink('1:d'));
    expect(() => inMemory({ maxEntries: 0 })).toThrow(RangeError);
  });
});

describe('question links in Redis', () => {
  it('keeps a link under its key for QUESTION_LINK_RETENTION_SECONDS, and reads a corrupt one as none', async () => {
    const key = `1:${randomBytes(16).toString('hex')}`;
    await inRedis(replicaA).questionLinks.put(key, questionLink('doc-wifi'));
    const ttl = await raw.ttl(`${prefix}q-link:${key}`);
    expect(ttl).toBeGreaterThan(QUESTION_LINK_RETENTION_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(QUESTION_LINK_RETENTION_SECONDS);
    await raw.set(`${prefix}q-link:${key}`, JSON.stringify({ ...questionLink('x'), docId: '' }));
    expect(await inRedis(replicaB).questionLinks.get(key)).toBeUndefined();
    await raw.set(`${prefix}q-link:${key}`, 'not json');
    expect(await inRedis(replicaB).questionLinks.get(key)).toBeUndefined();
  });
});

describe('review cards while Redis is not answering', () => {
  let server: ChildProcess | undefined;
  let connection: RedisConnection | undefined;

  afterAll(async () => {
    thawRedis(server);
    await connection?.close();
    await stopRedis(server);
  });

  it('rejects a change with StoreUnavailableError, without running it', async () => {
    const started = await startRedisOnFreePort();
    server = started.child;
    connection = await RedisConnection.connect({
      server: { kind: 'url', url: `redis://127.0.0.1:${started.port}` },
      keyPrefix: 'review-outage:',
      commandTimeoutMs: 200,
    });
    const store = new RedisReviewStore(connection, { lockWaitMs: 1_000 });
    freezeRedis(server);
    try {
      // The first command left unanswered opens the circuit.
      await expect(connection.get('probe')).rejects.toBeInstanceOf(StoreUnavailableError);
      let ran = false;
      await expect(
        store.change('doc:x', async () => {
          ran = true;
          return { result: undefined };
        }),
      ).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(ran).toBe(false);
    } finally {
      thawRedis(server);
    }
  });
});

describe('a change that outlives its lock', () => {
  it('does not overwrite what the replica that took the lapsed lock wrote', async () => {
    const redis = createClient({ url: 'redis://127.0.0.1:6379' });
    await redis.connect();
    const prefixForTest = `test:lapsed:${process.pid}:${Math.random().toString(36).slice(2)}:`;
    const slowReplica = await RedisConnection.connect({
      server: { kind: 'url', url: 'redis://127.0.0.1:6379' },
      keyPrefix: prefixForTest,
    });
    const fastReplica = await RedisConnection.connect({
      server: { kind: 'url', url: 'redis://127.0.0.1:6379' },
      keyPrefix: prefixForTest,
    });
    try {
      const slow = new RedisReviewStore(slowReplica, { lockTtlSeconds: 1, lockPollMs: 20 });
      const fast = new RedisReviewStore(fastReplica, { lockWaitMs: 5_000, lockPollMs: 20 });
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let slowHasLock: () => void = () => {};
      const slowLocked = new Promise<void>((resolve) => {
        slowHasLock = resolve;
      });
      const slowChange = slow.change('doc:x', async () => {
        slowHasLock();
        await held;
        return { card: reviewCard('doc:x', 99), result: 'slow' };
      });
      // The slow replica holds the lock first: started at once, the fast one's SET could reach Redis
      // before it on a busy machine, write, release, and leave the lock to a slow change not yet lapsed.
      await slowLocked;
      // The slow change's lock lapses after a second; the fast replica takes it and writes count 1.
      await expect(
        fast.change('doc:x', async () => ({ card: reviewCard('doc:x', 1), result: 'fast' })),
      ).resolves.toBe('fast');
      release();
      await expect(slowChange).rejects.toBeInstanceOf(ReviewCardBusyError);
      expect(JSON.parse(String(await redis.get(`${prefixForTest}review-card:doc:x`)))).toMatchObject({
        count: 1,
      });
    } finally {
      await deleteKeysWithPrefix(prefixForTest);
      await slowReplica.close();
      await fastReplica.close();
      await redis.close();
    }
  });
});

async function put(store: ReviewStore, value: ReviewCard): Promise<void> {
  await store.change(value.id, async () => ({ card: value, result: undefined }));
}

describe('open review cards in memory', () => {
  it('leaves out a card past its retention, and a listing makes no card recent', async () => {
    const clock = manualClock();
    const store = new MemoryReviewStore({ maxEntries: 2, now: clock.now });
    await put(store, reviewCard('doc:old', 1, { count: 7 }));
    await put(store, reviewCard('doc:new', 1, { count: 1 }));
    expect((await store.openCards('disliked', 5)).cards.map((open) => open.id)).toEqual([
      'doc:old',
      'doc:new',
    ]);
    // Listed first, yet still the least recently used: a third card pushes it out.
    await put(store, reviewCard('doc:third', 1, { count: 2 }));
    expect((await store.openCards('disliked', 5)).cards.map((open) => open.id)).toEqual([
      'doc:third',
      'doc:new',
    ]);
    clock.advance(REVIEW_RETENTION_SECONDS * 1000 + 1_000);
    expect(await store.openCards('disliked', 5)).toEqual({ total: 0, cards: [] });
  });
});

describe('open review cards in Redis', () => {
  it('mends its index: a card that expired, or whose handling was not indexed, is dropped from it', async () => {
    const keyPrefix = `${prefix}open-${randomBytes(4).toString('hex')}:`;
    const connection = await RedisConnection.connect({ server: { kind: 'url', url: REDIS_URL }, keyPrefix });
    try {
      const store = new RedisReviewStore(connection);
      await put(store, reviewCard('doc:kept', 1, { count: 2 }));
      await put(store, reviewCard('doc:gone', 1, { count: 8 }));
      await put(store, reviewCard('doc:handled', 1, { count: 6 }));
      const indexKey = `${keyPrefix}review-open:disliked`;
      // The card expired; the handled one was written while its index update was lost.
      await raw.del(`${keyPrefix}review-card:doc:gone`);
      await raw.set(
        `${keyPrefix}review-card:doc:handled`,
        JSON.stringify(reviewCard('doc:handled', 1, { count: 6, status: 'fixed' })),
      );
      expect(await raw.ttl(indexKey)).toBeGreaterThan(REVIEW_RETENTION_SECONDS - 60);

      const open = await store.openCards('disliked', 1);
      expect(open.cards.map((listed) => listed.id)).toEqual(['doc:kept']);
      expect(open.total).toBe(1);
      expect(await raw.zRange(indexKey, 0, -1)).toEqual(['doc:kept']);
    } finally {
      await connection.close();
    }
  });
});
