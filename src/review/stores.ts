// The storage the review loop needs, shared by every replica; src/stores implements it.
import { CodedError } from '../util/coded-error.js';
import type { EntrySnapshot, QuestionLink, ReviewCard } from './types.js';

/** Review cards by id, changed one at a time across replicas. */
export interface ReviewStore {
  /** Runs `change` under a lock every replica honours, stores what it returns; throws when busy or down. */
  change<T>(
    cardId: string,
    change: (card: ReviewCard | undefined) => Promise<{ card?: ReviewCard; result: T }>,
  ): Promise<T>;
  get(cardId: string): Promise<ReviewCard | undefined>;
  /** The open cards of a kind, most reported first, at most `limit`, and how many are open in all. */
  openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards>;
}

/**
 * The cards kept as one set (installed in one workspace, as always), and each workspace's apart when
 * installed in many: a card id names one card in its workspace only, and a listing is its workspace's.
 */
export interface ReviewCardStore extends ReviewStore, WorkspaceScoped<ReviewStore> {
  /** Removes a workspace's cards and its open index (an uninstall); how many went. */
  forget(workspace: string): Promise<number>;
}

export interface OpenCards {
  total: number;
  cards: ReviewCard[];
}

export interface EntrySnapshotStore {
  put(snapshot: EntrySnapshot): Promise<void>;
  get(docId: string): Promise<EntrySnapshot | undefined>;
}

/** Installed in many workspaces, each asks its own knowledge base: its entries and links are its own. */
export interface WorkspaceScoped<Store> {
  of(workspace: string): Store;
}

/** Questions linked to the entries that answer them, by linkKeyOf (the normalised question and robot). */
export interface QuestionLinkStore {
  put(key: string, link: QuestionLink): Promise<void>;
  get(key: string): Promise<QuestionLink | undefined>;
  delete(key: string): Promise<void>;
}

/** Another replica (or another click) holds the card's lock for longer than the wait. */
export class ReviewCardBusyError extends CodedError<'REVIEW_CARD_BUSY'> {
  readonly code = 'REVIEW_CARD_BUSY' as const;
}

export const REVIEW_RETENTION_SECONDS = 90 * 24 * 3600;

/** How long a link is kept after it was made: a link answers for as long as an operator leaves it. */
export const QUESTION_LINK_RETENTION_SECONDS = 365 * 24 * 3600;
