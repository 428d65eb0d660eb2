// What a set of stores is, whichever way it stores: the composition root holds one set per process.
import type { ContextStore, RatingStore } from '../conversation/stores.js';
import type { TokenCache } from '../platform/access-token.js';
import type { EntrySnapshotStore, QuestionLinkStore, ReviewStore } from '../review/stores.js';
import type { AssistantContextStore } from '../slack/assistant/stores.js';
import type { ChannelSettingsStore } from '../slack/channels/stores.js';
import type { NameCache, OnceStore, OperatorCache, TickClaims } from '../slack/handling/stores.js';

/** Where the state lives: one process's memory, a SQLite file (one replica), or Redis (a fleet). */
export type StoreChoice =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string }
  | { kind: 'redis'; url: string; keyPrefix: string; commandTimeoutMs?: number };

export interface Stores {
  contexts: ContextStore;
  /**
   * Slack deliveries seen, so a retried or duplicated one is answered once. With Redis, each process
   * also remembers its own, so while Redis is down a claim is still decided, for that process alone.
   */
  deliveries: OnceStore;
  /**
   * Threads the app is answering. Apart from the deliveries: in one bounded store a busy workspace's
   * deliveries would evict the threads (follow-ups then go unheard) and the reverse.
   */
  threads: OnceStore;
  /**
   * Scheduled ticks (the digest), claimed once per fleet. Apart from the deliveries, and without their
   * in-process fallback: a tick every replica decided alone would be posted by every replica.
   */
  ticks: TickClaims;
  ratings: RatingStore;
  names: NameCache;
  /** Review cards, changed one at a time across replicas. */
  reviewCards: ReviewStore;
  /** What the robot last answered from each knowledge entry (what an edit is prefilled from). */
  entrySnapshots: EntrySnapshotStore;
  /** Unanswered questions operators linked to the entries that answer them. */
  questionLinks: QuestionLinkStore;
  /** The operators' user group members. */
  operators: OperatorCache;
  /** Each channel's settings, kept until reset. */
  channelSettings: ChannelSettingsStore;
  /** The channel beside each assistant panel thread, for whichever replica answers its next question. */
  assistantContexts: AssistantContextStore;
  /** The platform token shared by all replicas; undefined in memory (one process, nothing to share). */
  tokenCache: TokenCache | undefined;
  kind: 'memory' | 'redis' | 'sqlite';
  /** Where the state is, for the start-up line: the file, the Redis server, or this process. */
  location: string;
  /** For readiness probes: false while the backend is unreachable. */
  ping(): Promise<boolean>;
  /** One close for the whole set: with Redis the stores share one connection, so none closes alone. */
  close(): Promise<void>;
}
