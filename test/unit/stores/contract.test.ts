// Every store contract, run against every way of storing. A new implementation is one line in the table.
import { describe } from 'vitest';
import {
  describeContextStoreContract,
  describeNameCacheContract,
  describeRatingStoreContract,
} from './contract/answers.js';
import { describeOnceStoreContract, describeTickClaimsContract } from './contract/claims.js';
import type { StoreImplementation } from './contract/fleet.js';
import { memoryStores } from './contract/memory.js';
import { redisStores } from './contract/redis.js';
import {
  describeEntrySnapshotStoreContract,
  describeOperatorCacheContract,
  describeReviewStoreContract,
} from './contract/review.js';

const implementations: StoreImplementation[] = [memoryStores, redisStores];
// node:sqlite needs Node 22.13 or newer, and CI still runs Node 20 too: the SQLite run is added only
// where it loads. The persistence issue (#18) moves CI to Node 22 and 24 and removes this guard.
if (process.getBuiltinModule?.('node:sqlite')) {
  const { sqliteStores } = await import('./contract/sqlite.js');
  implementations.push(sqliteStores);
}

describe.each(implementations)('stores ($name)', (implementation) => {
  describeContextStoreContract(implementation);
  describeOnceStoreContract(implementation);
  describeTickClaimsContract(implementation);
  describeRatingStoreContract(implementation);
  describeNameCacheContract(implementation);
  describeReviewStoreContract(implementation);
  describeEntrySnapshotStoreContract(implementation);
  describeOperatorCacheContract(implementation);
});
