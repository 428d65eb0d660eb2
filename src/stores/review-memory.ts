// The review loop's stores in one process: a card's changes run one after another, in memory.
import { LRUCache } from 'lru-cache';
import {
  type OpenCards,
  REVIEW_RETENTION_SECONDS,
  ReviewCardBusyError,
  type ReviewStore,
} from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
import { KeyedQueue } from '../util/keyed-queue.js';
import { lruClock } from '../util/lru-clock.js';
import { positiveInteger } from '../util/positive.js';
import type { MemoryBounds } from './namespace.js';
import { type ReviewLockOptions, reviewLockSettings } from './review-lock.js';
import { type CardChange, CardsOf, WorkspaceCards } from './review-workspaces.js';

const RETENTION_MS = REVIEW_RETENTION_SECONDS * 1000;

/** A card as it is kept: its JSON, and what a listing filters and sorts by. */
interface KeptCard {
  readonly raw: string;
  /** Installed in many workspaces, its own; undefined: the one set of a single workspace. */
  readonly workspace: string | undefined;
  readonly kind: ReviewCard['kind'];
  readonly open: boolean;
  readonly count: number;
  readonly updatedAt: number;
}

function keep(card: ReviewCard, workspace: string | undefined): KeptCard {
  return {
    raw: JSON.stringify(card),
    workspace,
    kind: card.kind,
    open: card.status === 'open',
    count: card.count,
    updatedAt: card.updatedAt,
  };
}

/** A value of the caller's own, parsed from what is kept (written from a value of that type by this process). */
function parsedOf<V>(kept: { readonly raw: string } | undefined): V | undefined {
  return kept === undefined ? undefined : (JSON.parse(kept.raw) as V);
}

/** What every workspace's view shares: one bounded set of cards, one queue of changes. */
interface MemoryCards {
  readonly cards: LRUCache<string, KeptCard>;
  readonly queue: KeyedQueue;
  readonly lockWaitMs: number;
}

export class MemoryReviewStore extends WorkspaceCards<MemoryCards> {
  /** `lockWaitMs`: how long a change waits behind the card's earlier ones before ReviewCardBusyError. */
  constructor(options: MemoryBounds & Pick<ReviewLockOptions, 'lockWaitMs'>) {
    const lockWaitMs = reviewLockSettings(options).waitMs;
    // Copies in and out, as Redis parses afresh: kept as JSON (docs/decisions/015).
    const cards = new LRUCache<string, KeptCard>({
      max: positiveInteger('maxEntries', options.maxEntries),
      ttl: RETENTION_MS,
      ...lruClock(options.now),
    });
    super({ cards, queue: new KeyedQueue(), lockWaitMs }, MemoryCardsOf);
  }

  /** Drops every entry; the store set's close() calls it. */
  clear(): void {
    this.shared.cards.clear();
  }

  async forget(workspace: string): Promise<number> {
    const { cards } = this.shared;
    const theirs = [...cards.entries()].filter(([, card]) => card.workspace === workspace);
    for (const [key] of theirs) cards.delete(key);
    return theirs.length;
  }
}

class MemoryCardsOf extends CardsOf<MemoryCards> implements ReviewStore {
  change<T>(cardId: string, change: CardChange<T>): Promise<T> {
    const { queue, lockWaitMs } = this.shared;
    const key = this.scoped(cardId);
    return new Promise<T>((resolve, reject) => {
      // Decided in the timer and in the turn, never after an await: a change either runs or is refused.
      let turn: 'waiting' | 'started' | 'abandoned' = 'waiting';
      const timer = setTimeout(() => {
        if (turn !== 'waiting') return;
        turn = 'abandoned';
        reject(new ReviewCardBusyError(`review card ${cardId} stayed busy for ${lockWaitMs} ms`));
      }, lockWaitMs);
      void queue.run(key, async () => {
        clearTimeout(timer);
        // Its caller was told the card is busy: a change made now would be one nobody awaits.
        if (turn === 'abandoned') return;
        turn = 'started';
        await this.#apply(key, change).then(resolve, reject);
      });
    });
  }

  async get(cardId: string): Promise<ReviewCard | undefined> {
    return parsedOf<ReviewCard>(this.shared.cards.get(this.scoped(cardId)));
  }

  async openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards> {
    const { cards } = this.shared;
    const open: KeptCard[] = [];
    for (const key of cards.keys()) {
      // peek: a listing neither makes a card recent nor returns one past its retention.
      const card = cards.peek(key);
      if (card?.kind === kind && card.open && card.workspace === this.workspace) open.push(card);
    }
    open.sort(byCountThenRecent);
    return {
      total: open.length,
      cards: open.slice(0, Math.max(0, limit)).flatMap((card) => parsedOf<ReviewCard>(card) ?? []),
    };
  }

  async #apply<T>(key: string, change: CardChange<T>): Promise<T> {
    const { cards } = this.shared;
    const { card, result } = await change(parsedOf<ReviewCard>(cards.get(key)));
    if (card) cards.set(key, keep(card, this.workspace));
    return result;
  }
}

/** Most reported first; of two alike, the one reported last. */
function byCountThenRecent(a: KeptCard, b: KeptCard): number {
  return b.count - a.count || b.updatedAt - a.updatedAt;
}
