// The one place where a store's value becomes a Redis string and back, checked with zod when read.
import type { z } from 'zod';
import { parseJsonWith } from '../util/json.js';
import type { RedisCommands } from './redis-connection.js';

type StoredValue<T> = { kind: 'value'; value: T } | { kind: 'missing' } | { kind: 'unreadable' };

export class RedisJsonStore<T> {
  readonly #redis: RedisCommands;
  readonly #namespace: string;
  readonly #schema: z.ZodType<T>;

  constructor(redis: RedisCommands, namespace: string, schema: z.ZodType<T>) {
    this.#redis = redis;
    this.#namespace = namespace;
    this.#schema = schema;
  }

  /** For commands beyond get and set (a guarded write, a lock beside it). */
  key(id: string): string {
    return `${this.#redis.keyPrefix}${this.#namespace}${id}`;
  }

  /** Undefined too when what is stored does not parse: it is no value. */
  async get(id: string): Promise<T | undefined> {
    const read = await this.read(id);
    return read.kind === 'value' ? read.value : undefined;
  }

  raw(id: string): Promise<string | undefined> {
    return this.#redis.get(this.key(id));
  }

  /** Tells a missing key from one holding what does not parse (which a writer may replace). */
  async read(id: string): Promise<StoredValue<T>> {
    const raw = await this.raw(id);
    if (raw === undefined) return { kind: 'missing' };
    const value = parseJsonWith(raw, this.#schema);
    return value === undefined ? { kind: 'unreadable' } : { kind: 'value', value };
  }

  /** With `onlyIfAbsent`, false when the key was taken and nothing was written. */
  async set(
    id: string,
    value: T,
    ttlSeconds: number,
    options?: { onlyIfAbsent?: boolean },
  ): Promise<boolean> {
    return this.setRaw(id, JSON.stringify(value), ttlSeconds, options);
  }

  setRaw(
    id: string,
    raw: string,
    ttlSeconds: number,
    options?: { onlyIfAbsent?: boolean },
  ): Promise<boolean> {
    return this.#redis.set(this.key(id), raw, ttlSeconds, options);
  }

  async delete(id: string): Promise<void> {
    await this.#redis.del(this.key(id));
  }

  deleteIfEquals(id: string, raw: string): Promise<boolean> {
    return this.#redis.delIfEquals(this.key(id), raw);
  }

  deleteStartingWith(prefix: string): Promise<number> {
    return this.#redis.deleteStartingWith(this.key(prefix));
  }

  async has(id: string): Promise<boolean> {
    return this.#redis.exists(this.key(id));
  }
}
