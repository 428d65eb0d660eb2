// Wraps the stores' reads so hits, misses and errors are counted, without the stores knowing.
import type { ContextStore } from '../conversation/stores.js';
import type { NameCache } from '../slack/handling/stores.js';
import type { StoreName, StoreResult } from './metrics.js';

type Count = (store: StoreName, result: StoreResult) => void;

async function counted<T>(store: StoreName, count: Count, read: () => Promise<T | undefined>) {
  try {
    const value = await read();
    count(store, value === undefined ? 'miss' : 'hit');
    return value;
  } catch (error) {
    count(store, 'error');
    throw error;
  }
}

export function meteredContextStore(inner: ContextStore, count: Count): ContextStore {
  return {
    put: (key, context) => inner.put(key, context),
    get: (key) => counted('contexts', count, () => inner.get(key)),
  };
}

export function meteredNameCache(inner: NameCache, count: Count): NameCache {
  return {
    get: (userId) => counted('names', count, () => inner.get(userId)),
    set: (userId, name, ttlSeconds) => inner.set(userId, name, ttlSeconds),
  };
}
