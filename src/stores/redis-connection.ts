// The one Redis connection of a process, shared by every store: client, circuit breaker, key prefix.
import { defineScript, ErrorReply } from 'redis';
import { StoreUnavailableError } from '../conversation/stores.js';
import { EXPIRED, within } from '../util/deadline.js';
import { positive } from '../util/positive.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { createRedisClient, type RedisServer, redisLocation } from './redis-client.js';

/** Structural, so that this file imports no logger. */
export interface StoreLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RedisConnectOptions {
  server: RedisServer;
  /** So that several apps can share one Redis. */
  keyPrefix: string;
  logger?: StoreLogger | undefined;
  connectTimeoutMs?: number | undefined;
  /** Attempts never stop. */
  reconnectMaxDelayMs?: number;
  /** Then the circuit opens: a frozen Redis costs a request one timeout, not one per store call. */
  commandTimeoutMs?: number | undefined;
  probeIntervalMs?: number;
}

/** What a test can wrap (to interleave another replica's commands) without a connection of its own. */
export interface RedisCommands {
  readonly keyPrefix: string;
  get(key: string): Promise<string | undefined>;
  /** Returns false when NX found the key taken. */
  set(key: string, value: string, ttlSeconds: number, options?: { onlyIfAbsent?: boolean }): Promise<boolean>;
  del(key: string): Promise<void>;
  /** In one step. */
  delIfEquals(key: string, value: string): Promise<boolean>;
  /** In one step, only while `guardKey` holds `guardValue` (a lock this client owns). */
  setIfEquals(
    guardKey: string,
    guardValue: string,
    key: string,
    value: string,
    ttlSeconds: number,
  ): Promise<boolean>;
  /** Every key starting with `prefix`, found by SCAN a step at a time (never KEYS); how many went. */
  deleteStartingWith(prefix: string): Promise<number>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_RECONNECT_MAX_DELAY_MS = 3_000;
// 300 ms is an event-loop stall or a dead server; a false alarm closes again on the next probe.
const DEFAULT_COMMAND_TIMEOUT_MS = 300;
const DEFAULT_PROBE_INTERVAL_MS = 500;
const RECONNECT_BASE_DELAY_MS = 50;
const CLOSE_GRACE_MS = 2_000;
/** Keys (or hash fields) a SCAN step looks at: a short command however large the database. */
const SCAN_COUNT = 500;

/** A SCAN pattern matching the keys that start with `prefix`, its own glob characters taken literally. */
function startingWith(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
}

// Compare-and-change in one step: GET then DEL from the client could undo another client's write.
const scripts = {
  delIfEquals: defineScript({
    NUMBER_OF_KEYS: 1,
    SCRIPT: "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
    parseCommand(parser, key: string, value: string) {
      parser.pushKey(key);
      parser.push(value);
    },
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

/**
 * A plain client, a Sentinel that moves every command and subscription to the primary of the day, or a
 * cluster that sends each command to the node holding its key's slot.
 */
type Opened = ReturnType<typeof createRedisClient<typeof scripts>>;
type Client = Opened['client'];

interface ConnectionState {
  /** Before the first connection only connect() reports failures (no circuit yet). */
  everReady: boolean;
  closed: boolean;
}

function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  if (error instanceof Error) {
    // Errors from node:net often carry only a code (ECONNREFUSED) and an empty message.
    if (error.message !== '') return error.message;
    if ('code' in error && typeof error.code === 'string') return error.code;
    return error.name;
  }
  return String(error);
}

/**
 * A hash tag putting a key in the Redis Cluster slot of `key`, for a script or transaction that touches
 * both: the cluster hashes only what a key's first `{…}` holds, and `key` itself when it holds none.
 */
export function slotOf(key: string): string {
  // A `}` would end the tag early, and a `{…}` inside `key` would be the one its own slot is hashed from.
  if (/[{}]/.test(key))
    throw new RangeError(`no hash tag can follow a key holding { or }: ${JSON.stringify(key)}`);
  return `{${key}}`;
}

/** EX takes whole seconds of at least one; throws RangeError for no TTL. */
function exSeconds(ttlSeconds: number): number {
  return Math.max(1, Math.ceil(positive('ttlSeconds', ttlSeconds)));
}

/** Where published messages arrive: a connection of its own, or the Sentinel's or cluster's, which follow the nodes. */
interface Subscribing {
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
}

/** What a Sentinel says when a node it manages fails (its 'client-error' event). */
interface SentinelClientError {
  type: string;
  error: unknown;
}

/**
 * Outages and recoveries, from whichever kind of client; `topologyError` hears what a sentinel said, or
 * why the cluster's nodes could not be found.
 */
function listen(
  opened: Opened,
  on: { failure(error: unknown): void; ready(): void; topologyError(error: unknown): void },
): void {
  if (opened.kind === 'url') {
    opened.client.on('ready', on.ready);
    // Without a listener an 'error' event would throw and take the process down.
    opened.client.on('error', on.failure);
    return;
  }
  if (opened.kind === 'cluster') {
    // 'connect' once every slot has a node; 'node-ready' as each node answers again after an outage.
    opened.client.on('connect', on.ready);
    opened.client.on('node-ready', on.ready);
    // A node that stops answering leaves its slots without one until it is back or a replica takes over.
    opened.client.on('node-error', on.failure);
    opened.client.on('error', on.topologyError);
    return;
  }
  opened.client.on('ready', on.ready);
  // A Sentinel says 'error' for each sentinel it could not reach while another answered: only its primary counts.
  opened.client.on('error', on.topologyError);
  opened.client.on('client-error', (event: SentinelClientError) => {
    if (event.type === 'MASTER') on.failure(event.error);
  });
  // The primary changed: commands wait for the new one, so the circuit opens until it answers.
  opened.client.on('reconnecting', () => on.failure(new Error('the Sentinel is moving to a new primary')));
}

export class RedisConnection implements RedisCommands {
  readonly keyPrefix: string;
  readonly #opened: Opened;
  readonly #client: Client;
  readonly #breaker: CircuitBreaker;
  readonly #commandTimeoutMs: number;
  /** Shared with the client's event listeners, attached before this object existed. */
  readonly #state: ConnectionState;
  /** Set while a connection of its own is open, to end it at close. */
  #destroySubscriber: (() => void) | undefined;
  /** One connection for every topic, opened at the first subscribe: a subscribed one takes no other command. */
  #subscriberReady: Promise<Subscribing> | undefined;

  private constructor(
    keyPrefix: string,
    opened: Opened,
    breaker: CircuitBreaker,
    commandTimeoutMs: number,
    state: ConnectionState,
  ) {
    this.keyPrefix = keyPrefix;
    this.#opened = opened;
    this.#client = opened.client;
    this.#breaker = breaker;
    this.#commandTimeoutMs = commandTimeoutMs;
    this.#state = state;
  }

  /** Rejects when no connection is made in time, so a misconfigured deployment fails at start. */
  static async connect(options: RedisConnectOptions): Promise<RedisConnection> {
    const { logger } = options;
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const reconnectMaxDelayMs = options.reconnectMaxDelayMs ?? DEFAULT_RECONNECT_MAX_DELAY_MS;
    const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const address = redisLocation(options.server);
    const startDeadline = Date.now() + connectTimeoutMs;
    const state: ConnectionState = { everReady: false, closed: false };

    const opened = createRedisClient(
      options.server,
      {
        commandTimeoutMs,
        connectTimeoutMs,
        reconnectStrategy: (retries) => {
          const jitter = Math.floor(Math.random() * 100);
          const delay =
            Math.min(RECONNECT_BASE_DELAY_MS * 2 ** Math.min(retries, 16), reconnectMaxDelayMs) + jitter;
          if (state.everReady) return delay;
          const remaining = startDeadline - Date.now();
          if (remaining <= 0) {
            return new Error(`no connection to Redis at ${address} within ${connectTimeoutMs} ms`);
          }
          return Math.min(delay, remaining);
        },
      },
      scripts,
    );
    const { client } = opened;

    const breaker = new CircuitBreaker({
      // A frozen server fails this PING after the command timeout; the next probe asks again.
      probe: async () => (await client.ping()) === 'PONG',
      probeIntervalMs: options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS,
      onOpen: (cause) =>
        logger?.warn(
          { err: cause, address },
          'redis connection lost or not answering; store calls fail at once until it answers again',
        ),
      onClose: () => logger?.info({ address }, 'redis connection restored'),
    });

    // Why a Sentinel found no primary, or a cluster no nodes, at start (no such name, nodes down), for the error.
    let topologyError: unknown;
    listen(opened, {
      failure: (error) => {
        if (state.everReady && !state.closed) breaker.trip(error);
      },
      ready: () => {
        state.everReady = true;
        breaker.probeNow();
      },
      topologyError: (error) => {
        if (!state.everReady) topologyError = error;
      },
    });

    try {
      // This bounds an attempt whose handshake never answers.
      const connecting: Promise<unknown> = client.connect();
      if ((await within(connecting, connectTimeoutMs + 1_000)) === EXPIRED) {
        throw new Error('connection handshake timed out');
      }
    } catch (error) {
      if (client.isOpen) await client.destroy();
      const cause =
        topologyError ?? (error instanceof Error && 'socketError' in error ? error.socketError : error);
      throw new StoreUnavailableError(
        `Redis at ${address} unreachable within ${connectTimeoutMs} ms: ${describeError(cause)}`,
        { cause: error },
      );
    }
    return new RedisConnection(options.keyPrefix, opened, breaker, commandTimeoutMs, state);
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

  /** On a cluster node-redis walks SCAN through every primary and splits UNLINK by slot. */
  async deleteStartingWith(prefix: string): Promise<number> {
    const MATCH = startingWith(prefix);
    let deleted = 0;
    let cursor = '0';
    do {
      const step = await this.#run('SCAN', (client) => client.scan(cursor, { MATCH, COUNT: SCAN_COUNT }));
      cursor = step.cursor;
      const { keys } = step;
      if (keys.length > 0) deleted += await this.#run('UNLINK', (client) => client.unlink(keys));
    } while (cursor !== '0');
    return deleted;
  }

  /** EXPIRE on the set, so an index outlives its last write by the TTL only. */
  async zadd(key: string, member: string, score: number, ttlSeconds: number): Promise<void> {
    const seconds = exSeconds(ttlSeconds);
    await this.#run('ZADD', (client) =>
      client.multi().zAdd(key, { score, value: member }).expire(key, seconds).exec(),
    );
  }

  async zrem(key: string, member: string): Promise<void> {
    await this.#run('ZREM', (client) => client.zRem(key, member));
  }

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

  async hgetall(key: string): Promise<Record<string, string>> {
    return this.#run('HGETALL', (client) => client.hGetAll(key));
  }

  async hset(key: string, field: string, value: string): Promise<void> {
    await this.#run('HSET', (client) => client.hSet(key, field, value));
  }

  async hdel(key: string, field: string): Promise<void> {
    await this.#run('HDEL', (client) => client.hDel(key, field));
  }

  /** Tells every connection subscribed to `topic` (under the key prefix), this replica's too. */
  async publish(topic: string, message: string): Promise<void> {
    const channel = `${this.keyPrefix}${topic}`;
    const opened = this.#opened;
    // On a cluster the channel lives on one shard (SPUBLISH), rather than being sent to every node.
    await this.#run('PUBLISH', (client) =>
      opened.kind === 'cluster' ? opened.client.sPublish(channel, message) : client.publish(channel, message),
    );
  }

  /**
   * Calls `listener` with each message published to `topic`, on the one subscribing connection, which
   * node-redis subscribes again after every reconnect; what is published while it is down is not heard.
   */
  async subscribe(topic: string, listener: (message: string) => void): Promise<void> {
    if (this.#state.closed)
      throw new StoreUnavailableError('redis SUBSCRIBE refused: the connection is closed');
    this.#subscriberReady ??= this.#connectSubscriber();
    const subscriber = await this.#subscriberReady;
    await subscriber.subscribe(`${this.keyPrefix}${topic}`, listener);
  }

  async #connectSubscriber(): Promise<Subscribing> {
    const opened = this.#opened;
    // The cluster subscribes on the shard holding the channel, and follows it when the slot moves.
    if (opened.kind === 'cluster') {
      const cluster = opened.client;
      return { subscribe: async (channel, listener) => void (await cluster.sSubscribe(channel, listener)) };
    }
    // The Sentinel subscribes on a connection of its own, which it moves to each new primary.
    if (opened.kind === 'sentinel') {
      const sentinel = opened.client;
      return { subscribe: async (channel, listener) => void (await sentinel.subscribe(channel, listener)) };
    }
    const subscriber = opened.client.duplicate();
    // The commands' circuit speaks for Redis; without a listener an 'error' event would end the process.
    subscriber.on('error', () => undefined);
    this.#destroySubscriber = () => {
      if (subscriber.isOpen) subscriber.destroy();
    };
    try {
      await subscriber.connect();
      return { subscribe: async (channel, listener) => void (await subscriber.subscribe(channel, listener)) };
    } catch (error) {
      // The next subscribe tries a connection of its own again.
      this.#subscriberReady = undefined;
      throw error;
    }
  }

  /** The hash's fields starting with `prefix`, found by HSCAN a step at a time; how many went. */
  async hdelStartingWith(key: string, prefix: string): Promise<number> {
    const MATCH = startingWith(prefix);
    let deleted = 0;
    let cursor = '0';
    do {
      const step = await this.#run('HSCAN', (client) =>
        client.hScan(key, cursor, { MATCH, COUNT: SCAN_COUNT }),
      );
      cursor = step.cursor;
      const fields = step.entries.map((entry) => entry.field);
      if (fields.length > 0) deleted += await this.#run('HDEL', (client) => client.hDel(key, fields));
    } while (cursor !== '0');
    return deleted;
  }

