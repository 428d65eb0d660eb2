// Every store on one Redis server: loaded by index.ts only when REDIS_URL is set.
import { RedisAssistantContextStore } from './assistant-contexts.js';
import { RedisChannelSettingsStore } from './channel-settings.js';
import { FallbackOnceStore } from './fallback-once-store.js';
import {
  RedisContextStore,
  RedisNameCache,
  RedisOnceStore,
  RedisRatingStore,
  RedisTickClaims,
  RedisTokenCache,
} from './redis.js';
import { RedisConnection, type StoreLogger } from './redis-connection.js';
import {
  RedisEntrySnapshotStore,
  RedisOperatorCache,
  RedisQuestionLinkStore,
  RedisReviewStore,
} from './review-redis.js';
import type { Stores } from './stores.js';

export interface RedisStoresOptions {
  maxEntries: number;
  ttlSeconds: number;
  logger?: StoreLogger;
  connectTimeoutMs?: number;
}

/** Rejects with StoreUnavailableError when Redis cannot be reached at start. */
export async function redisStores(
  state: { url: string; keyPrefix: string; commandTimeoutMs?: number },
  options: RedisStoresOptions,
): Promise<Stores> {
  const redis = await RedisConnection.connect({
    url: state.url,
    keyPrefix: state.keyPrefix,
    ...(state.commandTimeoutMs !== undefined ? { commandTimeoutMs: state.commandTimeoutMs } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
  });
  return {
    contexts: new RedisContextStore(redis, { ttlSeconds: options.ttlSeconds }),
    deliveries: new FallbackOnceStore(new RedisOnceStore(redis), { maxEntries: options.maxEntries }),
    threads: new RedisOnceStore(redis),
    ticks: new RedisTickClaims(redis),
    ratings: new RedisRatingStore(redis),
    names: new RedisNameCache(redis),
    reviewCards: new RedisReviewStore(redis),
    entrySnapshots: new RedisEntrySnapshotStore(redis),
    questionLinks: new RedisQuestionLinkStore(redis),
    operators: new RedisOperatorCache(redis),
    channelSettings: new RedisChannelSettingsStore(redis),
    assistantContexts: new RedisAssistantContextStore(redis),
    tokenCache: new RedisTokenCache(redis),
    kind: 'redis',
    location: redisLocation(state.url),
    ping: () => redis.ping(),
    close: () => redis.close(),
  };
}

/** Without credentials: the start-up line is logged. */
function redisLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'Redis';
  }
}
