// The channel beside each assistant thread, in each way of storing: an LRU in process, a namespace of
// the SQLite file's key/value table, a JSON namespace in Redis. Values are checked when read back.
import { LRUCache } from 'lru-cache';
import { type AssistantContextStore, contextChannelSchema } from '../slack/assistant/stores.js';
import type { RedisCommands } from './redis-connection.js';
import { RedisJsonStore } from './redis-json-store.js';
import { type Clock, type KvTable, SqliteJsonStore } from './sqlite-database.js';

export class MemoryAssistantContextStore implements AssistantContextStore {
  readonly #channels: LRUCache<string, string>;

  constructor(options: { maxEntries: number }) {
    this.#channels = new LRUCache<string, string>({ max: options.maxEntries });
  }

  async get(threadKey: string): Promise<string | undefined> {
    return this.#channels.get(threadKey);
  }

  async set(threadKey: string, channelId: string, ttlSeconds: number): Promise<void> {
    this.#channels.set(threadKey, channelId, { ttl: ttlSeconds * 1000 });
  }

  /** Drops every entry; the store set's close() calls it. */
  clear(): void {
    this.#channels.clear();
  }
}

export class SqliteAssistantContextStore implements AssistantContextStore {
  readonly #channels: SqliteJsonStore<string>;

  constructor(kv: KvTable, now: Clock) {
    this.#channels = new SqliteJsonStore(kv, 'assistant-context', contextChannelSchema, now);
  }

  async get(threadKey: string): Promise<string | undefined> {
    return this.#channels.get(threadKey);
  }

  async set(threadKey: string, channelId: string, ttlSeconds: number): Promise<void> {
    this.#channels.set(threadKey, channelId, ttlSeconds);
  }
}

export class RedisAssistantContextStore implements AssistantContextStore {
  readonly #channels: RedisJsonStore<string>;

  constructor(redis: RedisCommands) {
    this.#channels = new RedisJsonStore(redis, 'assistant-context:', contextChannelSchema);
  }

  get(threadKey: string): Promise<string | undefined> {
    return this.#channels.get(threadKey);
  }

  async set(threadKey: string, channelId: string, ttlSeconds: number): Promise<void> {
    await this.#channels.set(threadKey, channelId, ttlSeconds);
  }
}
