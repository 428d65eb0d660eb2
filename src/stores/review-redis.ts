// The review stores in Redis: a card changes under a SET NX lock with an owner token, so counts add up; the
// lock's key is hash-tagged with the card's, so the guarded write stays in one slot of a Redis Cluster.
// Installed in many workspaces, each workspace's cards and open index are keyed under it.
import { type OpenCards, REVIEW_RETENTION_SECONDS, type ReviewStore } from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
import { workspaceKey } from '../slack/handling/workspace.js';
import { parseJsonWith } from '../util/json.js';
import { type RedisStrings, redisStrings } from './redis.js';
import { type RedisConnection, slotOf } from './redis-connection.js';
import { CardLocks, type ReviewLockOptions } from './review-lock.js';
import { reviewCardSchema } from './review-schemas.js';
import { type CardChange, CardsOf, WorkspaceCards } from './review-workspaces.js';

/** Open cards listed past the limit, in case some in the index turn out stale (expired or handled). */
const STALE_MARGIN = 5;

/** A card's id in its key: braces, which no id the gateway makes holds, would break the lock's hash tag. */
function keyId(cardId: string): string {
  return cardId.replace(/[{}]/g, (brace) => encodeURIComponent(brace));
}

export class RedisReviewStore extends WorkspaceCards<RedisCards> {
  constructor(redis: RedisConnection, options: ReviewLockOptions = {}) {
    const shared = {
      redis,
      cards: redisStrings(redis, 'review-card:'),
      locks: new CardLocks(redisStrings(redis, 'review-lock:'), options),
    };
    super(shared, RedisCardsOf);
  }

  async forget(workspace: string): Promise<number> {
    const { redis, cards } = this.shared;
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

/** What every workspace's view shares: the connection, the cards' keys, their locks. */
interface RedisCards {
  readonly redis: RedisConnection;
  readonly cards: RedisStrings;
  readonly locks: CardLocks<RedisStrings>;
}

/**
 * One workspace's cards among every workspace's (undefined: the one set of a single workspace, under
 * the keys it always had): `review-card:<workspace>:<card>`, and its open index hash-tagged with the
 * workspace, `review-open:{<workspace>}:<kind>`, so both kinds' indexes sit in one slot of a Cluster.
 */
class RedisCardsOf extends CardsOf<RedisCards> implements ReviewStore {
  #keyId(cardId: string): string {
    return keyId(this.scoped(cardId));
  }

  change<T>(cardId: string, change: CardChange<T>): Promise<T> {
    const { redis, cards, locks } = this.shared;
    const cardKey = cards.key(this.#keyId(cardId));
    // Hash-tagged with the card's key: the guarded write stays in one slot of a Redis Cluster.
    const lockKey = slotOf(cardKey);
    return locks.change(
      cardId,
      lockKey,
      () => this.get(cardId),
      change,
      async (card, owner) => {
        const written = await redis.setIfEquals(
          locks.strings.key(lockKey),
          owner,
          cardKey,
          JSON.stringify(card),
          REVIEW_RETENTION_SECONDS,
        );
        if (written) await this.#index(card);
        return written;
      },
    );
  }

  async get(cardId: string): Promise<ReviewCard | undefined> {
    return parseJsonWith(await this.shared.cards.raw(this.#keyId(cardId)), reviewCardSchema);
  }

  async openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards> {
    const { redis } = this.shared;
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
    const { redis } = this.shared;
    const indexKey = this.#openKey(card.kind);
    const update =
      card.status === 'open'
        ? redis.zadd(indexKey, card.id, card.count, REVIEW_RETENTION_SECONDS)
        : redis.zrem(indexKey, card.id);
    await update.catch(() => undefined);
  }

  #openKey(kind: ReviewCard['kind']): string {
    const { keyPrefix } = this.shared.redis;
    if (this.workspace === undefined) return `${keyPrefix}review-open:${kind}`;
    return `${keyPrefix}${openIndexOf(this.workspace)}${kind}`;
  }
}
