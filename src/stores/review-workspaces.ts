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

/** One workspace's view: built with what every workspace's view shares, and its workspace. */
type CardsOfWorkspace<Shared> = new (shared: Shared, workspace: string | undefined) => ReviewStore;

export abstract class WorkspaceCards<Shared> implements ReviewCardStore {
  /** What every workspace's view shares. */
  protected readonly shared: Shared;
  readonly #CardsOf: CardsOfWorkspace<Shared>;
  readonly #single: ReviewStore;

  constructor(shared: Shared, CardsOf: CardsOfWorkspace<Shared>) {
    this.shared = shared;
    this.#CardsOf = CardsOf;
    this.#single = new CardsOf(shared, undefined);
  }

  abstract forget(workspace: string): Promise<number>;

  of(workspace: string): ReviewStore {
    return new this.#CardsOf(this.shared, workspace);
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

/** One workspace's cards among every workspace's (undefined: the one set of a single workspace). */
export abstract class CardsOf<Shared> {
  protected readonly shared: Shared;
  protected readonly workspace: string | undefined;

  constructor(shared: Shared, workspace: string | undefined) {
    this.shared = shared;
    this.workspace = workspace;
  }

  /** A card's key among every workspace's: its id alone in the one set of a single workspace. */
  protected scoped(cardId: string): string {
    return scopedKey(this.workspace, cardId);
  }
}
