// What the three engines' review card stores share: a single workspace's cards are the store itself,
// each workspace's (installed in many) are a view of it, `of(workspace)`.
import type { OpenCards, ReviewCardStore, ReviewStore } from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
import { workspaceKey } from '../slack/handling/workspace.js';

/** What a change makes of a card: the card to keep (none: unchanged) and what the caller gets. */
export type CardChange<T> = (card: ReviewCard | undefined) => Promise<{ card?: ReviewCard; result: T }>;

/** A key of a workspace's own; undefined: a single workspace's, the key as it always was. */
export function scopedKey(workspace: string | undefined, key: string): string {
  return workspace === undefined ? key : workspaceKey(workspace, key);
}

export abstract class WorkspaceCards implements ReviewCardStore {
  readonly #cardsOf: (workspace: string | undefined) => ReviewStore;
  readonly #single: ReviewStore;

  /** `cardsOf`: a workspace's cards; undefined: a single workspace's, under the keys they always had. */
  constructor(cardsOf: (workspace: string | undefined) => ReviewStore) {
    this.#cardsOf = cardsOf;
    this.#single = cardsOf(undefined);
  }

  abstract forget(workspace: string): Promise<number>;

  of(workspace: string): ReviewStore {
    return this.#cardsOf(workspace);
  }

  change<T>(cardId: string, change: CardChange<T>): Promise<T> {
    return this.#single.change(cardId, change);
  }

  get(cardId: string): Promise<ReviewCard | undefined> {
    return this.#single.get(cardId);
  }

  openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards> {
    return this.#single.openCards(kind, limit);
  }
}
