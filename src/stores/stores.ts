// What a set of stores is, whichever way it stores.
import type { ContextStore, RatingStore } from '../conversation/stores.js';
import type { TokenCache } from '../platform/access-token.js';
import type { EntrySnapshotStore, QuestionLinkStore, ReviewStore } from '../review/stores.js';
import type { AssistantContextStore } from '../slack/assistant/stores.js';
import type { ChannelSettingsStore } from '../slack/channels/stores.js';
import type { NameCache, OnceStore, OperatorCache, TickClaims } from '../slack/handling/stores.js';
import type { SqliteLayers } from './sqlite-database.js';

export type StoreChoice =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string; layers?: SqliteLayers }
  | { kind: 'redis'; url: string; keyPrefix: string; commandTimeoutMs?: number };

export interface Stores {
  contexts: ContextStore;
  /** With Redis each process also remembers its own, so a claim is still decided while Redis is down. */
  deliveries: OnceStore;
  /** Apart from deliveries, which would evict the threads in one bounded store. */
  threads: OnceStore;
  /** Once per fleet, without the deliveries' in-process fallback: every replica would post the tick. */
  ticks: TickClaims;
  ratings: RatingStore;
  names: NameCache;
  reviewCards: ReviewStore;
  /** What an edit is prefilled from. */
  entrySnapshots: EntrySnapshotStore;
  questionLinks: QuestionLinkStore;
  operators: OperatorCache;
  channelSettings: ChannelSettingsStore;
  /** For whichever replica answers the panel's next question. */
  assistantContexts: AssistantContextStore;
  /** Undefined in memory: one process, nothing to share. */
  tokenCache: TokenCache | undefined;
  kind: 'memory' | 'redis' | 'sqlite';
  /** For the start-up line. */
  location: string;
  ping(): Promise<boolean>;
  /** With Redis the stores share one connection, so none closes alone. */
  close(): Promise<void>;
}
