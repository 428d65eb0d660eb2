// The one Redis connection of a process: the client, its circuit breaker, the key prefix and the close
// every store shares. The stores reach Redis only through this class.
import { createClient, defineScript, ErrorReply } from 'redis';
import { StoreUnavailableError } from '../conversation/stores.js';
import { EXPIRED, within } from '../util/deadline.js';
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

/**
 * The key-value commands the stores use: what a test can wrap (to interleave another replica's
 * commands) without a connection of its own.
 */
export interface RedisCommands {
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
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_RECONNECT_MAX_DELAY_MS = 3_000;
// Redis answers in a millisecond or two; 300 ms is an event-loop stall or a dead server, and a false
// alarm costs little: the probe that follows closes the circuit again on its first answer.
const DEFAULT_COMMAND_TIMEOUT_MS = 300;
const DEFAULT_PROBE_INTERVAL_MS = 500;
const RECONNECT_BASE_DELAY_MS = 50;
const CLOSE_GRACE_MS = 2_000;

// Compare-and-change in one step: GET then DEL (or SET) from the client could undo what another
// client wrote between the two. By EVALSHA, so a call sends the script's hash, not its text; the
// client falls back to EVAL by itself when Redis answers NOSCRIPT (after a restart or SCRIPT FLUSH).
const scripts = {
  delIfEquals: defineScript({
    NUMBER_OF_KEYS: 1,
    SCRIPT: "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
    parseCommand(parser, key: string, value: string) {
      parser.pushKey(key);
      parser.push(value);
    },
    // DEL's count: 1 when this owner's value was there and is gone.
    transformReply: (reply: unknown): boolean => reply === 1,
  }),
  setIfEquals: defineScript({
    NUMBER_OF_KEYS: 2,
    SCRIPT:
      "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3]) return 1 end return 0",
    parseCommand(parser, guardKey: string, key: string, guardValue: string, value: string, seconds: number) {
      parser.pushKeys([guardKey, key]);
      parser.push(guardValue, value, String(seconds));
    },
    transformReply: (reply: unknown): boolean => reply === 1,
  }),
};

function newClient(
  url: string,
  connectTimeoutMs: number,
  reconnectStrategy: (retries: number) => number | Error,
) {
  return createClient({
    url,
    // Commands must fail at once while Redis is away; queued commands would answer users minutes late.
    disableOfflineQueue: true,
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy },
    scripts,
  });
}

type Client = ReturnType<typeof newClient>;

interface ConnectionState {
  /** Before the first connection, only connect() reports failures (no circuit to open yet). */
  everReady: boolean;
  closed: boolean;
}

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

/** Seconds for EX, which takes whole seconds of at least one; throws RangeError for no TTL. */
export function exSeconds(ttlSeconds: number): number {
  if (!(ttlSeconds > 0)) throw new RangeError(`ttlSeconds must be positive, got ${ttlSeconds}`);
  return Math.max(1, Math.ceil(ttlSeconds));
}

export class RedisConnection implements RedisCommands {
  readonly keyPrefix: string;
  readonly #client: Client;
  readonly #breaker: CircuitBreaker;
  readonly #commandTimeoutMs: number;
  /** Shared with the client's event listeners, which were attached before this object existed. */
  readonly #state: ConnectionState;

  private constructor(
    keyPrefix: string,
    client: Client,
    breaker: CircuitBreaker,
    commandTimeoutMs: number,
    state: ConnectionState,
  ) {
    this.keyPrefix = keyPrefix;
    this.#client = client;
    this.#breaker = breaker;
    this.#commandTimeoutMs = commandTimeoutMs;
    this.#state = state;
  }

