// The review stores in Redis: a card changes under a SET NX lock with an owner token, so counts add up; the
// lock's key is hash-tagged with the card's, so the guarded write stays in one slot of a Redis Cluster.
import {
  type OpenCards,
  REVIEW_RETENTION_SECONDS,
  ReviewCardBusyError,
  type ReviewStore,
} from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
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

export type RedisReviewStoreOptions = ReviewLockOptions;

/** Open cards listed past the limit, in case some in the index turn out stale (expired or handled). */
const STALE_MARGIN = 5;

/** A card's id in its key: braces, which no id the gateway makes holds, would break the lock's hash tag. */
function keyId(cardId: string): string {
  return cardId.replace(/[{}]/g, (brace) => encodeURIComponent(brace));
}

export class RedisReviewStore implements ReviewStore {
  readonly #redis: RedisConnection;
  readonly #cards: RedisJsonStore<ReviewCard>;
  readonly #lockSettings: ReviewLockSettings;

  constructor(redis: RedisConnection, options: RedisReviewStoreOptions = {}) {
    this.#redis = redis;
    this.#cards = new RedisJsonStore(redis, 'review-card:', reviewCardSchema);
    this.#lockSettings = reviewLockSettings(options);
  }

  async change<T>(
    cardId: string,
    change: (card: ReviewCard | undefined) => Promise<{ card?: ReviewCard; result: T }>,
  ): Promise<T> {
    const cardKey = this.#cards.key(keyId(cardId));
    const lockKey = `${this.#redis.keyPrefix}review-lock:${slotOf(cardKey)}`;
    const owner = lockOwner();
    await this.#lock(lockKey, owner, cardId);
    try {
      const { card, result } = await change(await this.get(cardId));
      if (card) {
        // Written only while the lock is ours: a change that outlived it must not overwrite the next owner's.
        const written = await this.#redis.setIfEquals(
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
      await this.#redis.delIfEquals(lockKey, owner).catch(() => false);
    }
  }

  get(cardId: string): Promise<ReviewCard | undefined> {
    return this.#cards.get(keyId(cardId));
  }

  async openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards> {
    if (limit < 1) return { total: await this.#redis.zcard(this.#openKey(kind)), cards: [] };
    const indexKey = this.#openKey(kind);
    const [total, ids] = await Promise.all([
      this.#redis.zcard(indexKey),
      this.#redis.zrevrange(indexKey, limit + STALE_MARGIN),
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
      if (cardId !== undefined) await this.#redis.zrem(indexKey, cardId).catch(() => undefined);
    }
    return { total: Math.max(total - stale, cards.length), cards: cards.slice(0, limit) };
  }

  /** Keeps the open-card index in step; it only serves listings, so a failure is mended by the next change. */
  async #index(card: ReviewCard): Promise<void> {
    const indexKey = this.#openKey(card.kind);
    const update =
      card.status === 'open'
        ? this.#redis.zadd(indexKey, card.id, card.count, REVIEW_RETENTION_SECONDS)
        : this.#redis.zrem(indexKey, card.id);
    await update.catch(() => undefined);
  }

  #openKey(kind: ReviewCard['kind']): string {
    return `${this.#redis.keyPrefix}review-open:${kind}`;
  }

  #lock(lockKey: string, owner: string, cardId: string): Promise<void> {
    return waitForCardLock(cardId, this.#lockSettings, () =>
      this.#redis.set(lockKey, owner, this.#lockSettings.ttlSeconds, { onlyIfAbsent: true }),
    );
  }
}
