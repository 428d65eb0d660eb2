// One SQLite database file through Node's built-in node:sqlite: opened in WAL mode, its schema
// migrated forward at open, and one key/value table of JSON values with an expiry, as Redis keeps them.

import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import { KeyFilter } from './key-filter.js';
import { type Clock, type KeptStrings, ttlMs } from './namespace.js';

export type SqliteDatabase = DatabaseSync;
type SqliteModule = typeof import('node:sqlite');

/** node:sqlite, or undefined on a Node without it (before 22.13), which then learns what to run. */
function loadSqlite(): SqliteModule | undefined {
  // Loaded at run time, so a Node without it can still run the memory and Redis stores.
  return process.getBuiltinModule?.('node:sqlite');
}

/** Thrown at open: no node:sqlite, a file that is not a database, or one of a newer schema. */
export class SqliteStateError extends Error {
  override readonly name = 'SqliteStateError';
}

/** Each migration takes the schema one version further; never edit one that has shipped. */
const MIGRATIONS: readonly string[] = [
  // 1: JSON values by namespace and id, with their expiry (ms since the epoch); review cards in a
  // table of their own, so the open ones are listed by an index rather than by a scan.
  `CREATE TABLE kv (
     ns TEXT NOT NULL,
     id TEXT NOT NULL,
     value TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     PRIMARY KEY (ns, id)
   ) WITHOUT ROWID;
   CREATE INDEX kv_expiry ON kv (expires_at);
   CREATE TABLE review_cards (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     open INTEGER NOT NULL,
     count INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     value TEXT NOT NULL,
     expires_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX review_cards_open ON review_cards (kind, open, count DESC, updated_at DESC);
   CREATE INDEX review_cards_expiry ON review_cards (expires_at);`,
  // 2: each channel's settings, kept until reset (no expiry).
  `CREATE TABLE channel_settings (
     channel TEXT PRIMARY KEY,
     value TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // 3: deliveries and threads keyed time first (timeLedId, which this statement mirrors).
  `UPDATE kv
   SET id = substr(id, length(rtrim(id, '0123456789.')) + 1) || char(1) || substr(id, 1, length(rtrim(id, '0123456789.')) - 1)
   WHERE ns IN ('once', 'thread')
     AND substr(rtrim(id, '0123456789.'), -1) = ':'
     AND substr(id, length(rtrim(id, '0123456789.')) + 1) GLOB '*.*';`,
  // 4: installed in many workspaces, each one's review cards, listed apart (a single workspace's stay
  // in review_cards). Written so that running it again changes nothing.
  `CREATE TABLE IF NOT EXISTS workspace_review_cards (
     workspace TEXT NOT NULL,
     id TEXT NOT NULL,
     kind TEXT NOT NULL,
     open INTEGER NOT NULL,
     count INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     value TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     PRIMARY KEY (workspace, id)
   ) WITHOUT ROWID;
   CREATE INDEX IF NOT EXISTS workspace_review_cards_open
     ON workspace_review_cards (workspace, kind, open, count DESC, updated_at DESC);
   CREATE INDEX IF NOT EXISTS workspace_review_cards_expiry ON workspace_review_cards (expires_at);`,
];

/** A key ending in `:<Slack ts>`, the ts being the longest run of digits and dots at its end. */
const TRAILING_TS = /:([0-9.]+)$/;
const TIME_LED_SEPARATOR = '\u0001';

/**
 * The file's id of a delivery's or a thread's key (`msg:T1:C1:1700000000.000100`): its Slack ts first
 * (`1700000000.000100\u0001msg:T1:C1`), so an answer's rows sit on the same pages (docs/decisions/011).
 * A key without a ts stays as it is; migration 3 rewrote older files' ids.
 */
export function timeLedId(key: string): string {
  const ts = TRAILING_TS.exec(key)?.[1];
  if (ts === undefined || !ts.includes('.')) return key;
  return `${ts}${TIME_LED_SEPARATOR}${key.slice(0, key.length - ts.length - 1)}`;
}

export const SCHEMA_VERSION = MIGRATIONS.length;
const BUSY_TIMEOUT_MS = 5_000;

/** Set on every connection to the file: the gateway's and its writer's (sqlite-background.ts). */
export const CONNECTION_PRAGMAS: readonly string[] = [
  `busy_timeout = ${BUSY_TIMEOUT_MS}`,
  'synchronous = NORMAL',
  // 8 MB of pages rather than SQLite's 2 (docs/decisions/011).
  'cache_size = -8192',
];

function integer(value: SQLOutputValue | undefined): number {
  return typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : 0;
}

/** Opens (creating it if need be) the database at `path` and brings its schema up to date. */
export function openDatabase(path: string): SqliteDatabase {
  const sqlite = loadSqlite();
  if (!sqlite) {
    throw new SqliteStateError(
      `STATE_PATH ${path}: the SQLite store needs node:sqlite, in Node 22.13 or newer; run a newer Node, or set REDIS_URL or STORE=memory`,
    );
  }
  let db: SqliteDatabase | undefined;
  try {
    db = new sqlite.DatabaseSync(path);
    for (const pragma of CONNECTION_PRAGMAS) db.exec(`PRAGMA ${pragma}`);
    db.exec('PRAGMA journal_mode = WAL');
    migrate(db, path);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof SqliteStateError) throw error;
    throw new SqliteStateError(unusableStateLine(path, error), { cause: error });
  }
}

/** SQLite's primary result codes of the failures an operator can do something about. */
const SQLITE_PERM = 3;
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_CORRUPT = 11;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

/** One line for the operator: which file, what is wrong with it, and what to do. */
function unusableStateLine(path: string, error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'errcode' in error && typeof error.errcode === 'number'
      ? error.errcode & 0xff
      : undefined;
  const reason = error instanceof Error ? error.message : String(error);
  switch (code) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return `STATE_PATH ${path} is locked by another process (${reason}): stop the other process using it, or give this gateway a file of its own`;
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
      return `STATE_PATH ${path} cannot be opened for writing (${reason}): let the gateway's user write the file and its folder, or set STATE_PATH to a writable place`;
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return `STATE_PATH ${path} is not a SQLite database of this gateway (${reason}): move the file away, or set STATE_PATH to another file`;
    default:
      return `STATE_PATH ${path} cannot be used (${reason}): check the file, or set STATE_PATH to another one`;
  }
}

