// Channel settings in each engine (in Redis one hash: one HGETALL reads every channel's); checked on read.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChannelSettingsStore, StoredChannelSettings } from '../slack/channels/stores.js';
import { storedChannelSettingsSchema } from '../slack/channels/stores.js';
import { parseJsonWith } from '../util/json.js';
import type { RedisConnection } from './redis-connection.js';
import { prefixEnd, type SqliteDatabase } from './sqlite-database.js';

/** Rows deleted per statement when a workspace's go: a short statement, a turn of the event loop between. */
const DELETE_BATCH = 500;

export class MemoryChannelSettingsStore implements ChannelSettingsStore {
  readonly #channels = new Map<string, StoredChannelSettings>();

  async all(): Promise<Map<string, StoredChannelSettings>> {
    return new Map([...this.#channels].map(([channelId, stored]) => [channelId, structuredClone(stored)]));
  }

  async get(channelId: string): Promise<StoredChannelSettings | undefined> {
    const stored = this.#channels.get(channelId);
    return stored && structuredClone(stored);
  }

  async put(channelId: string, stored: StoredChannelSettings): Promise<void> {
    this.#channels.set(channelId, structuredClone(stored));
  }

  async delete(channelId: string): Promise<void> {
    this.#channels.delete(channelId);
  }

  /** Every channel whose key starts with `prefix` (a workspace's, `T1:`); how many went. */
  async deleteStartingWith(prefix: string): Promise<number> {
    const doomed = [...this.#channels.keys()].filter((channelId) => channelId.startsWith(prefix));
    for (const channelId of doomed) this.#channels.delete(channelId);
    return doomed.length;
  }

  clear(): void {
    this.#channels.clear();
  }
}

const read = (raw: unknown) =>
  typeof raw === 'string' ? parseJsonWith(raw, storedChannelSettingsSchema) : undefined;

/** The channels whose settings read back, skipping those that do not. */
function readAll(rows: Iterable<readonly [unknown, unknown]>): Map<string, StoredChannelSettings> {
  const channels = new Map<string, StoredChannelSettings>();
  for (const [channelId, raw] of rows) {
    const stored = read(raw);
    if (stored && typeof channelId === 'string') channels.set(channelId, stored);
  }
  return channels;
}

export class SqliteChannelSettingsStore implements ChannelSettingsStore {
  readonly #all;
  readonly #get;
  readonly #put;
  readonly #delete;
  readonly #deleteRange;

  constructor(db: SqliteDatabase) {
    this.#all = db.prepare('SELECT channel, value FROM channel_settings');
    this.#get = db.prepare('SELECT value FROM channel_settings WHERE channel = ?');
    this.#put = db.prepare(
      `INSERT INTO channel_settings (channel, value) VALUES (?, ?)
       ON CONFLICT (channel) DO UPDATE SET value = excluded.value`,
    );
    this.#delete = db.prepare('DELETE FROM channel_settings WHERE channel = ?');
    this.#deleteRange = db.prepare(
      `DELETE FROM channel_settings WHERE channel IN
       (SELECT channel FROM channel_settings WHERE channel >= ? AND channel < ? LIMIT ?)`,
    );
  }

  async all(): Promise<Map<string, StoredChannelSettings>> {
    return readAll(this.#all.all().map((row) => [row.channel, row.value] as const));
  }

  async get(channelId: string): Promise<StoredChannelSettings | undefined> {
    return read(this.#get.get(channelId)?.value);
  }

  async put(channelId: string, stored: StoredChannelSettings): Promise<void> {
    this.#put.run(channelId, JSON.stringify(stored));
  }

  async delete(channelId: string): Promise<void> {
    this.#delete.run(channelId);
  }

  /** A range of the primary key (`prefix` is printable ASCII), DELETE_BATCH rows a statement. */
  async deleteStartingWith(prefix: string): Promise<number> {
    const end = prefixEnd(prefix);
    let deleted = 0;
    for (;;) {
      const changes = Number(this.#deleteRange.run(prefix, end, DELETE_BATCH).changes);
      deleted += changes;
      if (changes < DELETE_BATCH) return deleted;
      await nextTurn();
    }
  }
}

export class RedisChannelSettingsStore implements ChannelSettingsStore {
  readonly #redis: RedisConnection;
  readonly #key: string;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
    this.#key = `${redis.keyPrefix}channel-settings`;
  }

  async all(): Promise<Map<string, StoredChannelSettings>> {
    return readAll(Object.entries(await this.#redis.hgetall(this.#key)));
  }

  async get(channelId: string): Promise<StoredChannelSettings | undefined> {
    return read(await this.#redis.hget(this.#key, channelId));
  }

  async put(channelId: string, stored: StoredChannelSettings): Promise<void> {
    await this.#redis.hset(this.#key, channelId, JSON.stringify(stored));
  }

  async delete(channelId: string): Promise<void> {
    await this.#redis.hdel(this.#key, channelId);
  }

  deleteStartingWith(prefix: string): Promise<number> {
    return this.#redis.hdelStartingWith(this.#key, prefix);
  }
}
