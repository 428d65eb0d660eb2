// Redis-backed stores, shared by every replica; one connection per process serves every store.
import { randomBytes } from 'node:crypto';
import { createClient, ErrorReply } from 'redis';
import { z } from 'zod';
import { type ContextStore, type RatingStore, StoreUnavailableError } from '../conversation/stores.js';
import type { AnswerContext, Rating } from '../conversation/types.js';
import type { CachedToken, TokenCache } from '../platform/access-token.js';
import type { NameCache, OnceStore, TickClaims } from '../slack/stores.js';
import { EXPIRED, within } from '../util/deadline.js';
import { parseJsonWith } from '../util/json.js';
import { CircuitBreaker } from './circuit-breaker.js';

/** The part of a pino logger the stores use; structural so that this file imports no logger. */
export interface StoreLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RedisConnectOptions {
  url: string;
  /** Put before every key, e.g. `csgw:`, so that several apps can share one Redis. */
  keyPrefix: string;
  logger?: StoreLogger;
  /** Budget for the first connection at start, and for each connection attempt after. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts; attempts never stop. */
  reconnectMaxDelayMs?: number;
  /**
   * A command without an answer in this time fails and opens the circuit: every store call then
   * fails at once, so a frozen Redis costs a request one timeout, not one per store call.
   */
  commandTimeoutMs?: number;
  /** While the circuit is open, the pause between a failed PING probe and the next. */
  probeIntervalMs?: number;
}

/** The one Redis connection of a process, reduced to what the stores need. */
export interface RedisConnection {
  readonly keyPrefix: string;
  get(key: string): Promise<string | undefined>;
  /** SET with EX; with `onlyIfAbsent` also NX. Returns false when NX found the key taken. */
  set(key: string, value: string, ttlSeconds: number, options?: { onlyIfAbsent?: boolean }): Promise<boolean>;
  del(key: string): Promise<void>;
  /** Deletes the key only while it holds `value`, in one step; true when it was deleted. */
  delIfEquals(key: string, value: string): Promise<boolean>;
  /**
   * SET `key` to `value` with EX, in one step, only while `guardKey` holds `guardValue` (a lock this
   * client owns); false when the guard was lost and nothing was written.
   */
  setIfEquals(
    guardKey: string,
    guardValue: string,
    key: string,
    value: string,
    ttlSeconds: number,
  ): Promise<boolean>;
  exists(key: string): Promise<boolean>;
  /** For readiness probes: false while Redis is unreachable (at once while the circuit is open), never throws. */
  ping(): Promise<boolean>;
  /** Quits gracefully when connected, else drops the connection and stops reconnecting. */
  close(): Promise<void>;
}

/** Sorted sets, for an index kept beside the values it lists (the review loop's open cards). */
export interface RedisSortedSets {
  /** ZADD (the member's score replaced), then EXPIRE on the set, so an index outlives its last write by the TTL only. */
  zadd(key: string, member: string, score: number, ttlSeconds: number): Promise<void>;
  zrem(key: string, member: string): Promise<void>;
  /** The members with the highest scores, highest first, at most `count`. */
  zrevrange(key: string, count: number): Promise<string[]>;
  zcard(key: string): Promise<number>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_RECONNECT_MAX_DELAY_MS = 3_000;
// Redis answers in a millisecond or two; 300 ms is an event-loop stall or a dead server, and a false
// alarm costs little: the probe that follows closes the circuit again on its first answer.
const DEFAULT_COMMAND_TIMEOUT_MS = 300;
const DEFAULT_PROBE_INTERVAL_MS = 500;
const RECONNECT_BASE_DELAY_MS = 50;
const CLOSE_GRACE_MS = 2_000;
// GET then DEL from the client could delete what another client SET between the two.
const SET_IF_EQUALS_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3]) return 1 end return 0";
const DEL_IF_EQUALS_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  if (error instanceof Error) {
    // Connection errors from node:net often carry only a code (ECONNREFUSED) and an empty message.
    if (error.message !== '') return error.message;
    if ('code' in error && typeof error.code === 'string') return error.code;
    return error.name;
  }
  return String(error);
}

/** Host and port only: the URL itself may carry a password. */
function safeAddress(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an unparsable URL';
  }
}

