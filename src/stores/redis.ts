// The Redis engine's strings: a namespace's keys are `<prefix><name>:<key>`, on the process's one
// connection and its circuit breaker.
import { KeptTokenCache } from './kept-stores.js';
import { KeptNamespace, type KeptStrings, type Namespaces } from './namespace.js';
import type { RedisCommands } from './redis-connection.js';

export class RedisStrings implements KeptStrings {
  readonly #redis: RedisCommands;
  /** What every key of this namespace starts with after the prefix (`name:`, or a whole key). */
  readonly #namespace: string;

  constructor(redis: RedisCommands, namespace: string) {
    this.#redis = redis;
    this.#namespace = namespace;
  }

  /** For commands beyond these (a guarded write, a scan). */
  key(id: string): string {
    return `${this.#redis.keyPrefix}${this.#namespace}${id}`;
  }

  raw(id: string): Promise<string | undefined> {
    return this.#redis.get(this.key(id));
  }

  setRaw(
    id: string,
    raw: string,
    ttlSeconds: number,
    options?: { onlyIfAbsent?: boolean },
  ): Promise<boolean> {
    return this.#redis.set(this.key(id), raw, ttlSeconds, options);
  }

  delete(id: string): Promise<void> {
    return this.#redis.del(this.key(id));
  }

  deleteIfEquals(id: string, raw: string): Promise<boolean> {
    return this.#redis.delIfEquals(this.key(id), raw);
  }

  deleteStartingWith(prefix: string): Promise<number> {
    return this.#redis.deleteStartingWith(this.key(prefix));
  }
}

export function redisNamespaces(redis: RedisCommands): Namespaces {
  return (name, options) => new KeptNamespace(new RedisStrings(redis, `${name}:`), name, options);
}

/** The platform token is one key, `<prefix>platform-token`, its renewal lock beside it. */
export function redisTokenCache(redis: RedisCommands): KeptTokenCache {
  return new KeptTokenCache(
    new RedisStrings(redis, 'platform-token'),
    new RedisStrings(redis, 'platform-token:renewing'),
  );
}
