// Every store contract, run against every way of storing. A new implementation is one line in the table.
// Redis through Sentinel runs in test/e2e/gateway/redis-sentinel.test.ts, before its primary is killed; the
// Redis Cluster from .ci/redis-cluster is required where CI is set, and skipped without it elsewhere.
import { describe, it } from 'vitest';
import { findCluster } from '../../support/redis-cluster.js';
import { describeStoreContracts } from './contract/all.js';
import type { StoreImplementation } from './contract/fleet.js';
import { memoryStores } from './contract/memory.js';
import { redisClusterStores, redisStores } from './contract/redis.js';
import { sqliteLayersOff, sqliteStores, sqliteStoresWithWorker } from './contract/sqlite.js';

const cluster = await findCluster();

const implementations: StoreImplementation[] = [
  memoryStores,
  sqliteStores,
  sqliteStoresWithWorker,
  ...sqliteLayersOff,
  redisStores,
  ...('missing' in cluster ? [] : [redisClusterStores(cluster)]),
];

describe.each(implementations)('stores ($name)', (implementation) => {
  describeStoreContracts(implementation);
});

if ('missing' in cluster) {
  describe('stores (Redis Cluster, two replicas)', () => {
    it.skip(`skipped: ${cluster.missing}`, () => undefined);
  });
}
