// The review loop's stores in SQLite. A card is changed under a lock as with Redis: a row taken only
// if absent (or lapsed), with an owner token, released only by its owner; the card is held for the
// file only while the lock is still its owner's, and written with the key/value table's next batch.
import { z } from 'zod';
import {
  type OpenCards,
  REVIEW_RETENTION_SECONDS,
  ReviewCardBusyError,
  type ReviewStore,
} from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
import { parseJsonWith } from '../util/json.js';
import { lockOwner } from './lock-owner.js';
import {
  type ReviewLockOptions,
  type ReviewLockSettings,
  reviewLockSettings,
  waitForCardLock,
} from './review-lock.js';
import { reviewCardSchema } from './review-schemas.js';
import {
  type Clock,
  type HeldRows,
  type KvTable,
  type SqliteDatabase,
  SqliteJsonStore,
} from './sqlite-database.js';

export type SqliteReviewStoreOptions = ReviewLockOptions;

const RETENTION_MS = REVIEW_RETENTION_SECONDS * 1000;

/** The namespace of the cards' locks in the key/value table (the contract's holdCard takes one too). */
const REVIEW_LOCK_NAMESPACE = 'review-lock';

const UPSERT_CARD_SQL = `INSERT INTO review_cards (id, kind, open, count, updated_at, value, expires_at)
  VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, open = excluded.open, count = excluded.count,
    updated_at = excluded.updated_at, value = excluded.value, expires_at = excluded.expires_at`;

/** A card's row as it is written, its columns taken when the card was held. */
interface CardRow {
  readonly id: string;
  readonly kind: ReviewCard['kind'];
  readonly open: 0 | 1;
  readonly count: number;
  readonly updatedAt: number;
  readonly raw: string;
  readonly expiresAt: number;
}

export class SqliteReviewStore implements ReviewStore {
  readonly #kv: KvTable;
  readonly #locks: SqliteJsonStore<string>;
  /**
   * Cards changed and not yet in the file: written with the key/value table's next batch (within
   * 500 ms; a stop writes them), read from here until then. The file is this process's alone.
   */
  readonly #held = new Map<string, CardRow>();
  readonly #now: Clock;
  readonly #lockSettings: ReviewLockSettings;
  readonly #select;
  readonly #listOpen;
  readonly #countOpen;

  constructor(db: SqliteDatabase, kv: KvTable, options: SqliteReviewStoreOptions & { now: Clock }) {
    this.#kv = kv;
    this.#now = options.now;
    this.#locks = new SqliteJsonStore(kv, REVIEW_LOCK_NAMESPACE, z.string(), options.now);
    this.#lockSettings = reviewLockSettings(options);
    this.#select = db.prepare('SELECT value FROM review_cards WHERE id = ? AND expires_at > ?');
    this.#listOpen = db.prepare(
      `SELECT value FROM review_cards WHERE kind = ? AND open = 1 AND expires_at > ?
       ORDER BY count DESC, updated_at DESC LIMIT ?`,
    );
    this.#countOpen = db.prepare(
      'SELECT count(*) AS total FROM review_cards WHERE kind = ? AND open = 1 AND expires_at > ?',
    );
    kv.writeAlongside(this.#heldRows());
  }

  async change<T>(
    cardId: string,
    change: (card: ReviewCard | undefined) => Promise<{ card?: ReviewCard; result: T }>,
  ): Promise<T> {
    const owner = lockOwner();
    await this.#lock(owner, cardId);
    try {
      const { card, result } = await change(await this.get(cardId));
      if (card) {
        // Held only while the lock is still ours: a change that outlived it must not overwrite what the
        // change that took the lapsed lock wrote since. No await between the check and the hold.
        if (this.#locks.raw(cardId) !== owner) {
          throw new ReviewCardBusyError(
            `review card ${cardId}: the lock lapsed before the change was written`,
          );
        }
        this.#held.set(card.id, {
          id: card.id,
          kind: card.kind,
          open: card.status === 'open' ? 1 : 0,
          count: card.count,
          updatedAt: card.updatedAt,
          raw: JSON.stringify(card),
          expiresAt: this.#now() + RETENTION_MS,
        });
        this.#kv.flushSoon();
      }
      return result;
    } finally {
      try {
        this.#locks.deleteIfEquals(cardId, owner);
      } catch {
        // A failed release only delays the next change until the lock lapses.
      }
    }
  }

  async get(cardId: string): Promise<ReviewCard | undefined> {
    const now = this.#now();
    const held = this.#held.get(cardId);
    // Every reader gets a card of its own. A held card is one this process wrote from a ReviewCard (an
    // answer's change reads it back while it waits for the batch): not checked again, as a row from the
    // file is (a file outlives versions and can be edited).
    if (held) return held.expiresAt > now ? (JSON.parse(held.raw) as ReviewCard) : undefined;
    const raw = this.#select.get(cardId, now)?.value;
    return typeof raw === 'string' ? parseJsonWith(raw, reviewCardSchema) : undefined;
  }

  async openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards> {
    // A listing (the Home, the digest) is rare: the held cards go to the file first, and it lists them.
    if (this.#held.size > 0) {
      try {
        await this.#kv.write();
      } catch {
        // The file cannot take them now: it lists what it has; the timer's flush tells why and retries.
      }
    }
    const now = this.#now();
    const total = Number(this.#countOpen.get(kind, now)?.total ?? 0);
    if (limit < 1) return { total, cards: [] };
    const cards: ReviewCard[] = [];
    for (const row of this.#listOpen.all(kind, now, limit)) {
      const raw = row.value;
      const card = typeof raw === 'string' ? parseJsonWith(raw, reviewCardSchema) : undefined;
      if (card) cards.push(card);
    }
    return { total, cards };
  }

  /** The held cards, for the key/value table's flush: each one still held as written leaves the map after its commit. */
  #heldRows(): HeldRows {
    const held = this.#held;
    return {
      get waiting() {
        return held.size > 0;
      },
      take() {
        const rows = [...held.values()];
        return {
          statements: rows.map((row) => [
            UPSERT_CARD_SQL,
            [row.id, row.kind, row.open, row.count, row.updatedAt, row.raw, row.expiresAt],
          ]),
          written: () => {
            for (const row of rows) if (held.get(row.id) === row) held.delete(row.id);
          },
        };
      },
    };
  }

  #lock(owner: string, cardId: string): Promise<void> {
    return waitForCardLock(cardId, this.#lockSettings, () =>
      this.#locks.setRaw(cardId, owner, this.#lockSettings.ttlSeconds, { onlyIfAbsent: true }),
    );
  }
}
