// Every store the app needs, one set per process: Redis when a URL is configured (several replicas),
// memory otherwise. Each layer declares the stores it uses beside itself; this folder implements them.
import type { ContextStore, RatingStore } from '../conversation/stores.js';
import type { TokenCache } from '../platform/access-token.js';
import type { EntrySnapshotStore, ReviewStore } from '../review/stores.js';
import type { NameCache, OnceStore, OperatorCache, TickClaims } from '../slack/handling/stores.js';
import { FallbackOnceStore } from './fallback-once-store.js';
import { MemoryContextStore, MemoryNameCache, MemoryOnceStore, MemoryRatingStore } from './memory.js';
import {
  RedisContextStore,
  RedisNameCache,
  RedisOnceStore,
  RedisRatingStore,
  RedisTickClaims,
  RedisTokenCache,
} from './redis.js';
import { RedisConnection, type StoreLogger } from './redis-connection.js';
import { MemoryEntrySnapshotStore, MemoryOperatorCache, MemoryReviewStore } from './review-memory.js';
import { RedisEntrySnapshotStore, RedisOperatorCache, RedisReviewStore } from './review-redis.js';

export interface StoresOptions {
  /** Unset: in-memory stores, fit for one replica only. */
  redisUrl?: string;
  /** Put before every Redis key. */
  keyPrefix?: string;
  /** Cap of each in-memory store, and of a process's own memory of its deliveries with Redis. */
  maxEntries: number;
  /** Lifetime of an answer context. */
  ttlSeconds: number;
  logger?: StoreLogger;
  /** How long start may wait for Redis before it fails. */
  connectTimeoutMs?: number;
}

export interface Stores {
  contexts: ContextStore;
  /**
   * Slack deliveries seen, so a retried or duplicated one is answered once. With Redis, each process
   * also remembers its own, so while Redis is down a claim is still decided, for that process alone.
   */
  deliveries: OnceStore;
  /**
   * Threads the app is answering. Apart from the deliveries: in one bounded store a busy workspace's
   * deliveries would evict the threads (follow-ups then go unheard) and the reverse.
   */
  threads: OnceStore;
  /**
   * Scheduled ticks (the digest), claimed once per fleet. Apart from the deliveries, and without their
   * in-process fallback: a tick every replica decided alone would be posted by every replica.
   */
  ticks: TickClaims;
  ratings: RatingStore;
  names: NameCache;
  /** Review cards, changed one at a time across replicas. */
  reviewCards: ReviewStore;
  /** What the robot last answered from each knowledge entry (what an edit is prefilled from). */
  entrySnapshots: EntrySnapshotStore;
  /** The operators' user group members. */
  operators: OperatorCache;
  /** The platform token shared by all replicas; undefined in memory (one process, nothing to share). */
  tokenCache: TokenCache | undefined;
  kind: 'memory' | 'redis' | 'sqlite';
  /** For readiness probes: false while the backend is unreachable. */
  ping(): Promise<boolean>;
  /** One close for the whole set: with Redis the stores share one connection, so none closes alone. */
  close(): Promise<void>;
}

const DEFAULT_KEY_PREFIX = 'cs-slack-gateway:';
/**
 * In one process each tick is claimed once anyway (the schedule never repeats an occurrence): the
 * memory only has to outlast the ticks in flight.
 */
const MAX_TICKS_REMEMBERED = 1_000;

/** Rejects with StoreUnavailableError when Redis is configured but cannot be reached at start. */
export async function createStores(options: StoresOptions): Promise<Stores> {
  if (options.redisUrl === undefined) {
    const bounds = { maxEntries: options.maxEntries };
    const stores = {
      contexts: new MemoryContextStore({ ...bounds, ttlSeconds: options.ttlSeconds }),
      deliveries: new MemoryOnceStore(bounds),
      threads: new MemoryOnceStore(bounds),
      ticks: new MemoryOnceStore({ maxEntries: MAX_TICKS_REMEMBERED }),
      ratings: new MemoryRatingStore(bounds),
      names: new MemoryNameCache(bounds),
      reviewCards: new MemoryReviewStore(bounds),
      entrySnapshots: new MemoryEntrySnapshotStore(bounds),
      operators: new MemoryOperatorCache(),
    };
    return {
      ...stores,
      tokenCache: undefined,
      kind: 'memory',
      ping: async () => true,
      close: async () => {
        for (const store of Object.values(stores)) store.clear();
      },
    };
  }

  const redis = await RedisConnection.connect({
    url: options.redisUrl,
    keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
  });
  return {
    contexts: new RedisContextStore(redis, { ttlSeconds: options.ttlSeconds }),
    deliveries: new FallbackOnceStore(new RedisOnceStore(redis), { maxEntries: options.maxEntries }),
    threads: new RedisOnceStore(redis),
    ticks: new RedisTickClaims(redis),
    ratings: new RedisRatingStore(redis),
    names: new RedisNameCache(redis),
    reviewCards: new RedisReviewStore(redis),
    entrySnapshots: new RedisEntrySnapshotStore(redis),
    operators: new RedisOperatorCache(redis),
    tokenCache: new RedisTokenCache(redis),
    kind: 'redis',
    ping: () => redis.ping(),
    close: () => redis.close(),
  };
}
