// Every store contract against one implementation: what "a way of storing" has to pass.
import {
  describeContextStoreContract,
  describeNameCacheContract,
  describeRatingStoreContract,
} from './answers.js';
import { describeAssistantContextStoreContract } from './assistant.js';
import { describeChannelSettingsStoreContract } from './channels.js';
import { describeOnceStoreContract, describeTickClaimsContract } from './claims.js';
import { describeDailyCountStoreContract } from './daily-counts.js';
import type { StoreImplementation } from './fleet.js';
import { describeNamespaceContract } from './namespace.js';
import {
  describeEntrySnapshotStoreContract,
  describeOperatorCacheContract,
  describeQuestionLinkStoreContract,
  describeReviewStoreContract,
} from './review.js';
import { describeForgetWorkspaceContract } from './workspaces.js';

export function describeStoreContracts(implementation: StoreImplementation): void {
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
  describeDailyCountStoreContract(implementation);
}