function migrate(db: SqliteDatabase, path: string): void {
  immediate(db, () => {
    const version = integer(db.prepare('PRAGMA user_version').get()?.user_version);
    if (version > SCHEMA_VERSION) {
      throw new SqliteStateError(
        `STATE_PATH ${path} was written by a newer release (schema version ${version}, this release reads up to ${SCHEMA_VERSION}): run that release or a newer one, or move the file away`,
      );
    }
    for (const [index, migration] of MIGRATIONS.entries()) {
      if (index < version) continue;
      db.exec(migration);
    }
    // Written even when unchanged: a file that opens but cannot be written (read-only, immutable)
    // is refused here, at start, rather than at the first answer. PRAGMA takes no parameters; the
    // version is this module's own integer.
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}

/** Runs `work` in a write transaction taken at once (BEGIN IMMEDIATE), so it sees no other writer. */
function immediate<T>(db: SqliteDatabase, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** One statement of a batch: its SQL (prepared once per connection) and its parameters. */
export type SqlStatement = readonly [sql: string, params: readonly SQLInputValue[]];

/** Statements to write in one transaction, and what to do once they are committed. */
export interface Batch {
  readonly statements: SqlStatement[];
  written(): void;
}

/**
 * Rows of another table held in process like the key/value table's own, and written in its
 * transaction: one commit for all (docs/decisions/009).
 */
export interface HeldRows {
  /** Whether a row is waiting to be written. */
  readonly waiting: boolean;
  /** The statements that write the waiting rows, and what to do once they are in the file. */
  take(): Batch;
}

/** Another connection to the same file that writes batches off the event loop (sqlite-background.ts). */
export interface BatchWriter {
  /** False once it has failed or is stopping: the caller writes on its own connection once it is `gone`. */
  readonly writing: boolean;
  /**
   * Runs the statements in one transaction, after every batch sent before; resolves with each
   * statement's count of changed rows, rejects when it is not known to be written (the caller writes
   * it again: rewriting a row changes nothing).
   */
  write(statements: readonly SqlStatement[]): Promise<number[]>;
  /** Resolves once it can no longer commit a batch. */
  readonly gone: Promise<void>;
}

const PUT_SQL = `INSERT INTO kv (ns, id, value, expires_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (ns, id) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`;
const DELETE_SQL = 'DELETE FROM kv WHERE ns = ? AND id = ?';
const SWEEP_SQL = 'DELETE FROM kv WHERE (ns, id) IN (SELECT ns, id FROM kv WHERE expires_at <= ? LIMIT ?)';
const IDS_IN_RANGE_SQL =
  'SELECT id FROM kv WHERE ns = ? AND id >= ? AND id < ? AND id > ? ORDER BY id LIMIT ?';
/** Ids read, and deleted, per step of a prefix's deletion: a short statement and a short batch. */
const PREFIX_BATCH = 500;

/** A write not yet in the file: a value with its expiry, or a deletion. */
type PendingWrite = { raw: string; expiresAt: number } | { raw: undefined };
/** A pending write with the row it goes to. */
type HeldWrite = { readonly namespace: string; readonly id: string; readonly write: PendingWrite };

/** Writes gathered into one transaction (docs/decisions/009). */
const FLUSH_AFTER_MS = 500;
/** A failed flush (a file busy past the busy timeout) is tried again after this. */
const RETRY_FLUSH_AFTER_MS = 1_000;
/** Recent rows kept in process, in characters of key and value (docs/decisions/013). */
const RECENT_CHARACTERS = 1_000_000;
/** Keys the filter of this process's writes is first sized for (about 330 KB); it grows by layers. */
const FILTER_FIRST_KEYS = 262_144;
/** Ids SQLite may order otherwise than JavaScript (UTF-8 bytes against UTF-16 units). */
const UNORDERED = /[\uD800-\uFFFF]/;
const ABSENT: PendingWrite = { raw: undefined };

/** A KvTable's writer and its layers (docs/storage.md); a layer left out is on at its default. */
export interface KvTableOptions {
  /** Told what a failed flush threw; the writes stay pending and are tried again. */
  onFlushError?: ((error: unknown) => void) | undefined;
  writer?: BatchWriter | undefined;
  /** Held writes are written after this; 0: at once, one batch per turn of the event loop. */
  flushAfterMs?: number | undefined;
  /** Characters of recent rows kept in process; 0: none. */
  recentCharacters?: number | undefined;
  /** Most absent keys answered without a statement (docs/decisions/012). */
  keyFilter?: boolean | undefined;
}

/** The engine's layers, each on unless turned off (docs/storage.md). */
export interface SqliteLayers
  extends Pick<KvTableOptions, 'flushAfterMs' | 'recentCharacters' | 'keyFilter'> {
  /** Batches written and the log checkpointed by a worker thread (where the stores ask for one). */
  writerThread?: boolean | undefined;
}

/**
 * The key/value table and its layers (docs/storage.md): writes held in process and written in one
 * transaction, by `writer` when given; reads see them until their batch commits. Claims are decided
 * here, so the file is this process's alone.
 */
export class KvTable {
  readonly #get: StatementSync;
  readonly #db: SqliteDatabase;
  readonly #writer: BatchWriter | undefined;
  /** The batch on its way to the writer, if any. */
  #sending: Promise<void> | undefined;
  #closing = false;
  readonly #prepared = new Map<string, StatementSync>();
  readonly #pending = new Map<string, HeldWrite>();
  /** Rows read or written lately, absent ones too: a second look costs no statement. None when off. */
  readonly #recent: LRUCache<string, PendingWrite> | undefined;
  readonly #flushAfterMs: number;
  /**
   * Per namespace, the greatest id in the file at open: an id above it was not there then, and is there
   * now only if this process wrote it (docs/decisions/012).
   */
  readonly #highestAtOpen = new Map<string, string>();
  /** Every key this process has written; undefined with the filter off (every look is a statement). */
  readonly #written: KeyFilter | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #alongside: HeldRows[] = [];
  /** Told what a failed flush threw; the writes stay pending and are tried again. */
  readonly #onFlushError: ((error: unknown) => void) | undefined;

  constructor(db: SqliteDatabase, options: KvTableOptions = {}) {
    this.#db = db;
    this.#onFlushError = options.onFlushError;
    this.#writer = options.writer;
    this.#flushAfterMs = options.flushAfterMs ?? FLUSH_AFTER_MS;
    const recentCharacters = options.recentCharacters ?? RECENT_CHARACTERS;
    this.#recent =
      recentCharacters > 0
        ? new LRUCache({
            maxSize: recentCharacters,
            sizeCalculation: (write, key) => key.length + (write.raw?.length ?? 0) + 16,
          })
        : undefined;
    this.#get = db.prepare('SELECT value, expires_at FROM kv WHERE ns = ? AND id = ? AND expires_at > ?');
    this.#written = (options.keyFilter ?? true) ? new KeyFilter(FILTER_FIRST_KEYS) : undefined;
    if (this.#written) this.#readHighestIds();
  }

  /** One indexed look per namespace, however large the file. */
  #readHighestIds(): void {
    const next = this.#db.prepare('SELECT ns FROM kv WHERE ns > ? ORDER BY ns LIMIT 1');
    const highest = this.#db.prepare('SELECT max(id) AS id FROM kv WHERE ns = ?');
    for (let row = next.get(''); typeof row?.ns === 'string'; row = next.get(row.ns)) {
      const id = highest.get(row.ns)?.id;
      if (typeof id === 'string') this.#highestAtOpen.set(row.ns, id);
    }
  }

  /** False only for a key neither in the file at open nor written since. */
  #mayBeInFile(namespace: string, id: string, key: string): boolean {
    if (!this.#written) return true;
    const highest = this.#highestAtOpen.get(namespace);
    const newer = highest === undefined || (id > highest && !UNORDERED.test(id) && !UNORDERED.test(highest));
    return !newer || this.#written.mayHold(key);
  }

  /** The live value: pending, recently read or written, or in the file. */
  get(namespace: string, id: string, now: number): string | undefined {
    const key = pendingKey(namespace, id);
    const known = this.#pending.get(key)?.write ?? this.#recent?.get(key);
    if (known) return known.raw !== undefined && known.expiresAt > now ? known.raw : undefined;
    if (!this.#mayBeInFile(namespace, id, key)) return undefined;
    const row = this.#get.get(namespace, id, now);
    const read: PendingWrite =
      typeof row?.value === 'string' && typeof row.expires_at === 'number'
        ? { raw: row.value, expiresAt: row.expires_at }
        : ABSENT;
    // Absent stays absent until this process writes it: the file is this process's alone.
    this.#recent?.set(key, read);
    return read.raw;
  }

  put(namespace: string, id: string, raw: string, expiresAt: number): void {
    this.#hold(namespace, id, { raw, expiresAt });
  }

  /** Writes only where no live value is; false when one was there and nothing was written. */
  putIfAbsent(namespace: string, id: string, raw: string, expiresAt: number, now: number): boolean {
    if (this.get(namespace, id, now) !== undefined) return false;
    this.#hold(namespace, id, { raw, expiresAt });
    return true;
  }

  delete(namespace: string, id: string): void {
    this.#hold(namespace, id, ABSENT);
  }

  /** Deletes only while the live value is `raw` (a lock still held by its owner). */
  deleteIfEquals(namespace: string, id: string, raw: string, now: number): boolean {
    if (this.get(namespace, id, now) !== raw) return false;
    this.delete(namespace, id);
    return true;
  }

  /**
   * Deletes every id of `namespace` starting with `prefix` (printable ASCII): the held writes among
   * them, then the file's, a range of the primary key PREFIX_BATCH ids at a time, each held as a
   * deletion (so no layer reads one back) and written before the next range is read. How many went.
   */
  async deleteStartingWith(namespace: string, prefix: string): Promise<number> {
    const held = new Set<string>();
    for (const { namespace: ns, id, write } of this.#pending.values()) {
      if (ns !== namespace || write.raw === undefined || !id.startsWith(prefix)) continue;
      held.add(id);
      this.delete(namespace, id);
    }
    let deleted = held.size;
    const end = prefixEnd(prefix);
    let after = '';
    for (;;) {
      const rows = this.#prepare(IDS_IN_RANGE_SQL).all(namespace, prefix, end, after, PREFIX_BATCH);
      for (const row of rows) {
        if (typeof row.id !== 'string') continue;
        after = row.id;
        if (!held.has(row.id)) deleted += 1;
        this.delete(namespace, row.id);
      }
      await this.write();
      if (rows.length < PREFIX_BATCH) return deleted;
    }
  }

  /** Deletes at most `limit` expired rows from the file, after what is held; returns how many. */
  async sweep(now: number, limit: number): Promise<number> {
    await this.write();
    const [deleted = 0] = await this.execute([[SWEEP_SQL, [now, limit]]]);
    return deleted;
  }

  /**
   * Runs statements in one transaction after every batch sent before them: on the writer, or on this
   * connection once the writer has gone. Resolves with each one's count of changed rows.
   */
  async execute(statements: readonly SqlStatement[]): Promise<number[]> {
    if (this.#writer?.writing) return this.#writer.write(statements);
    // A writer that failed may still be finishing a batch: nothing is written here before it is gone.
    if (this.#writer) await this.#writer.gone;
    return this.#commit(statements);
  }

  /** Rows of another table to write in this table's flushes (see `HeldRows`). */
  writeAlongside(rows: HeldRows): void {
    this.#alongside.push(rows);
  }

  /** Writes within the flush delay: rows written alongside are waiting. */
  flushSoon(): void {
    this.#flushAfter(this.#flushAfterMs);
  }

  /**
   * Writes every pending write to the file, with the rows written alongside: on the writer, after any
   * batch already on its way, or on this connection without one. A failure leaves them pending and
   * tries again within RETRY_FLUSH_AFTER_MS.
   */
  async write(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      while (this.#sending) await this.#sending.catch(() => undefined);
      if (this.#closing) return;
      const batch = this.#takeBatch();
      if (!batch) return;
      const sending = this.execute(batch.statements).then(() => batch.written());
      this.#sending = sending;
      try {
        await sending;
      } finally {
        if (this.#sending === sending) this.#sending = undefined;
      }
    } catch (error) {
      this.#flushAfter(RETRY_FLUSH_AFTER_MS);
      throw error;
    }
  }

  /**
   * Writes every pending write on this connection, now, in one transaction: without a writer, or once
   * it has stopped (a close, after the writer's last batch).
   */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#takeBatch();
    if (!batch) return;
    this.#commit(batch.statements);
    batch.written();
  }

  /** Timers write no more: the close writes what is left (flush) once the writer has stopped. */
  close(): void {
    this.#closing = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Every pending write and held row as statements; once written, what is still as it was leaves pending. */
  #takeBatch(): Batch | undefined {
    if (this.#pending.size === 0 && !this.#alongside.some((rows) => rows.waiting)) return undefined;
    const writes = [...this.#pending];
    const alongside = this.#alongside.map((rows) => rows.take());
    const statements = alongside.flatMap((rows) => rows.statements);
    for (const [key, { namespace, id, write }] of writes) {
      if (write.raw === undefined) statements.push([DELETE_SQL, [namespace, id]]);
      else {
        statements.push([PUT_SQL, [namespace, id, write.raw, write.expiresAt]]);
        // Before the commit: the filter may say a key is there that is not yet, never the reverse.
        this.#written?.add(key);
      }
    }
    return {
      statements,
      written: () => {
        for (const rows of alongside) rows.written();
        // Only what is still as it was written: a write made meanwhile waits for the next batch.
        for (const [key, held] of writes) {
          if (this.#pending.get(key) !== held) continue;
          this.#pending.delete(key);
          this.#recent?.set(key, held.write);
        }
      },
    };
  }

  /** Runs the statements on this connection in one transaction; each one's count of changed rows. */
  #commit(statements: readonly SqlStatement[]): number[] {
    return immediate(this.#db, () =>
      statements.map(([sql, params]) => Number(this.#prepare(sql).run(...params).changes)),
    );
  }

  /** Prepared once per connection. */
  #prepare(sql: string): StatementSync {
    let statement = this.#prepared.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#prepared.set(sql, statement);
    }
    return statement;
  }

  #hold(namespace: string, id: string, write: PendingWrite): void {
    this.#pending.set(pendingKey(namespace, id), { namespace, id, write });
    this.#flushAfter(this.#flushAfterMs);
  }

  /** A write from a timer never throws: a busy or failing file is told, and tried again (write). */
  #flushAfter(delayMs: number): void {
    if (this.#closing) return;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.write().catch((error: unknown) => this.#onFlushError?.(error));
    }, delayMs);
  }
}

/**
 * The least string above every one that starts with `prefix`, which ends in printable ASCII: its last
 * character one higher, so that `prefix <= id < end` in SQLite's byte order.
 */
export function prefixEnd(prefix: string): string {
  return `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
}

// Namespaces are the stores' own names, without this separator.
const SEPARATOR = '\u0000';
const pendingKey = (namespace: string, id: string) => `${namespace}${SEPARATOR}${id}`;

/** Strings kept in the file, answered at once: no await between a look and a write. */
export interface SqliteStrings extends KeptStrings {
  raw(id: string): string | undefined;
  setRaw(id: string, raw: string, ttlSeconds: number, options?: { onlyIfAbsent?: boolean }): boolean;
  deleteIfEquals(id: string, raw: string): boolean;
}

/** The SQLite engine's strings of one namespace: the `ns` of the key/value table, on all its layers. */
export function sqliteStrings(kv: KvTable, namespace: string, now: Clock): SqliteStrings {
  return {
    raw: (id) => kv.get(namespace, id, now()),
    setRaw(id, raw, ttlSeconds, options) {
      const at = now();
      const expiresAt = at + ttlMs(ttlSeconds);
      if (options?.onlyIfAbsent) return kv.putIfAbsent(namespace, id, raw, expiresAt, at);
      kv.put(namespace, id, raw, expiresAt);
      return true;
    },
    delete: (id) => kv.delete(namespace, id),
    deleteIfEquals: (id, raw) => kv.deleteIfEquals(namespace, id, raw, now()),
    deleteStartingWith: (prefix) => kv.deleteStartingWith(namespace, prefix),
  };
}
