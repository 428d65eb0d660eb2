// The Redis stores as a fleet: two connections (two replicas) under a key prefix of the fleet's own,
// on the real Redis at 127.0.0.1:6379, through the test's Sentinel or on the test's Redis Cluster; closing
// deletes that prefix's keys and nothing else.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { RedisChannelSettingsStore } from '../../../../src/stores/channel-settings.js';
import { KeptOnceStore, KeptRatingStore, keptContexts } from '../../../../src/stores/kept-stores.js';
import { redisNamespaces, redisStrings } from '../../../../src/stores/redis.js';
import type { RedisServer } from '../../../../src/stores/redis-client.js';
import { RedisConnection } from '../../../../src/stores/redis-connection.js';
import { RedisReviewStore } from '../../../../src/stores/review-redis.js';
import { declaredNamespaces, forgetWorkspaceIn } from '../../../../src/stores/stores.js';
import { type ClusterSetup, deleteKeysOnCluster } from '../../../support/redis-cluster.js';
import { deleteKeysOnPrimary, type SentinelSetup } from '../../../support/redis-sentinel.js';
import { deleteKeysWithPrefix } from '../../../support/redis-server.js';
import type { FleetOptions, ReplicaStores, StoreFleet, StoreImplementation } from './fleet.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

function replica(connection: RedisConnection, { lockWaitMs }: FleetOptions): ReplicaStores {
  const namespace = redisNamespaces(connection);
  const plain = declaredNamespaces(namespace, 60);
  const channelSettings = new RedisChannelSettingsStore(connection);
  const reviewCards = new RedisReviewStore(connection, { lockWaitMs, lockPollMs: 5 });
  return {
    namespace,
    ...plain,
    contexts: keptContexts(namespace, 60),
    claims: new KeptOnceStore(redisStrings(connection, 'once:')),
    ratings: new KeptRatingStore(redisStrings(connection, 'rated:')),
    reviewCards,
    channelSettings,
    forgetWorkspace: (workspace) => forgetWorkspaceIn({ ...plain, channelSettings, reviewCards }, workspace),
  };
}

function redisFleet(
  name: string,
  server: RedisServer,
  deleteKeys: (keyPrefix: string) => Promise<void>,
): StoreImplementation {
  return {
    name,
    open: (options) => openRedisFleet(server, deleteKeys, options),
  };
}

export const redisStores = redisFleet('Redis, two replicas', { kind: 'url', url: REDIS_URL }, (keyPrefix) =>
  deleteKeysWithPrefix(keyPrefix),
);

/** The same through Sentinel: the scripts, MULTI, SCAN and pub/sub on the primary it names. */
export function redisSentinelStores(setup: SentinelSetup): StoreImplementation {
  const server = { kind: 'sentinel', name: setup.name, sentinels: setup.sentinels } as const;
  return redisFleet('Redis through Sentinel, two replicas', server, (keyPrefix) =>
    deleteKeysOnPrimary(setup, keyPrefix),
  );
}

/**
 * The same on a Redis Cluster, whose nodes refuse a script or transaction whose keys lie in two slots
 * (CROSSSLOT): every one the stores send runs here.
 */
export function redisClusterStores(setup: ClusterSetup): StoreImplementation {
  return redisFleet('Redis Cluster, two replicas', { kind: 'cluster', nodes: setup.nodes }, (keyPrefix) =>
    deleteKeysOnCluster(setup, keyPrefix),
  );
}

async function openRedisFleet(
  server: RedisServer,
  deleteKeys: (keyPrefix: string) => Promise<void>,
  options: FleetOptions,
): Promise<StoreFleet> {
  const keyPrefix = `test:contract:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const a = await RedisConnection.connect({ server, keyPrefix });
  const b = await RedisConnection.connect({ server, keyPrefix });
  return {
    replicas: [replica(a, options), replica(b, options)],
    // Another replica's lock, with a TTL far past any wait here; hash-tagged with the card's key.
    async holdCard(id) {
      const lockKey = `${keyPrefix}review-lock:{${keyPrefix}review-card:${id}}`;
      await a.set(lockKey, 'someone-else', 30);
      return async () => {
        // A replica that gave up never released a lock it does not own.
        expect(await a.get(lockKey)).toBe('someone-else');
        await a.del(lockKey);
      };
    },
    async close() {
      await a.close();
      await b.close();
      await deleteKeys(keyPrefix);
    },
  };
}
