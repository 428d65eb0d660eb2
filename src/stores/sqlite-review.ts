// The review loop's stores in SQLite. A card is changed under a lock as with Redis: a row taken only
// if absent (or lapsed), with an owner token, released only by its owner; the card is held for the
// file only while the lock is still its owner's, and written with the key/value table's next batch.
import type { StatementSync } from 'node:sqlite';
import { type OpenCards, REVIEW_RETENTION_SECONDS, type ReviewStore } from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
import { parseJsonWith } from '../util/json.js';
import type { Clock } from './namespace.js';
import { CardLocks, type ReviewLockOptions } from './review-lock.js';
import { reviewCardSchema } from './review-schemas.js';
import { type CardChange, CardsOf, WorkspaceCards } from './review-workspaces.js';
import {
  type HeldRows,
  type KvTable,
  type SqliteDatabase,
  type SqliteStrings,
  sqliteStrings,
} from './sqlite-database.js';

const RETENTION_MS = REVIEW_RETENTION_SECONDS * 1000;

/** The namespace of the cards' locks in the key/value table (the contract's holdCard takes one too). */
const REVIEW_LOCK_NAMESPACE = 'review-lock';

/** A table of cards: a single workspace's (`review_cards`, as always), or every workspace's, each apart. */
interface CardTable {
  readonly upsert: string;
  readonly select: StatementSync;
  readonly listOpen: StatementSync;
  readonly countOpen: StatementSync;
}

/** In every statement of `workspace_review_cards` the workspace comes before the card's id. */
function cardTable(db: SqliteDatabase, table: 'review_cards' | 'workspace_review_cards'): CardTable {
  const [key, keyValues, scope] =
    table === 'review_cards' ? ['id', '?', ''] : ['workspace, id', '?, ?', 'workspace = ? AND '];
  return {
    upsert: `INSERT INTO ${table} (${key}, kind, open, count, updated_at, value, expires_at)
  VALUES (${keyValues}, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (${key}) DO UPDATE SET kind = excluded.kind, open = excluded.open, count = excluded.count,
    updated_at = excluded.updated_at, value = excluded.value, expires_at = excluded.expires_at`,
    select: db.prepare(`SELECT value FROM ${table} WHERE ${scope}id = ? AND expires_at > ?`),
    listOpen: db.prepare(
      `SELECT value FROM ${table} WHERE ${scope}kind = ? AND open = 1 AND expires_at > ?
       ORDER BY count DESC, updated_at DESC LIMIT ?`,
    ),
    countOpen: db.prepare(
      `SELECT count(*) AS total FROM ${table} WHERE ${scope}kind = ? AND open = 1 AND expires_at > ?`,
    ),
  };
}

/** A card's row as it is written, its columns taken when the card was held. */
interface CardRow {
  readonly table: CardTable;
  /** Its workspace's columns first: none in a single workspace's table. */
  readonly key: readonly string[];
  readonly kind: ReviewCard['kind'];
  readonly open: 0 | 1;
  readonly count: number;
  readonly updatedAt: number;
  readonly raw: string;
  readonly expiresAt: number;
}

/** What every workspace's view shares: the tables, the locks and the cards held for the file. */
interface SqliteCards {
  readonly kv: KvTable;
  readonly locks: CardLocks<SqliteStrings>;
  /**
   * Cards changed and not yet in the file, by lock key: written with the key/value table's next batch
   * (within 500 ms; a stop writes them), read from here until then. The file is this process's alone.
   */
  readonly held: Map<string, CardRow>;
  readonly now: Clock;
  readonly single: CardTable;
  readonly workspaces: CardTable;
}

export class SqliteReviewStore extends WorkspaceCards<SqliteCards> {
  constructor(db: SqliteDatabase, kv: KvTable, options: ReviewLockOptions & { now: Clock }) {
    const shared: SqliteCards = {
      kv,
      now: options.now,
      locks: new CardLocks(sqliteStrings(kv, REVIEW_LOCK_NAMESPACE, options.now), options),
      held: new Map(),
      single: cardTable(db, 'review_cards'),
      workspaces: cardTable(db, 'workspace_review_cards'),
    };
    super(shared, SqliteCardsOf);
    kv.writeAlongside(heldRows(shared.held));
  }

