// Wraps the stores' reads so hits, misses and errors are counted, and, with tracing on, each call is a span.
import type { ContextStore } from '../conversation/stores.js';
import type { NameCache, OnceStore } from '../slack/handling/stores.js';
import type { Metrics, StoreName } from './metrics.js';
import { traceHooks } from './tracing-hooks.js';

type Lookups = Pick<Metrics, 'storeLookup'>;

async function counted<T>(store: StoreName, metrics: Lookups, read: () => Promise<T | undefined>) {
  try {
    const value = await read();
    metrics.storeLookup(store, value === undefined ? 'miss' : 'hit');
    return value;
  } catch (error) {
    metrics.storeLookup(store, 'error');
    throw error;
  }
}

export function meteredContextStore(inner: ContextStore, metrics: Lookups): ContextStore {
  const metered: ContextStore = {
    put: (key, context) => inner.put(key, context),
    get: (key) => counted('contexts', metrics, () => inner.get(key)),
  };
  const tracing = traceHooks();
  // Decided here, once: with tracing off the calls go straight through.
  if (!tracing) return metered;
  return {
    put: (key, context) => tracing.storeCall('contexts', 'put', () => metered.put(key, context)),
    get: (key) => tracing.storeCall('contexts', 'get', () => metered.get(key)),
  };
}

export function meteredNameCache(inner: NameCache, metrics: Lookups): NameCache {
  const metered: NameCache = {
    get: (userId) => counted('names', metrics, () => inner.get(userId)),
    set: (userId, name, ttlSeconds) => inner.set(userId, name, ttlSeconds),
  };
  const tracing = traceHooks();
  if (!tracing) return metered;
  return {
    get: (userId) => tracing.storeCall('names', 'get', () => metered.get(userId)),
    set: (userId, name, ttlSeconds) =>
      tracing.storeCall('names', 'set', () => metered.set(userId, name, ttlSeconds)),
  };
}

/** Claims (deliveries, threads) are not counted; with tracing on, each call is a span all the same. */
export function tracedOnceStore(store: 'deliveries' | 'threads', inner: OnceStore): OnceStore {
  const tracing = traceHooks();
  if (!tracing) return inner;
  return {
    claim: (key, ttlSeconds) => tracing.storeCall(store, 'claim', () => inner.claim(key, ttlSeconds)),
    has: (key) => tracing.storeCall(store, 'has', () => inner.has(key)),
    release: (key) => tracing.storeCall(store, 'release', () => inner.release(key)),
    keep: (key, ttlSeconds) => tracing.storeCall(store, 'keep', () => inner.keep(key, ttlSeconds)),
  };
}
