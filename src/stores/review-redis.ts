// The review stores in Redis: a card changes under a SET NX lock with an owner token, so counts add up.
import {
  type EntrySnapshotStore,
  type OpenCards,
  QUESTION_LINK_RETENTION_SECONDS,
  type QuestionLinkStore,
  REVIEW_RETENTION_SECONDS,
  ReviewCardBusyError,
  type ReviewStore,
} from '../review/stores.js';
import type { EntrySnapshot, QuestionLink, ReviewCard } from '../review/types.js';
import { lockOwner } from './lock-owner.js';
import type { RedisCommands, RedisConnection } from './redis-connection.js';
import { RedisJsonStore } from './redis-json-store.js';
import {
  type ReviewLockOptions,
  type ReviewLockSettings,
  reviewLockSettings,
  waitForCardLock,
} from './review-lock.js';
import { entrySnapshotSchema, questionLinkSchema, reviewCardSchema } from './review-schemas.js';

export type RedisReviewStoreOptions = ReviewLockOptions;

/** Open cards listed past the limit, in case some in the index turn out stale (expired or handled). */
const STALE_MARGIN = 5;

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
    const lockKey = `${this.#redis.keyPrefix}review-lock:${cardId}`;
    const owner = lockOwner();
    await this.#lock(lockKey, owner, cardId);
    try {
      const { card, result } = await change(await this.get(cardId));
      if (card) {
        // Written only while the lock is ours: a change that outlived it must not overwrite the next owner's.
        const written = await this.#redis.setIfEquals(
          lockKey,
          owner,
          this.#cards.key(cardId),
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
    return this.#cards.get(cardId);
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

export class RedisEntrySnapshotStore implements EntrySnapshotStore {
  readonly #snapshots: RedisJsonStore<EntrySnapshot>;

  constructor(redis: RedisCommands) {
    this.#snapshots = new RedisJsonStore(redis, 'kb-entry:', entrySnapshotSchema);
  }

  async put(snapshot: EntrySnapshot): Promise<void> {
    await this.#snapshots.set(snapshot.docId, snapshot, REVIEW_RETENTION_SECONDS);
  }

  get(docId: string): Promise<EntrySnapshot | undefined> {
    return this.#snapshots.get(docId);
  }
}

export class RedisQuestionLinkStore implements QuestionLinkStore {
  readonly #links: RedisJsonStore<QuestionLink>;

  constructor(redis: RedisCommands) {
    this.#links = new RedisJsonStore(redis, 'q-link:', questionLinkSchema);
  }

  async put(key: string, link: QuestionLink): Promise<void> {
    await this.#links.set(key, link, QUESTION_LINK_RETENTION_SECONDS);
  }

  get(key: string): Promise<QuestionLink | undefined> {
    return this.#links.get(key);
  }

  delete(key: string): Promise<void> {
    return this.#links.delete(key);
  }
}