  async forget(workspace: string): Promise<number> {
    const { held, kv, workspaces } = this.shared;
    // Held ones are dropped, not written: none comes back after the delete.
    let dropped = 0;
    for (const [lockKey, row] of held) {
      if (row.table !== workspaces || row.key[0] !== workspace) continue;
      held.delete(lockKey);
      dropped += 1;
    }
    const [deleted = 0] = await kv.execute([[FORGET_WORKSPACE_SQL, [workspace]]]);
    return dropped + deleted;
  }
}

const FORGET_WORKSPACE_SQL = 'DELETE FROM workspace_review_cards WHERE workspace = ?';

class SqliteCardsOf extends CardsOf<SqliteCards> implements ReviewStore {
  readonly #table: CardTable;
  /** The workspace's columns before a card's id in every statement: none for a single workspace's. */
  readonly #scope: readonly string[];

  constructor(shared: SqliteCards, workspace: string | undefined) {
    super(shared, workspace);
    this.#table = workspace === undefined ? shared.single : shared.workspaces;
    this.#scope = workspace === undefined ? [] : [workspace];
  }

  async change<T>(cardId: string, change: CardChange<T>): Promise<T> {
    const { locks, held, kv, now } = this.shared;
    const lockKey = this.scoped(cardId);
    return locks.change(
      cardId,
      lockKey,
      () => this.get(cardId),
      change,
      (card, owner) => {
        // No await between the look at the lock and the hold.
        if (locks.strings.raw(lockKey) !== owner) return false;
        held.set(lockKey, {
          table: this.#table,
          key: [...this.#scope, card.id],
          kind: card.kind,
          open: card.status === 'open' ? 1 : 0,
          count: card.count,
          updatedAt: card.updatedAt,
          raw: JSON.stringify(card),
          expiresAt: now() + RETENTION_MS,
        });
        kv.flushSoon();
        return true;
      },
    );
  }

  async get(cardId: string): Promise<ReviewCard | undefined> {
    const now = this.shared.now();
    const held = this.shared.held.get(this.scoped(cardId));
    // Every reader gets a card of its own. A held card is one this process wrote from a ReviewCard (an
    // answer's change reads it back while it waits for the batch): not checked again, as a row from the
    // file is (a file outlives versions and can be edited).
    if (held) return held.expiresAt > now ? (JSON.parse(held.raw) as ReviewCard) : undefined;
    const raw = this.#table.select.get(...this.#scope, cardId, now)?.value;
    return typeof raw === 'string' ? parseJsonWith(raw, reviewCardSchema) : undefined;
  }

  async openCards(kind: ReviewCard['kind'], limit: number): Promise<OpenCards> {
    const { held, kv } = this.shared;
    // A listing (the Home, the digest) is rare: the held cards go to the file first, and it lists them.
    if (held.size > 0) {
      try {
        await kv.write();
      } catch {
        // The file cannot take them now: it lists what it has; the timer's flush tells why and retries.
      }
    }
    const now = this.shared.now();
    const total = Number(this.#table.countOpen.get(...this.#scope, kind, now)?.total ?? 0);
    if (limit < 1) return { total, cards: [] };
    const cards: ReviewCard[] = [];
    for (const row of this.#table.listOpen.all(...this.#scope, kind, now, limit)) {
      const raw = row.value;
      const card = typeof raw === 'string' ? parseJsonWith(raw, reviewCardSchema) : undefined;
      if (card) cards.push(card);
    }
    return { total, cards };
  }
}

/** The held cards, for the key/value table's flush: each one still held as written leaves the map after its commit. */
function heldRows(held: Map<string, CardRow>): HeldRows {
  return {
    get waiting() {
      return held.size > 0;
    },
    take() {
      const rows = [...held];
      return {
        statements: rows.map(([, row]) => [
          row.table.upsert,
          [...row.key, row.kind, row.open, row.count, row.updatedAt, row.raw, row.expiresAt],
        ]),
        written: () => {
          for (const [lockKey, row] of rows) if (held.get(lockKey) === row) held.delete(lockKey);
        },
      };
    },
  };
}
