// The Redis engine's strings: a namespace's keys are `<prefix><name>:<key>`, on the process's one
// connection and its circuit breaker.
import { KeptTokenCache } from './kept-stores.js';
import { KeptNamespace, type KeptStrings, type Namespaces } from './namespace.js';
import type { RedisCommands } from './redis-connection.js';

/** A Redis namespace's strings, and its keys for commands beyond these (a guarded write, a scan). */
export interface RedisStrings extends KeptStrings {
  key(id: string): string;
}

/** `namespace`: what its keys start with after the prefix (`name:`, or a whole key). */
export function redisStrings(redis: RedisCommands, namespace: string): RedisStrings {
  const key = (id: string) => `${redis.keyPrefix}${namespace}${id}`;
  return {
    key,
    raw: (id) => redis.get(key(id)),
    setRaw: (id, raw, ttlSeconds, options) => redis.set(key(id), raw, ttlSeconds, options),
    delete: (id) => redis.del(key(id)),
    deleteIfEquals: (id, raw) => redis.delIfEquals(key(id), raw),
    deleteStartingWith: (prefix) => redis.deleteStartingWith(key(prefix)),
  };
}

export function redisNamespaces(redis: RedisCommands): Namespaces {
  return (name, options) => new KeptNamespace(redisStrings(redis, `${name}:`), name, options);
}

/** The platform token is one key, `<prefix>platform-token`, its renewal lock beside it. */
export function redisTokenCache(redis: RedisCommands): KeptTokenCache {
  return new KeptTokenCache(
    redisStrings(redis, 'platform-token'),
    redisStrings(redis, 'platform-token:renewing'),
  );
}