  /** False at once while the circuit is open; never throws. */
  async ping(): Promise<boolean> {
    try {
      return (await this.#run('PING', (client) => client.ping())) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.#state.closed) return;
    this.#state.closed = true;
    this.#destroySubscriber?.();
    const answering = this.#client.isReady && !this.#breaker.isOpen;
    this.#breaker.dispose();
    if (!answering) {
      if (this.#client.isOpen) await this.#client.destroy();
      return;
    }
    // A dead server must not keep shutdown waiting.
    const outcome = await within(this.#client.close(), CLOSE_GRACE_MS);
    if (outcome === EXPIRED && this.#client.isOpen) await this.#client.destroy();
  }

  async #run<T>(operation: string, command: (client: Client) => Promise<T>): Promise<T> {
    if (this.#state.closed)
      throw new StoreUnavailableError(`redis ${operation} refused: the connection is closed`);
    if (this.#breaker.isOpen) {
      throw new StoreUnavailableError(`redis ${operation} skipped: Redis did not answer; a probe is waiting`);
    }
    try {
      // node-redis times out only unsent commands; a sent one to a frozen server waits forever.
      const answer = await within(command(this.#client), this.#commandTimeoutMs);
      if (answer === EXPIRED) throw new Error(`no answer within ${this.#commandTimeoutMs} ms`);
      return answer;
    } catch (error) {
      // An error reply comes from a Redis that is there.
      if (!(error instanceof ErrorReply)) this.#breaker.trip(error);
      throw new StoreUnavailableError(`redis ${operation} failed: ${describeError(error)}`, { cause: error });
    }
  }
}