  /**
   * Connects and resolves once Redis answers; rejects with StoreUnavailableError when no connection can
   * be made within `connectTimeoutMs`, so a misconfigured deployment fails at start, not at first use.
   */
  static async connect(options: RedisConnectOptions): Promise<RedisConnection> {
    const { logger } = options;
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const reconnectMaxDelayMs = options.reconnectMaxDelayMs ?? DEFAULT_RECONNECT_MAX_DELAY_MS;
    const address = safeAddress(options.url);
    const startDeadline = Date.now() + connectTimeoutMs;
    const state: ConnectionState = { everReady: false, closed: false };

    const client = newClient(options.url, connectTimeoutMs, (retries) => {
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
    return new RedisConnection(
      options.keyPrefix,
      client,
      breaker,
      options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      state,
    );
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.#run('GET', (client) => client.get(key));
    return value ?? undefined;
  }

  async set(
    key: string,
    value: string,
    ttlSeconds: number,
    options?: { onlyIfAbsent?: boolean },
  ): Promise<boolean> {
    const expiration = { type: 'EX', value: exSeconds(ttlSeconds) } as const;
    const reply = await this.#run('SET', (client) =>
      client.set(key, value, options?.onlyIfAbsent ? { expiration, condition: 'NX' } : { expiration }),
    );
    return reply !== null;
  }

  async del(key: string): Promise<void> {
    await this.#run('DEL', (client) => client.del(key));
  }

  async delIfEquals(key: string, value: string): Promise<boolean> {
    return this.#run('EVALSHA', (client) => client.delIfEquals(key, value));
  }

  async setIfEquals(
    guardKey: string,
    guardValue: string,
    key: string,
    value: string,
    ttlSeconds: number,
  ): Promise<boolean> {
    const seconds = exSeconds(ttlSeconds);
    return this.#run('EVALSHA', (client) => client.setIfEquals(guardKey, key, guardValue, value, seconds));
  }

  async exists(key: string): Promise<boolean> {
    return (await this.#run('EXISTS', (client) => client.exists(key))) > 0;
  }

  /** ZADD (the member's score replaced), then EXPIRE on the set, so an index outlives its last write by the TTL only. */
  async zadd(key: string, member: string, score: number, ttlSeconds: number): Promise<void> {
    const seconds = exSeconds(ttlSeconds);
    await this.#run('ZADD', (client) =>
      client.multi().zAdd(key, { score, value: member }).expire(key, seconds).exec(),
    );
  }

  async zrem(key: string, member: string): Promise<void> {
    await this.#run('ZREM', (client) => client.zRem(key, member));
  }

  /** The members with the highest scores, highest first, at most `count`. */
  async zrevrange(key: string, count: number): Promise<string[]> {
    if (count < 1) return [];
    return this.#run('ZRANGE', (client) => client.zRange(key, 0, Math.floor(count) - 1, { REV: true }));
  }

  async zcard(key: string): Promise<number> {
    return this.#run('ZCARD', (client) => client.zCard(key));
  }

  async hget(key: string, field: string): Promise<string | undefined> {
    return (await this.#run('HGET', (client) => client.hGet(key, field))) ?? undefined;
  }

  /** Every field of a hash with its value (none when the hash does not exist). */
  async hgetall(key: string): Promise<Record<string, string>> {
    return this.#run('HGETALL', (client) => client.hGetAll(key));
  }

  async hset(key: string, field: string, value: string): Promise<void> {
    await this.#run('HSET', (client) => client.hSet(key, field, value));
  }

  async hdel(key: string, field: string): Promise<void> {
    await this.#run('HDEL', (client) => client.hDel(key, field));
  }

  /** For readiness probes: false while Redis is unreachable (at once while the circuit is open), never throws. */
  async ping(): Promise<boolean> {
    try {
      return (await this.#run('PING', (client) => client.ping())) === 'PONG';
    } catch {
      return false;
    }
  }

  /** Quits gracefully when connected, else drops the connection and stops reconnecting. */
  async close(): Promise<void> {
    if (this.#state.closed) return;
    this.#state.closed = true;
    // While the circuit is open Redis is not answering: a graceful QUIT would only wait out the grace.
    const answering = this.#client.isReady && !this.#breaker.isOpen;
    this.#breaker.dispose();
    if (!answering) {
      if (this.#client.isOpen) this.#client.destroy();
      return;
    }
    // close() waits for commands in flight; a dead server must not keep shutdown waiting.
    const outcome = await within(this.#client.close(), CLOSE_GRACE_MS);
    if (outcome === EXPIRED && this.#client.isOpen) this.#client.destroy();
  }

  async #run<T>(operation: string, command: (client: Client) => Promise<T>): Promise<T> {
    if (this.#state.closed)
      throw new StoreUnavailableError(`redis ${operation} refused: the connection is closed`);
    if (this.#breaker.isOpen) {
      throw new StoreUnavailableError(`redis ${operation} skipped: Redis did not answer; a probe is waiting`);
    }
    try {
      // node-redis times out only commands not yet written; a sent command to a frozen server waits forever.
      const answer = await within(command(this.#client), this.#commandTimeoutMs);
      if (answer === EXPIRED) throw new Error(`no answer within ${this.#commandTimeoutMs} ms`);
      return answer;
    } catch (error) {
      // An error reply comes from a Redis that is there; anything else means it is not.
      if (!(error instanceof ErrorReply)) this.#breaker.trip(error);
      throw new StoreUnavailableError(`redis ${operation} failed: ${describeError(error)}`, { cause: error });
    }
  }
}
