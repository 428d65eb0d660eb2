// Every store contract, run against every way of storing. A new implementation is one line in the table.
// Redis through Sentinel runs in test/e2e/gateway/redis-sentinel.test.ts, before its primary is killed.
import { describe } from 'vitest';
import { describeStoreContracts } from './contract/all.js';
import type { StoreImplementation } from './contract/fleet.js';
import { memoryStores } from './contract/memory.js';
import { redisStores } from './contract/redis.js';
import { sqliteLayersOff, sqliteStores, sqliteStoresWithWorker } from './contract/sqlite.js';

const implementations: StoreImplementation[] = [
  memoryStores,
  sqliteStores,
  sqliteStoresWithWorker,
  ...sqliteLayersOff,
  redisStores,
];

describe.each(implementations)('stores ($name)', (implementation) => {
  describeStoreContracts(implementation);
});
