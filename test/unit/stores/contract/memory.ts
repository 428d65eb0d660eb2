// The in-process stores as a fleet: one process, so both replicas are the same stores.
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
  MemoryReviewStore,
} from '../../../../src/stores/review-memory.js';
import type { ReplicaStores, StoreImplementation } from './fleet.js';

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
      operators: new MemoryOperatorCache(),
      channelSettings: new MemoryChannelSettingsStore(),
    };
    return {
      replicas: [stores, stores],
      // In one process the lock is the card's queue: an earlier change that does not finish holds it.
      async holdCard(id) {
        let release = (): void => undefined;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let entered = (): void => undefined;
        const inside = new Promise<void>((resolve) => {
          entered = resolve;
        });
        const holding = stores.reviewCards.change(id, async () => {
          entered();
          await gate;
          return { result: undefined };
        });
        await inside;
        return async () => {
          release();
          await holding;
        };
      },
      close: async () => undefined,
    };
  },
};
