// The review stores in Redis: a card changes under a SET NX lock with an owner token, so counts add up; the
// lock's key is hash-tagged with the card's, so the guarded write stays in one slot of a Redis Cluster.
// Installed in many workspaces, each workspace's cards and open index are keyed under it.
import {
  type OpenCards,
  REVIEW_RETENTION_SECONDS,
  ReviewCardBusyError,
  type ReviewStore,
} from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
import { workspaceKey } from '../slack/handling/workspace.js';
import { lockOwner } from './lock-owner.js';
import { type RedisConnection, slotOf } from './redis-connection.js';
import { RedisJsonStore } from './redis-json-store.js';
import {
  type ReviewLockOptions,
  type ReviewLockSettings,
  reviewLockSettings,
  waitForCardLock,
} from './review-lock.js';
import { reviewCardSchema } from './review-schemas.js';
import { WorkspaceCards } from './review-workspaces.js';

export type RedisReviewStoreOptions = ReviewLockOptions;

/** Open cards listed past the limit, in case some in the index turn out stale (expired or handled). */
const STALE_MARGIN = 5;

/** A card's id in its key: braces, which no id the gateway makes holds, would break the lock's hash tag. */
function keyId(cardId: string): string {
  return cardId.replace(/[{}]/g, (brace) => encodeURIComponent(brace));
}

export class RedisReviewStore extends WorkspaceCards {
  readonly #shared: RedisCards;

  constructor(redis: RedisConnection, options: RedisReviewStoreOptions = {}) {
    super();
    this.#shared = {
      redis,
      cards: new RedisJsonStore(redis, 'review-card:', reviewCardSchema),
      lockSettings: reviewLockSettings(options),
    };
  }

  protected cardsOf(workspace: string | undefined): ReviewStore {
    return new RedisCardsOf(this.#shared, workspace);
  }

  async forget(workspace: string): Promise<number> {
    const { redis, cards } = this.#shared;
    const own = workspaceKey(workspace, '');
    const index = `${redis.keyPrefix}${openIndexOf(workspace)}`;
    const forgotten = await redis.deleteStartingWith(cards.key(keyId(own)));
    // Its open indexes go too; counted are the cards, as in every engine.
    await redis.deleteStartingWith(index);
    return forgotten;
  }
}

/** A workspace's open indexes (without the key prefix), hash-tagged with it: one slot for both kinds. */
function openIndexOf(workspace: string): string {
  return `review-open:${slotOf(workspace)}:`;
}

/** What every workspace's view shares: the connection, the cards' keys, the lock's wait. */
interface RedisCards {
  readonly redis: RedisConnection;
  readonly cards: RedisJsonStore<ReviewCard>;
  readonly lockSettings: ReviewLockSettings;
}

/**
 * One workspace's cards among every workspace's (undefined: the one set of a single workspace, under
 * the keys it always had): `review-card:<workspace>:<card>`, and its open index hash-tagged with the
 * workspace, `review-open:{<workspace>}:<kind>`, so both kinds' indexes sit in one slot of a Cluster.
 */
class RedisCardsOf implements ReviewStore {
  readonly #shared: RedisCards;
  readonly #workspace: string | undefined;

  constructor(shared: RedisCards, workspace: string | undefined) {
    this.#shared = shared;
    this.#workspace = workspace;
  }

  /** The card's id in its key: its own alone in the one set of a single workspace. */
  #keyId(cardId: string): string {
    return keyId(this.#workspace === undefined ? cardId : workspaceKey(this.#workspace, cardId));
  }

  async change<T>(
    cardId: string,
    change: (card: ReviewCard | undefined) => Promise<{ card?: ReviewCard; result: T }>,
  ): Promise<T> {
    const { redis, cards } = this.#shared;
    const cardKey = cards.key(this.#keyId(cardId));
    const lockKey = `${redis.keyPrefix}review-lock:${slotOf(cardKey)}`;
    const owner = lockOwner();
    await this.#lock(lockKey, owner, cardId);
    try {
      const { card, result } = await change(await this.get(cardId));
      if (card) {
        // Written only while the lock is ours: a change that outlived it must not overwrite the next owner's.
        const written = await redis.setIfEquals(
          lockKey,
          owner,
          cardKey,
          JSON.stringify(card),
          REVIEW_RETENTION_SECONDS,
        );
        if (!written) {
          throw new ReviewCardBusyError(
            `review card ${cardId}: the lock lapsed before the change was written`,
          );
        }
        await this.#index(card);
      }
      return result;
    } finally {
      // Only the owner releases, and a failed release only delays the next change: the outcome stands.
      await redis.delIfEquals(lockKey, owner).catch(() => false);
    }
  }

  get(cardId: string): Promise<ReviewCard | undefined> {
    return this.#shared.cards.get(this.#keyId(cardId));
  }

  async openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards> {
    const { redis } = this.#shared;
    const indexKey = this.#openKey(kind);
    if (limit < 1) return { total: await redis.zcard(indexKey), cards: [] };
    const [total, ids] = await Promise.all([
      redis.zcard(indexKey),
      redis.zrevrange(indexKey, limit + STALE_MARGIN),
    ]);
    const read = await Promise.all(ids.map((cardId) => this.get(cardId)));
    const cards: ReviewCard[] = [];
    let stale = 0;
    for (const [index, card] of read.entries()) {
      if (card?.status === 'open' && card.kind === kind) {
        cards.push(card);
        continue;
      }
      // Expired, or handled by a change whose index update was lost: the listing mends the index.
      stale += 1;
      const cardId = ids[index];
      if (cardId !== undefined) await redis.zrem(indexKey, cardId).catch(() => undefined);
    }
    return { total: Math.max(total - stale, cards.length), cards: cards.slice(0, limit) };
  }

  /** Keeps the open-card index in step; it only serves listings, so a failure is mended by the next change. */
  async #index(card: ReviewCard): Promise<void> {
    const { redis } = this.#shared;
    const indexKey = this.#openKey(card.kind);
    const update =
      card.status === 'open'
        ? redis.zadd(indexKey, card.id, card.count, REVIEW_RETENTION_SECONDS)
        : redis.zrem(indexKey, card.id);
    await update.catch(() => undefined);
  }

  #openKey(kind: ReviewCard['kind']): string {
    const { keyPrefix } = this.#shared.redis;
    if (this.#workspace === undefined) return `${keyPrefix}review-open:${kind}`;
    return `${keyPrefix}${openIndexOf(this.#workspace)}${kind}`;
  }

  #lock(lockKey: string, owner: string, cardId: string): Promise<void> {
    const { redis, lockSettings } = this.#shared;
    return waitForCardLock(cardId, lockSettings, () =>
      redis.set(lockKey, owner, lockSettings.ttlSeconds, { onlyIfAbsent: true }),
    );
  }
}
