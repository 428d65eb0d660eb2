// The review loop's stores in one process: a card's changes run one after another, in memory.
import { LRUCache } from 'lru-cache';
import {
  type OpenCards,
  REVIEW_RETENTION_SECONDS,
  ReviewCardBusyError,
  type ReviewStore,
} from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
import { KeyedQueue } from '../slack/handling/keyed-queue.js';
import type { UsergroupMembers } from '../slack/handling/stores.js';
import type { Clock } from './memory.js';
import { KeptNamespace, memoryStrings } from './namespace.js';
import { usergroupMembersSchema } from './review-schemas.js';

const RETENTION_MS = REVIEW_RETENTION_SECONDS * 1000;
const DEFAULT_LOCK_WAIT_MS = 10_000;
/** Operators come from one user group (a few, were it ever more). */
const DEFAULT_OPERATOR_GROUPS = 100;

interface MemoryBounds {
  maxEntries: number;
  /** Tests inject one to pass TTLs without sleeping. */
  now?: Clock;
}

// Copies in and out, as Redis parses afresh; kept as JSON, cheaper than structuredClone (docs/decisions/015).
function boundedCache<V extends object>(bounds: MemoryBounds, ttlMs?: number): LRUCache<string, V> {
  if (!Number.isInteger(bounds.maxEntries) || bounds.maxEntries < 1) {
    throw new RangeError(`maxEntries must be a positive integer, got ${bounds.maxEntries}`);
  }
  return new LRUCache<string, V>({
    max: bounds.maxEntries,
    ...(ttlMs === undefined ? {} : { ttl: ttlMs }),
    // lru-cache caches its clock reading for ttlResolution ms of real time, which would hide an injected jump.
    ...(bounds.now === undefined ? {} : { perf: { now: bounds.now }, ttlResolution: 0 }),
  });
}

export interface MemoryReviewStoreOptions extends MemoryBounds {
  /** How long a change waits behind the card's earlier ones before ReviewCardBusyError. */
  lockWaitMs?: number;
}

/** A card as it is kept: its JSON, and what a listing filters and sorts by. */
interface KeptCard {
  readonly raw: string;
  readonly kind: ReviewCard['kind'];
  readonly open: boolean;
  readonly count: number;
  readonly updatedAt: number;
}

function keep(card: ReviewCard): KeptCard {
  return {
    raw: JSON.stringify(card),
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

export class MemoryReviewStore implements ReviewStore {
  readonly #cards: LRUCache<string, KeptCard>;
  readonly #queue = new KeyedQueue();
  readonly #lockWaitMs: number;

  constructor(options: MemoryReviewStoreOptions) {
    this.#cards = boundedCache(options, RETENTION_MS);
    this.#lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
    if (!(this.#lockWaitMs >= 0)) throw new RangeError(`lockWaitMs must be >= 0, got ${this.#lockWaitMs}`);
  }

  change<T>(
    cardId: string,
    change: (card: ReviewCard | undefined) => Promise<{ card?: ReviewCard; result: T }>,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Decided in the timer and in the turn, never after an await: a change either runs or is refused.
      let turn: 'waiting' | 'started' | 'abandoned' = 'waiting';
      const timer = setTimeout(() => {
        if (turn !== 'waiting') return;
        turn = 'abandoned';
        reject(new ReviewCardBusyError(`review card ${cardId} stayed busy for ${this.#lockWaitMs} ms`));
      }, this.#lockWaitMs);
      void this.#queue.run(cardId, async () => {
        clearTimeout(timer);
        // Its caller was told the card is busy: a change made now would be one nobody awaits.
        if (turn === 'abandoned') return;
        turn = 'started';
        await this.#apply(cardId, change).then(resolve, reject);
      });
    });
  }

  async get(cardId: string): Promise<ReviewCard | undefined> {
    return parsedOf<ReviewCard>(this.#cards.get(cardId));
  }

  async openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards> {
    const open: KeptCard[] = [];
    for (const cardId of this.#cards.keys()) {
      // peek: a listing neither makes a card recent nor returns one past its retention.
      const card = this.#cards.peek(cardId);
      if (card?.kind === kind && card.open) open.push(card);
    }
    open.sort(byCountThenRecent);
    return {
      total: open.length,
      cards: open.slice(0, Math.max(0, limit)).flatMap((card) => parsedOf<ReviewCard>(card) ?? []),
    };
  }

  /** Drops every entry; the store set's close() calls it. */
  clear(): void {
    this.#cards.clear();
  }

  async #apply<T>(
    cardId: string,
    change: (card: ReviewCard | undefined) => Promise<{ card?: ReviewCard; result: T }>,
  ): Promise<T> {
    const { card, result } = await change(parsedOf<ReviewCard>(this.#cards.get(cardId)));
    if (card) this.#cards.set(cardId, keep(card));
    return result;
  }
}

/** The operators' cache in one process, for what builds it alone; the gateway's is a namespace (stores.ts). */
export class MemoryOperatorCache extends KeptNamespace<UsergroupMembers> {
  constructor(options: Partial<MemoryBounds> = {}) {
    const bounds = { ...options, maxEntries: options.maxEntries ?? DEFAULT_OPERATOR_GROUPS };
    super(memoryStrings(bounds), 'operators', { schema: usergroupMembersSchema, ttlSeconds: 3600 });
  }
}

/** Most reported first; of two alike, the one reported last. */
function byCountThenRecent(a: KeptCard, b: KeptCard): number {
  return b.count - a.count || b.updatedAt - a.updatedAt;
}
