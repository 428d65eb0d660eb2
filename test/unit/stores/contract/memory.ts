// The in-process stores as a fleet: one process, so both replicas are the same stores.
import { MemoryChannelSettingsStore } from '../../../../src/stores/channel-settings.js';
import { MemoryContextStore, MemoryOnceStore } from '../../../../src/stores/memory.js';
import { memoryNamespaces } from '../../../../src/stores/namespace.js';
import { MemoryReviewStore } from '../../../../src/stores/review-memory.js';
import { declaredNamespaces, forgetWorkspaceIn } from '../../../../src/stores/stores.js';
import { memoryRatings } from '../../../support/memory-stores.js';
import { holdByChange, type ReplicaStores, type StoreImplementation } from './fleet.js';

const bounds = { maxEntries: 1_000 };

export const memoryStores: StoreImplementation = {
  name: 'memory',
  async open({ lockWaitMs }) {
    const namespace = memoryNamespaces(bounds);
    const plain = declaredNamespaces(namespace, 60);
    const channelSettings = new MemoryChannelSettingsStore();
    const reviewCards = new MemoryReviewStore({ ...bounds, lockWaitMs });
    const stores: ReplicaStores = {
      namespace,
      ...plain,
      contexts: new MemoryContextStore({ ...bounds, ttlSeconds: 60 }),
      claims: new MemoryOnceStore(bounds),
      ratings: memoryRatings(bounds),
      reviewCards,
      channelSettings,
      forgetWorkspace: (workspace) =>
        forgetWorkspaceIn({ ...plain, channelSettings, reviewCards }, workspace),
    };
    return {
      replicas: [stores, stores],
      // In one process the lock is the card's queue: an earlier change that does not finish holds it.
      holdCard: (id) => holdByChange(stores.reviewCards, id),
      close: async () => undefined,
    };
  },
};
