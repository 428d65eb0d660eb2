// What a store contract runs against: an implementation opens a fleet of two replicas' stores on
// storage of their own, so that no test sees another's keys.
import { onTestFinished } from 'vitest';
import type { ContextStore, RatingStore } from '../../../../src/conversation/stores.js';
import type {
  EntrySnapshotStore,
  QuestionLinkStore,
  ReviewCardStore,
  ReviewStore,
  WorkspaceScoped,
} from '../../../../src/review/stores.js';
import type { QuestionField, RatingField } from '../../../../src/service-desk/daily-counts.js';
import type { AssistantContextStore } from '../../../../src/slack/assistant/stores.js';
import type { ChannelSettingsStore } from '../../../../src/slack/channels/stores.js';
import type {
  NameCache,
  OnceStore,
  OperatorCache,
  TickClaims,
} from '../../../../src/slack/handling/stores.js';
import type { BatchedDailyCounts } from '../../../../src/stores/daily-counts.js';
import type { Namespace, Namespaces } from '../../../../src/stores/namespace.js';

/** One replica's stores, each as the layer that uses it sees it. */
export interface ReplicaStores {
  namespace: Namespaces;
  contexts: ContextStore;
  claims: OnceStore;
  ticks: TickClaims;
  ratings: RatingStore;
  names: NameCache;
  reviewCards: ReviewCardStore;
  entrySnapshots: EntrySnapshotStore & WorkspaceScoped<EntrySnapshotStore>;
  questionLinks: QuestionLinkStore & WorkspaceScoped<QuestionLinkStore>;
  operators: OperatorCache;
  channelSettings: ChannelSettingsStore;
  assistantContexts: AssistantContextStore;
  escalations: Namespace<never>;
  panelTitles: Namespace<never>;
  dailyRatings: BatchedDailyCounts<RatingField>;
  dailyQuestions: BatchedDailyCounts<QuestionField>;
  forgetWorkspace(workspace: string): Promise<number>;
}

export interface StoreFleet {
  /** Two replicas of one deployment (in memory there is one process: the same stores twice). */
  replicas: [ReplicaStores, ReplicaStores];
  /** Holds a review card's lock as someone else would, until the returned release is called. */
  holdCard(id: string): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface FleetOptions {
  /** How long a review card change waits for another's lock. */
  lockWaitMs: number;
}

/** One way of storing: memory, Redis (a SQLite one is one more of these, and one line in the table). */
export interface StoreImplementation {
  name: string;
  open(options: FleetOptions): Promise<StoreFleet>;
}

// A lock left behind would show as ReviewCardBusyError after this wait, well inside the test timeout.
const WAIT_MS = 5_000;

/** A fleet for the running test, closed when it finishes. */
export async function openFleet(
  implementation: StoreImplementation,
  options: Partial<FleetOptions> = {},
): Promise<StoreFleet> {
  const fleet = await implementation.open({ lockWaitMs: options.lockWaitMs ?? WAIT_MS });
  onTestFinished(() => fleet.close());
  return fleet;
}

/** Milliseconds until the promise settles, with its rejection, if any. */
export async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  try {
    await promise;
    return { ms: Date.now() - started, error: undefined };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

/**
 * Holds a card's lock the way another handling would in one process: a change of the card that does
 * not finish until the returned release is called.
 */
export async function holdByChange(reviewCards: ReviewStore, id: string): Promise<() => Promise<void>> {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered = (): void => undefined;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const holding = reviewCards.change(id, async () => {
    entered();
    await gate;
    return { result: undefined };
  });
  await inside;
  return async () => {
    release();
    await holding;
  };
}
