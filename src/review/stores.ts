// The storage the review loop needs; src/stores implements it in memory and in Redis, so cards,
// counts and what the gateway saw of each entry are shared by every replica.
import { CodedError } from '../util/coded-error.js';
import type { EntrySnapshot, ReviewCard } from './types.js';

/** Review cards by id, changed one at a time across replicas. */
export interface ReviewStore {
  /**
   * Runs `change` on the card's current state (undefined: none yet, or expired) while holding a lock
   * every replica honours, and stores the card it returns (none: the stored card is left as it was).
   * `change` may call Slack; the lock outlives a slow call (it expires after the store's lock TTL).
   * Throws ReviewCardBusyError when the lock is not had within the wait, StoreUnavailableError when
   * the backend is down.
   */
  change<T>(
    cardId: string,
    change: (card: ReviewCard | undefined) => Promise<{ card?: ReviewCard; result: T }>,
  ): Promise<T>;
  get(cardId: string): Promise<ReviewCard | undefined>;
  /**
   * The open cards of a kind, most reported first, at most `limit` of them, and how many are open
   * in all: what waits for the operators (the Home tab shows it).
   */
  openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards>;
}

export interface OpenCards {
  /** How many cards of the kind are open. */
  total: number;
  /** The most reported of them (highest count first). */
  cards: ReviewCard[];
}

/** What the gateway last saw of each knowledge entry, by docId. */
export interface EntrySnapshotStore {
  put(snapshot: EntrySnapshot): Promise<void>;
  get(docId: string): Promise<EntrySnapshot | undefined>;
}

/** Another replica (or another click) holds the card's lock for longer than the wait. */
export class ReviewCardBusyError extends CodedError<'REVIEW_CARD_BUSY'> {
  readonly code = 'REVIEW_CARD_BUSY' as const;
}

/** How long cards and entry snapshots are kept after their last change. */
export const REVIEW_RETENTION_SECONDS = 90 * 24 * 3600;
