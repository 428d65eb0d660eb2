// One SQLite database file through Node's built-in node:sqlite: opened in WAL mode, its schema
// migrated forward at open, and one key/value table of JSON values with an expiry, as Redis keeps them.
// node:sqlite is loaded at run time (Node 22.13 and later), so Node 20 can still load this module.
import type { z } from 'zod';
import { parseJsonWith } from '../util/json.js';

type SqlValue = null | number | bigint | string | Uint8Array;
type SqlRow = Record<string, SqlValue>;

/** The parts of node:sqlite's StatementSync used here (@types/node 20 does not declare the module). */
interface SqliteStatement {
  get(...parameters: SqlValue[]): SqlRow | undefined;
  all(...parameters: SqlValue[]): SqlRow[];
  run(...parameters: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
}

/** The parts of node:sqlite's DatabaseSync used here. */
export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

interface SqliteModule {
  DatabaseSync: new (path: string) => SqliteDatabase;
}

function isSqliteModule(loaded: object | undefined): loaded is SqliteModule {
  return loaded !== undefined && 'DatabaseSync' in loaded && typeof loaded.DatabaseSync === 'function';
}

/** node:sqlite, or undefined on a Node without it (20, 22 before 22.13). */
export function loadSqlite(): SqliteModule | undefined {
  // getBuiltinModule itself is Node 20.16+ / 22.3+; older ones have neither.
  const loaded: object | undefined = process.getBuiltinModule?.('node:sqlite');
  return isSqliteModule(loaded) ? loaded : undefined;
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
];

export const SCHEMA_VERSION = MIGRATIONS.length;
const BUSY_TIMEOUT_MS = 5_000;

export type Clock = () => number;

/** Milliseconds a TTL in seconds lasts; refuses what Redis refuses. */
export function ttlMs(ttlSeconds: number): number {
  if (!(ttlSeconds > 0)) throw new RangeError(`ttlSeconds must be positive, got ${ttlSeconds}`);
  return ttlSeconds * 1000;
}

function integer(value: SqlValue | undefined): number {
  return typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : 0;
}

/** Opens (creating it if need be) the database at `path` and brings its schema up to date. */
export function openDatabase(path: string): SqliteDatabase {
  const sqlite = loadSqlite();
  if (!sqlite) {
    throw new SqliteStateError(`SQLite state at ${path} needs node:sqlite: run Node 22.13 or newer`);
  }
  let db: SqliteDatabase;
  try {
    db = new sqlite.DatabaseSync(path);
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
  } catch (error) {
    throw new SqliteStateError(`cannot open the SQLite state at ${path}: ${String(error)}`, { cause: error });
  }
  try {
    migrate(db, path);
  } catch (error) {
    db.close();
    if (error instanceof SqliteStateError) throw error;
    throw new SqliteStateError(`cannot read the SQLite state at ${path}: ${String(error)}`, { cause: error });
  }
  return db;
}

function migrate(db: SqliteDatabase, path: string): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const version = integer(db.prepare('PRAGMA user_version').get()?.user_version);
    if (version > SCHEMA_VERSION) {
      throw new SqliteStateError(
        `the SQLite state at ${path} has schema version ${version}, newer than this release's ${SCHEMA_VERSION}: run a newer release or move the file away`,
      );
    }
    for (const [index, migration] of MIGRATIONS.entries()) {
      if (index < version) continue;
      db.exec(migration);
    }
    // PRAGMA takes no parameters; the version is this module's own integer.
    if (version < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** Runs `work` in a write transaction taken at once (BEGIN IMMEDIATE), so it sees no other writer. */
export function immediate<T>(db: SqliteDatabase, work: () => T): T {
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

type StoredValue<T> = { kind: 'value'; value: T } | { kind: 'missing' } | { kind: 'unreadable' };

/** The statements of the key/value table, prepared once per connection and shared by its namespaces. */
export class KvStatements {
  readonly get: SqliteStatement;
  readonly put: SqliteStatement;
  readonly putIfAbsent: SqliteStatement;
  readonly delete: SqliteStatement;
  readonly deleteIfEquals: SqliteStatement;
  readonly sweep: SqliteStatement;

  constructor(db: SqliteDatabase) {
    this.get = db.prepare('SELECT value FROM kv WHERE ns = ? AND id = ? AND expires_at > ?');
    this.put = db.prepare(
      `INSERT INTO kv (ns, id, value, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (ns, id) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    );
    // One statement: an expired row counts as absent and is taken over.
    this.putIfAbsent = db.prepare(
      `INSERT INTO kv (ns, id, value, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (ns, id) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
       WHERE kv.expires_at <= ?`,
    );
    this.delete = db.prepare('DELETE FROM kv WHERE ns = ? AND id = ?');
    this.deleteIfEquals = db.prepare('DELETE FROM kv WHERE ns = ? AND id = ? AND value = ?');
    this.sweep = db.prepare(
      'DELETE FROM kv WHERE (ns, id) IN (SELECT ns, id FROM kv WHERE expires_at <= ? LIMIT ?)',
    );
  }
}

/** One namespace of JSON values, each with a TTL, checked with zod when read back. */
export class SqliteJsonStore<T> {
  readonly #kv: KvStatements;
  readonly #namespace: string;
  readonly #schema: z.ZodType<T>;
  readonly #now: Clock;

  constructor(kv: KvStatements, namespace: string, schema: z.ZodType<T>, now: Clock) {
    this.#kv = kv;
    this.#namespace = namespace;
    this.#schema = schema;
    this.#now = now;
  }

  /** The value, or undefined when there is none, it expired, or it does not parse (it is no value). */
  get(id: string): T | undefined {
    const read = this.read(id);
    return read.kind === 'value' ? read.value : undefined;
  }

  read(id: string): StoredValue<T> {
    const raw = this.raw(id);
    if (raw === undefined) return { kind: 'missing' };
    const value = parseJsonWith(raw, this.#schema);
    return value === undefined ? { kind: 'unreadable' } : { kind: 'value', value };
  }

  /** The stored string as it is, unchecked (a lock's owner). */
  raw(id: string): string | undefined {
    const value = this.#kv.get.get(this.#namespace, id, this.#now())?.value;
    return typeof value === 'string' ? value : undefined;
  }

  /** Writes with a TTL; with `onlyIfAbsent`, false when a live value was there and nothing was written. */
  set(id: string, value: T, ttlSeconds: number, options?: { onlyIfAbsent?: boolean }): boolean {
    return this.setRaw(id, JSON.stringify(value), ttlSeconds, options);
  }

  setRaw(id: string, raw: string, ttlSeconds: number, options?: { onlyIfAbsent?: boolean }): boolean {
    const now = this.#now();
    const expiresAt = now + ttlMs(ttlSeconds);
    if (options?.onlyIfAbsent) {
      return integer(Number(this.#kv.putIfAbsent.run(this.#namespace, id, raw, expiresAt, now).changes)) > 0;
    }
    this.#kv.put.run(this.#namespace, id, raw, expiresAt);
    return true;
  }

  delete(id: string): void {
    this.#kv.delete.run(this.#namespace, id);
  }

  /** Deletes only while the stored string is `raw` (a lock still held by its owner). */
  deleteIfEquals(id: string, raw: string): boolean {
    return integer(this.#kv.deleteIfEquals.run(this.#namespace, id, raw).changes) > 0;
  }

  has(id: string): boolean {
    return this.raw(id) !== undefined;
  }
}
