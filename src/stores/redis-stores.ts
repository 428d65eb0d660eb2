// Every store on one Redis (a server, Sentinel's primary or a cluster), loaded by index.ts only with Redis.
import { RedisChannelSettingsStore } from './channel-settings.js';
import { FallbackOnceStore } from './fallback-once-store.js';
import {
  RedisContextStore,
  RedisOnceStore,
  RedisRatingStore,
  RedisTokenCache,
  redisNamespaces,
} from './redis.js';
import { type RedisServer, redisLocation } from './redis-client.js';
import { RedisConnection, type StoreLogger } from './redis-connection.js';
import { RedisReviewStore } from './review-redis.js';
import {
  countsLost,
  declaredNamespaces,
  flushDailyCounts,
  forgetWorkspaceIn,
  type Stores,
} from './stores.js';

export interface RedisStoresOptions {
  maxEntries: number;
  ttlSeconds: number;
  logger?: StoreLogger;
  connectTimeoutMs?: number;
}

/** Rejects with StoreUnavailableError when Redis cannot be reached at start. */
export async function redisStores(
  state: { server: RedisServer; keyPrefix: string; commandTimeoutMs?: number },
  options: RedisStoresOptions,
): Promise<Stores> {
  const redis = await RedisConnection.connect({
    server: state.server,
    keyPrefix: state.keyPrefix,
    ...(state.commandTimeoutMs !== undefined ? { commandTimeoutMs: state.commandTimeoutMs } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
  });
  const namespace = redisNamespaces(redis);
  const plain = declaredNamespaces(namespace, options.ttlSeconds, countsLost(options.logger));
  const channelSettings = new RedisChannelSettingsStore(redis);
  const reviewCards = new RedisReviewStore(redis);
  return {
    ...plain,
    namespace,
    contexts: new RedisContextStore(redis, { ttlSeconds: options.ttlSeconds }),
    deliveries: new FallbackOnceStore(new RedisOnceStore(redis), { maxEntries: options.maxEntries }),
    threads: new RedisOnceStore(redis),
    ratings: new RedisRatingStore(redis),
    reviewCards,
    channelSettings,
    forgetWorkspace: (workspace) => forgetWorkspaceIn({ ...plain, channelSettings, reviewCards }, workspace),
    tokenCache: new RedisTokenCache(redis),
    changes: {
      publish: (topic, key) => redis.publish(topic, key),
      subscribe: (topic, on) => redis.subscribe(topic, on),
    },
    kind: 'redis',
    location: redisLocation(state.server),
    ping: () => redis.ping(),
    close: async () => {
      const counting = flushDailyCounts(plain);
      if (counting) await counting;
      await redis.close();
    },
  };
}
