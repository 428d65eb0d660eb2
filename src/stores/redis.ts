// Redis-backed stores, shared by every replica: JSON namespaces on the process's one connection.
import { z } from 'zod';
import { type ContextStore, type RatingStore, StoreUnavailableError } from '../conversation/stores.js';
import type { AnswerContext, Rating } from '../conversation/types.js';
import type { CachedToken, TokenCache } from '../platform/access-token.js';
import type { OnceStore } from '../slack/handling/stores.js';
import { contextSchema } from './context-schema.js';
import { lockOwner } from './lock-owner.js';
import { KeptNamespace, type Namespaces } from './namespace.js';
import { exSeconds, type RedisCommands } from './redis-connection.js';
import { RedisJsonStore } from './redis-json-store.js';

const ratingSchema = z.union([z.literal(1), z.literal(2)]);

/** A namespace's keys are `<prefix><name>:<key>`, on the connection's circuit breaker. */
export function redisNamespaces(redis: RedisCommands): Namespaces {
  return (name, options) =>
    new KeptNamespace(new RedisJsonStore(redis, `${name}:`, options.schema), name, options);
}

export interface RedisContextStoreOptions {
  ttlSeconds: number;
}

export class RedisContextStore implements ContextStore {
  readonly #contexts: RedisJsonStore<AnswerContext>;
  readonly #ttlSeconds: number;

  constructor(redis: RedisCommands, options: RedisContextStoreOptions) {
    // A bad TTL would otherwise surface at the first answer, as a failed store call.
    exSeconds(options.ttlSeconds);
    this.#contexts = new RedisJsonStore(redis, 'ctx:', contextSchema);
    this.#ttlSeconds = options.ttlSeconds;
  }

  async put(key: string, context: AnswerContext): Promise<void> {
    await this.#contexts.set(key, context, this.#ttlSeconds);
  }

  get(key: string): Promise<AnswerContext | undefined> {
    return this.#contexts.get(key);
  }
}

// The JSON number 1 is the string '1' that claims are stored as.
const claimSchema = z.literal(1);

export class RedisOnceStore implements OnceStore {
  readonly #claims: RedisJsonStore<1>;

  constructor(redis: RedisCommands) {
    this.#claims = new RedisJsonStore(redis, 'once:', claimSchema);
  }

  claim(key: string, ttlSeconds: number): Promise<boolean> {
    return this.#claims.set(key, 1, ttlSeconds, { onlyIfAbsent: true });
  }

  release(key: string): Promise<void> {
    return this.#claims.delete(key);
  }

  async keep(key: string, ttlSeconds: number): Promise<void> {
    await this.#claims.set(key, 1, ttlSeconds);
  }

  has(key: string): Promise<boolean> {
    return this.#claims.has(key);
  }
}

/** SET NX then GET can find the winner gone (forgotten, expired); a few rounds settle it. */
const RECORD_ATTEMPTS = 3;

export class RedisRatingStore implements RatingStore {
  readonly #ratings: RedisJsonStore<Rating>;

  constructor(redis: RedisCommands) {
    this.#ratings = new RedisJsonStore(redis, 'rated:', ratingSchema);
  }

  async recordOnce(
    contextKey: string,
    rating: Rating,
    ttlSeconds: number,
  ): Promise<{ recorded: boolean; rating: Rating }> {
    for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
      // Not SET NX GET, which needs Redis 7.
      if (await this.#ratings.set(contextKey, rating, ttlSeconds, { onlyIfAbsent: true })) {
        return { recorded: true, rating };
      }
      const existing = await this.#ratings.read(contextKey);
      if (existing.kind === 'missing') continue;
      if (existing.kind === 'value') return { recorded: false, rating: existing.value };
      await this.#ratings.set(contextKey, rating, ttlSeconds);
      return { recorded: true, rating };
    }
    throw new StoreUnavailableError(
      `rating of ${contextKey} kept changing during ${RECORD_ATTEMPTS} attempts`,
    );
  }

  get(contextKey: string): Promise<Rating | undefined> {
    return this.#ratings.get(contextKey);
  }

  forget(contextKey: string): Promise<void> {
    return this.#ratings.delete(contextKey);
  }
}

const cachedTokenSchema = z.object({ token: z.string().min(1), expiresAt: z.number() });

export class RedisTokenCache implements TokenCache {
  readonly #redis: RedisCommands;
  /** One value, so the namespace is the whole key. */
  readonly #token: RedisJsonStore<CachedToken>;
  readonly #now: () => number;

  constructor(redis: RedisCommands, now: () => number = Date.now) {
    this.#redis = redis;
    this.#token = new RedisJsonStore(redis, 'platform-token', cachedTokenSchema);
    this.#now = now;
  }

  get(): Promise<CachedToken | undefined> {
    return this.#token.get('');
  }

  async set(entry: CachedToken): Promise<void> {
    const ttlSeconds = Math.floor((entry.expiresAt - this.#now()) / 1000);
    if (ttlSeconds < 1) return;
    await this.#token.set('', entry, ttlSeconds);
  }

  async lock(ttlMs: number): Promise<(() => Promise<void>) | undefined> {
    const owner = lockOwner();
    const lockKey = `${this.#token.key('')}:renewing`;
    const taken = await this.#redis.set(lockKey, owner, Math.max(1, Math.ceil(ttlMs / 1000)), {
      onlyIfAbsent: true,
    });
    if (!taken) return undefined;
    return async () => {
      // A lock that expired and was taken by another replica stays theirs.
      await this.#redis.delIfEquals(lockKey, owner);
    };
  }
}
