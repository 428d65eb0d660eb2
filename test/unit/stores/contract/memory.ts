// The in-process stores as a fleet: one process, so both replicas are the same stores.
import { MemoryAssistantContextStore } from '../../../../src/stores/assistant-contexts.js';
import { MemoryChannelSettingsStore } from '../../../../src/stores/channel-settings.js';
import {
  MemoryContextStore,
  MemoryNameCache,
  MemoryOnceStore,
  MemoryRatingStore,
} from '../../../../src/stores/memory.js';
import {
  MemoryEntrySnapshotStore,
  MemoryOperatorCache,
  MemoryQuestionLinkStore,
  MemoryReviewStore,
} from '../../../../src/stores/review-memory.js';
import { holdByChange, type ReplicaStores, type StoreImplementation } from './fleet.js';

const bounds = { maxEntries: 1_000 };

export const memoryStores: StoreImplementation = {
  name: 'memory',
  async open({ lockWaitMs }) {
    const stores: ReplicaStores = {
      contexts: new MemoryContextStore({ ...bounds, ttlSeconds: 60 }),
      claims: new MemoryOnceStore(bounds),
      ticks: new MemoryOnceStore(bounds),
      ratings: new MemoryRatingStore(bounds),
      names: new MemoryNameCache(bounds),
      reviewCards: new MemoryReviewStore({ ...bounds, lockWaitMs }),
      entrySnapshots: new MemoryEntrySnapshotStore(bounds),
      questionLinks: new MemoryQuestionLinkStore(bounds),
      operators: new MemoryOperatorCache(),
      channelSettings: new MemoryChannelSettingsStore(),
      assistantContexts: new MemoryAssistantContextStore(bounds),
    };
    return {
      replicas: [stores, stores],
      // In one process the lock is the card's queue: an earlier change that does not finish holds it.
      holdCard: (id) => holdByChange(stores.reviewCards, id),
      close: async () => undefined,
    };
  },
};
