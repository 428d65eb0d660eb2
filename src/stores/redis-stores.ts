// Every store on one Redis (a server, Sentinel's primary or a cluster), loaded by index.ts only with Redis.
import { RedisChannelSettingsStore } from './channel-settings.js';
import { FallbackOnceStore } from './fallback-once-store.js';
import { KeptOnceStore, KeptRatingStore, keptContexts } from './kept-stores.js';
import { redisNamespaces, redisStrings, redisTokenCache } from './redis.js';
import { type RedisServer, redisLocation } from './redis-client.js';
import { RedisConnection, type StoreLogger } from './redis-connection.js';
import { RedisReviewStore } from './review-redis.js';
import { countsLost, type EngineStores, type Stores, withDeclaredNamespaces } from './stores.js';

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
    commandTimeoutMs: state.commandTimeoutMs,
    logger: options.logger,
    connectTimeoutMs: options.connectTimeoutMs,
  });
  const namespace = redisNamespaces(redis);
  const once = redisStrings(redis, 'once:');
  const engine: EngineStores = {
    namespace,
    contexts: keptContexts(namespace, options.ttlSeconds),
    deliveries: new FallbackOnceStore(new KeptOnceStore(once), { maxEntries: options.maxEntries }),
    // Under `once:` as deliveries are, as they always were.
    threads: new KeptOnceStore(once),
    ratings: new KeptRatingStore(redisStrings(redis, 'rated:')),
    reviewCards: new RedisReviewStore(redis),
    channelSettings: new RedisChannelSettingsStore(redis),
    tokenCache: redisTokenCache(redis),
    changes: {
      publish: (topic, key) => redis.publish(topic, key),
      subscribe: (topic, on) => redis.subscribe(topic, on),
    },
    kind: 'redis',
    location: redisLocation(state.server),
    ping: () => redis.ping(),
    close: () => redis.close(),
  };
  return withDeclaredNamespaces(engine, options.ttlSeconds, countsLost(options.logger));
}
