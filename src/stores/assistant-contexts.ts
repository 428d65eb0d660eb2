// The channel beside each assistant thread, in each engine; values are checked when read back.
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
