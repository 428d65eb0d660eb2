// Picks the stores for this process: Redis when a URL is configured (several replicas), memory otherwise.
import type { TokenCache } from '../../platform/access-token.js';
import type { ContextStore, NameCache, OnceStore, RatingStore } from '../stores.js';
import { MemoryContextStore, MemoryNameCache, MemoryOnceStore, MemoryRatingStore } from './memory.js';
import {
  connectRedis,
  RedisContextStore,
  RedisNameCache,
  RedisOnceStore,
  RedisRatingStore,
  RedisTokenCache,
  type StoreLogger,
} from './redis.js';

export type { StoreLogger } from './redis.js';

export interface StoresOptions {
  /** Unset: in-memory stores, fit for one replica only. */
  redisUrl?: string;
  /** Put before every Redis key. */
  keyPrefix?: string;
  /** Cap of each in-memory store (and of each kind of once-only key, see PartitionedOnceStore). */
  maxEntries: number;
  /** Lifetime of an answer context. */
  ttlSeconds: number;
  logger?: StoreLogger;
  /** How long start may wait for Redis before it fails. */
  connectTimeoutMs?: number;
}

export interface Stores {
  contexts: ContextStore;
  once: OnceStore;
  ratings: RatingStore;
  names: NameCache;
  /** The platform token shared by all replicas; undefined in memory (one process, nothing to share). */
  tokenCache: TokenCache | undefined;
  kind: 'memory' | 'redis';
  /** For readiness probes: false while the backend is unreachable. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const DEFAULT_KEY_PREFIX = 'cs-slack-gateway:';

/** Kinds are the gateway's constant key prefixes; any beyond this share one store rather than add more. */
const ONCE_KINDS_MAX = 8;

/**
 * Once-only keys in one bounded memory store per kind (the text before the first ':'): the gateway
 * keeps the threads it answers (`thread:`) and the deliveries it has seen (`msg:`) in one OnceStore,
 * and in a single LRU a busy workspace's deliveries would evict the threads (follow-ups then go
 * unanswered) and many threads would evict deliveries (Slack's retries then answered twice).
 */
export class PartitionedOnceStore implements OnceStore {
  readonly #kinds = new Map<string, OnceStore>();
  readonly #create: () => OnceStore;
  #overflow: OnceStore | undefined;

  constructor(create: () => OnceStore) {
    this.#create = create;
  }

  claim(key: string, ttlSeconds: number): Promise<boolean> {
    return this.#storeFor(key).claim(key, ttlSeconds);
  }

  has(key: string): Promise<boolean> {
    return this.#storeFor(key).has(key);
  }

  release(key: string): Promise<void> {
    return this.#storeFor(key).release(key);
  }

  keep(key: string, ttlSeconds: number): Promise<void> {
    return this.#storeFor(key).keep(key, ttlSeconds);
  }

  async close(): Promise<void> {
    const stores = [...this.#kinds.values(), ...(this.#overflow ? [this.#overflow] : [])];
    await Promise.all(stores.map((store) => store.close()));
  }

  #storeFor(key: string): OnceStore {
    const separator = key.indexOf(':');
    const kind = separator < 0 ? '' : key.slice(0, separator);
    const known = this.#kinds.get(kind);
    if (known !== undefined) return known;
    if (this.#kinds.size >= ONCE_KINDS_MAX) {
      this.#overflow ??= this.#create();
      return this.#overflow;
    }
    const store = this.#create();
    this.#kinds.set(kind, store);
    return store;
  }
}

/** Rejects with StoreUnavailableError when Redis is configured but cannot be reached at start. */
export async function createStores(options: StoresOptions): Promise<Stores> {
  if (options.redisUrl === undefined) {
    const bounds = { maxEntries: options.maxEntries };
    const stores = {
      contexts: new MemoryContextStore({ ...bounds, ttlSeconds: options.ttlSeconds }),
      once: new PartitionedOnceStore(() => new MemoryOnceStore(bounds)),
      ratings: new MemoryRatingStore(bounds),
      names: new MemoryNameCache(bounds),
    };
    return {
      ...stores,
      tokenCache: undefined,
      kind: 'memory',
      ping: async () => true,
      close: async () => {
        await Promise.all(Object.values(stores).map((store) => store.close()));
      },
    };
  }

  const redis = await connectRedis({
    url: options.redisUrl,
    keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
  });
  return {
    contexts: new RedisContextStore(redis, { ttlSeconds: options.ttlSeconds }),
    once: new RedisOnceStore(redis),
    ratings: new RedisRatingStore(redis),
    names: new RedisNameCache(redis),
    tokenCache: new RedisTokenCache(redis),
    kind: 'redis',
    ping: () => redis.ping(),
    close: () => redis.close(),
  };
}