/** Seconds for EX, which takes whole seconds of at least one. */
function exSeconds(ttlSeconds: number): number {
  if (!(ttlSeconds > 0)) throw new RangeError(`ttlSeconds must be positive, got ${ttlSeconds}`);
  return Math.max(1, Math.ceil(ttlSeconds));
}

/**
 * Connects and resolves once Redis answers; rejects with StoreUnavailableError when no connection can be
 * made within `connectTimeoutMs`, so a misconfigured deployment fails at start rather than at first use.
 */
export async function connectRedis(options: RedisConnectOptions): Promise<RedisConnection & RedisSortedSets> {
  const { logger } = options;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const reconnectMaxDelayMs = options.reconnectMaxDelayMs ?? DEFAULT_RECONNECT_MAX_DELAY_MS;
  const address = safeAddress(options.url);
  const startDeadline = Date.now() + connectTimeoutMs;
  const state = { everReady: false, closed: false };

  const client = createClient({
    url: options.url,
    // Commands must fail at once while Redis is away; queued commands would answer users minutes late.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries) => {
        const jitter = Math.floor(Math.random() * 100);
        const delay =
          Math.min(RECONNECT_BASE_DELAY_MS * 2 ** Math.min(retries, 16), reconnectMaxDelayMs) + jitter;
        if (state.everReady) return delay;
        // Before the first success, retry only within the start budget; then connect() rejects.
        const remaining = startDeadline - Date.now();
        if (remaining <= 0) {
          return new Error(`no connection to Redis at ${address} within ${connectTimeoutMs} ms`);
        }
        return Math.min(delay, remaining);
      },
    },
  });

  const breaker = new CircuitBreaker({
    // Awaited without a timeout: a frozen server answers this PING the moment it thaws.
    probe: async () => (await client.ping()) === 'PONG',
    probeIntervalMs: options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS,
    onOpen: (cause) =>
      logger?.warn(
        { err: cause, address },
        'redis connection lost or not answering; store calls fail at once until it answers again',
      ),
    onClose: () => logger?.info({ address }, 'redis connection restored'),
  });

  // Without a listener, an 'error' event would throw and take the process down with the connection.
  client.on('error', (error: unknown) => {
    // Before the first connection, connect() reports the failure; after close, nothing is wanted.
    if (state.everReady && !state.closed) breaker.trip(error);
  });
  client.on('ready', () => {
    state.everReady = true;
    // A new connection answers at once; waiting out the probe pause would only delay recovery.
    breaker.probeNow();
  });

  try {
    // The reconnect strategy bounds failed attempts; this bounds an attempt whose handshake never answers.
    if ((await within(client.connect(), connectTimeoutMs + 1_000)) === EXPIRED) {
      throw new Error('connection handshake timed out');
    }
  } catch (error) {
    if (client.isOpen) client.destroy();
    const cause = error instanceof Error && 'socketError' in error ? error.socketError : error;
    throw new StoreUnavailableError(
      `Redis at ${address} unreachable within ${connectTimeoutMs} ms: ${describeError(cause)}`,
      { cause: error },
    );
  }

  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;

  async function run<T>(operation: string, command: () => Promise<T>): Promise<T> {
    if (state.closed) throw new StoreUnavailableError(`redis ${operation} refused: the connection is closed`);
    if (breaker.isOpen) {
      throw new StoreUnavailableError(`redis ${operation} skipped: Redis did not answer; a probe is waiting`);
    }
    try {
      // node-redis times out only commands not yet written; a sent command to a frozen server waits forever.
      const answer = await within(command(), commandTimeoutMs);
      if (answer === EXPIRED) throw new Error(`no answer within ${commandTimeoutMs} ms`);
      return answer;
    } catch (error) {
      // An error reply comes from a Redis that is there; anything else means it is not.
      if (!(error instanceof ErrorReply)) breaker.trip(error);
      throw new StoreUnavailableError(`redis ${operation} failed: ${describeError(error)}`, { cause: error });
    }
  }

  return {
    keyPrefix: options.keyPrefix,

    async get(key) {
      const value = await run('GET', () => client.get(key));
      return value ?? undefined;
    },

    async set(key, value, ttlSeconds, setOptions) {
      const expiration = { type: 'EX', value: exSeconds(ttlSeconds) } as const;
      const reply = await run('SET', () =>
        client.set(key, value, setOptions?.onlyIfAbsent ? { expiration, condition: 'NX' } : { expiration }),
      );
      return reply !== null;
    },

    async del(key) {
      await run('DEL', () => client.del(key));
    },

    async delIfEquals(key, value) {
      const deleted = await run('EVAL', () =>
        client.eval(DEL_IF_EQUALS_SCRIPT, { keys: [key], arguments: [value] }),
      );
      return deleted === 1;
    },

    async setIfEquals(guardKey, guardValue, key, value, ttlSeconds) {
      const written = await run('EVAL', () =>
        client.eval(SET_IF_EQUALS_SCRIPT, {
          keys: [guardKey, key],
          arguments: [guardValue, value, String(exSeconds(ttlSeconds))],
        }),
      );
      return written === 1;
    },

    async exists(key) {
      return (await run('EXISTS', () => client.exists(key))) > 0;
    },

    async zadd(key, member, score, ttlSeconds) {
      const seconds = exSeconds(ttlSeconds);
      await run('ZADD', () => client.multi().zAdd(key, { score, value: member }).expire(key, seconds).exec());
    },

    async zrem(key, member) {
      await run('ZREM', () => client.zRem(key, member));
    },

    async zrevrange(key, count) {
      if (count < 1) return [];
      return run('ZRANGE', () => client.zRange(key, 0, Math.floor(count) - 1, { REV: true }));
    },

    async zcard(key) {
      return run('ZCARD', () => client.zCard(key));
    },

    async ping() {
      try {
        return (await run('PING', () => client.ping())) === 'PONG';
      } catch {
        return false;
      }
    },

    async close() {
      if (state.closed) return;
      state.closed = true;
      // While the circuit is open Redis is not answering: a graceful QUIT would only wait out the grace.
      const answering = client.isReady && !breaker.isOpen;
      breaker.dispose();
      if (!answering) {
        if (client.isOpen) client.destroy();
        return;
      }
      // close() waits for commands in flight; a dead server must not keep shutdown waiting.
      const outcome = await within(client.close(), CLOSE_GRACE_MS);
      if (outcome === EXPIRED && client.isOpen) client.destroy();
    },
  };
}

