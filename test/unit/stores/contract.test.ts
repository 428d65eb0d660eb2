// Every store contract, run against every way of storing. A new implementation is one line in the table.
import { describe, it } from 'vitest';
import { findSentinels } from '../../support/redis-sentinel.js';
import {
  describeContextStoreContract,
  describeNameCacheContract,
  describeRatingStoreContract,
} from './contract/answers.js';
import { describeAssistantContextStoreContract } from './contract/assistant.js';
import { describeChannelSettingsStoreContract } from './contract/channels.js';
import { describeOnceStoreContract, describeTickClaimsContract } from './contract/claims.js';
import type { StoreImplementation } from './contract/fleet.js';
import { memoryStores } from './contract/memory.js';
import { describeNamespaceContract } from './contract/namespace.js';
import { redisSentinelStores, redisStores } from './contract/redis.js';
import {
  describeEntrySnapshotStoreContract,
  describeOperatorCacheContract,
  describeQuestionLinkStoreContract,
  describeReviewStoreContract,
} from './contract/review.js';
import { sqliteLayersOff, sqliteStores, sqliteStoresWithWorker } from './contract/sqlite.js';
import { describeForgetWorkspaceContract } from './contract/workspaces.js';

// The primary, replica and sentinels of .ci/redis-sentinel; outside CI they may be missing.
const sentinel = await findSentinels();

const implementations: StoreImplementation[] = [
  memoryStores,
  sqliteStores,
  sqliteStoresWithWorker,
  ...sqliteLayersOff,
  redisStores,
  ...('missing' in sentinel ? [] : [redisSentinelStores(sentinel)]),
];

describe.skipIf(!('missing' in sentinel))('stores (Redis through Sentinel)', () => {
  it.skip(`skipped: ${'missing' in sentinel ? sentinel.missing : ''}`, () => undefined);
});

describe.each(implementations)('stores ($name)', (implementation) => {
  describeNamespaceContract(implementation);
  describeContextStoreContract(implementation);
  describeOnceStoreContract(implementation);
  describeTickClaimsContract(implementation);
  describeRatingStoreContract(implementation);
  describeNameCacheContract(implementation);
  describeReviewStoreContract(implementation);
  describeEntrySnapshotStoreContract(implementation);
  describeQuestionLinkStoreContract(implementation);
  describeOperatorCacheContract(implementation);
  describeChannelSettingsStoreContract(implementation);
  describeAssistantContextStoreContract(implementation);
  describeForgetWorkspaceContract(implementation);
});
