// Every store contract, run against every way of storing. A new implementation is one line in the table.
import { describe } from 'vitest';
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
import { redisStores } from './contract/redis.js';
import {
  describeEntrySnapshotStoreContract,
  describeOperatorCacheContract,
  describeQuestionLinkStoreContract,
  describeReviewStoreContract,
} from './contract/review.js';
import { sqliteLayersOff, sqliteStores, sqliteStoresWithWorker } from './contract/sqlite.js';
import { describeForgetWorkspaceContract } from './contract/workspaces.js';

const implementations: StoreImplementation[] = [
  memoryStores,
  sqliteStores,
  sqliteStoresWithWorker,
  ...sqliteLayersOff,
  redisStores,
];

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