const suggestionSchema = z.object({ question: z.string(), docId: z.string() });

// Contexts written before these ids could be absent hold '' for none; both read as undefined.
const storedId = z
  .string()
  .optional()
  .transform((id) => id || undefined);

// JSON drops undefined properties, so the `| undefined` fields come back missing.
const storedContextSchema = z.object({
  uid: z.string().optional(),
  cid: storedId,
  msgId: storedId,
  docId: storedId,
  docName: z.string(),
  robotFlag: z.number(),
  partnerId: z.string(),
  askerUserId: z.string(),
  question: z.string(),
  suggestions: z.array(suggestionSchema),
  rateable: z.boolean(),
  conversationId: z.string(),
  threadId: z.string().optional(),
  createdAt: z.number(),
});

const contextSchema: z.ZodType<AnswerContext> = storedContextSchema.transform(
  (stored): AnswerContext => ({
    ...stored,
    uid: stored.uid,
    cid: stored.cid,
    msgId: stored.msgId,
    docId: stored.docId,
    threadId: stored.threadId,
  }),
);
const ratingSchema = z.union([z.literal(1), z.literal(2)]);
const nameSchema = z.string();

export interface RedisContextStoreOptions {
  ttlSeconds: number;
}

export class RedisContextStore implements ContextStore {
  readonly #redis: RedisConnection;
  readonly #ttlSeconds: number;

  constructor(redis: RedisConnection, options: RedisContextStoreOptions) {
    exSeconds(options.ttlSeconds);
    this.#redis = redis;
    this.#ttlSeconds = options.ttlSeconds;
  }

  async put(key: string, context: AnswerContext): Promise<void> {
    await this.#redis.set(this.#key(key), JSON.stringify(context), this.#ttlSeconds);
  }

  async get(key: string): Promise<AnswerContext | undefined> {
    return parseJsonWith(await this.#redis.get(this.#key(key)), contextSchema);
  }

  #key(key: string): string {
    return `${this.#redis.keyPrefix}ctx:${key}`;
  }
}

export class RedisOnceStore implements OnceStore {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    return this.#redis.set(this.#key(key), '1', ttlSeconds, { onlyIfAbsent: true });
  }

  async release(key: string): Promise<void> {
    await this.#redis.del(this.#key(key));
  }

  async keep(key: string, ttlSeconds: number): Promise<void> {
    await this.#redis.set(this.#key(key), '1', ttlSeconds);
  }

  /** Whether a claim is held, for callers that only look (a thread the app is answering). */
  async has(key: string): Promise<boolean> {
    return this.#redis.exists(this.#key(key));
  }

  #key(key: string): string {
    return `${this.#redis.keyPrefix}once:${key}`;
  }
}

/**
 * Ticks claimed in Redis alone, under keys of their own. No process-memory fallback (as the deliveries
 * have): while Redis is down every claim rejects with StoreUnavailableError, so no replica posts.
 */
export class RedisTickClaims implements TickClaims {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    return this.#redis.set(`${this.#redis.keyPrefix}tick:${key}`, '1', ttlSeconds, { onlyIfAbsent: true });
  }
}

/** SET NX then GET can find the winner gone (forgotten, expired); a few rounds settle it. */
const RECORD_ATTEMPTS = 3;

export class RedisRatingStore implements RatingStore {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async recordOnce(
    contextKey: string,
    rating: Rating,
    ttlSeconds: number,
  ): Promise<{ recorded: boolean; rating: Rating }> {
    const key = this.#key(contextKey);
    const value = JSON.stringify(rating);
    for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
      // Plain SET NX then GET rather than SET NX GET, which needs Redis 7.
      if (await this.#redis.set(key, value, ttlSeconds, { onlyIfAbsent: true })) {
        return { recorded: true, rating };
      }
      const raw = await this.#redis.get(key);
      if (raw === undefined) continue;
      const existing = parseJsonWith(raw, ratingSchema);
      if (existing !== undefined) return { recorded: false, rating: existing };
      // A corrupt value would block rating forever; this rating replaces it.
      await this.#redis.set(key, value, ttlSeconds);
      return { recorded: true, rating };
    }
    throw new StoreUnavailableError(
      `rating of ${contextKey} kept changing during ${RECORD_ATTEMPTS} attempts`,
    );
  }

  async get(contextKey: string): Promise<Rating | undefined> {
    return parseJsonWith(await this.#redis.get(this.#key(contextKey)), ratingSchema);
  }

  async forget(contextKey: string): Promise<void> {
    await this.#redis.del(this.#key(contextKey));
  }

  #key(contextKey: string): string {
    return `${this.#redis.keyPrefix}rated:${contextKey}`;
  }
}

export class RedisNameCache implements NameCache {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async get(userId: string): Promise<string | undefined> {
    return parseJsonWith(await this.#redis.get(this.#key(userId)), nameSchema);
  }

  async set(userId: string, name: string, ttlSeconds: number): Promise<void> {
    await this.#redis.set(this.#key(userId), JSON.stringify(name), ttlSeconds);
  }

  #key(userId: string): string {
    return `${this.#redis.keyPrefix}name:${userId}`;
  }
}

const cachedTokenSchema = z.object({ token: z.string().min(1), expiresAt: z.number() });

/** The platform access token shared by every replica, with the lock that makes one of them renew it. */
export class RedisTokenCache implements TokenCache {
  readonly #redis: RedisConnection;
  readonly #now: () => number;

  constructor(redis: RedisConnection, now: () => number = Date.now) {
    this.#redis = redis;
    this.#now = now;
  }

  async get(): Promise<CachedToken | undefined> {
    return parseJsonWith(await this.#redis.get(this.#key()), cachedTokenSchema);
  }

  async set(entry: CachedToken): Promise<void> {
    const ttlSeconds = Math.floor((entry.expiresAt - this.#now()) / 1000);
    if (ttlSeconds < 1) return;
    await this.#redis.set(this.#key(), JSON.stringify(entry), ttlSeconds);
  }

  async lock(ttlMs: number): Promise<(() => Promise<void>) | undefined> {
    const owner = randomBytes(9).toString('base64url');
    const lockKey = `${this.#key()}:renewing`;
    const taken = await this.#redis.set(lockKey, owner, Math.max(1, Math.ceil(ttlMs / 1000)), {
      onlyIfAbsent: true,
    });
    if (!taken) return undefined;
    return async () => {
      // Only the owner releases; a lock that expired and was taken by another replica stays theirs.
      await this.#redis.delIfEquals(lockKey, owner);
    };
  }

  #key(): string {
    return `${this.#redis.keyPrefix}platform-token`;
  }
}
