// A SQLite state file holding `answers` answers' rows as the gateway writes them (a delivery kept for
// the dedup TTL, a thread and a context for the context TTL), for the load bench's BENCH_PREFILL. Built
// once per count and schema version under the temporary folder, in big transactions, then copied.
import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newContextKey } from '../src/conversation/context-key.js';
import { openDatabase, SCHEMA_VERSION, timeLedId } from '../src/stores/sqlite-database.js';

/** The gateway's defaults (DEDUP_TTL_SECONDS, CONTEXT_TTL_SECONDS). */
const DEDUP_TTL_MS = 6 * 3600 * 1000;
const CONTEXT_TTL_MS = 7 * 24 * 3600 * 1000;
/** The answers are spread over the hour before the file is built; a cached file older than this is rebuilt. */
const SPREAD_MS = 3600 * 1000;
const CACHE_MAX_AGE_MS = 4 * 3600 * 1000;
const ROWS_PER_TRANSACTION = 50_000;
const CHANNELS = 40;
const USERS = 5_000;

const PUT_SQL = 'INSERT OR REPLACE INTO kv (ns, id, value, expires_at) VALUES (?, ?, ?, ?)';

/** A context as the gateway stores one: a question, the answer's document, three suggestions. */
function contextJson(n: number, channel: string, user: string, ts: string, createdAt: number): string {
  return JSON.stringify({
    cid: `cid-${n}`,
    msgId: `m${n}`,
    docId: `doc-${n % 997}`,
    docName: `How do I change the billing address on invoice number ${n % 997}?`,
    robotFlag: 1,
    partnerId: `T0BENCH:${user}`,
    askerUserId: user,
    question: `how can I change the billing address on my invoice ${n}`,
    suggestions: [1, 2, 3].map((k) => ({
      question: `Where do I find invoice settings, part ${(n + k) % 997}?`,
      docId: `doc-${(n + k) % 997}`,
    })),
    rateable: true,
    conversationId: channel,
    threadId: ts,
    createdAt,
    placement: { language: 'auto', reply: 'thread' },
  });
}

/** Writes `answers` answers' rows into a new file at `path`. */
function build(path: string, answers: number): void {
  const db = openDatabase(path);
  try {
    const put = db.prepare(PUT_SQL);
    const start = Date.now() - SPREAD_MS;
    let inTransaction = 0;
    db.exec('BEGIN');
    for (let n = 0; n < answers; n++) {
      const at = start + Math.floor((n * SPREAD_MS) / answers);
      const ts = `${Math.floor(at / 1000)}.${String((at % 1000) * 1000 + (n % 1000)).padStart(6, '0')}`;
      const channel = `C0BENCH${n % CHANNELS}`;
      const user = `U0BENCH${n % USERS}`;
      put.run('once', timeLedId(`msg:T0BENCH:${channel}:${ts}`), '1', at + DEDUP_TTL_MS);
      put.run('thread', timeLedId(`thread:T0BENCH:${channel}:${ts}`), '1', at + CONTEXT_TTL_MS);
      put.run('ctx', newContextKey(at), contextJson(n, channel, user, ts, at), at + CONTEXT_TTL_MS);
      inTransaction += 3;
      if (inTransaction >= ROWS_PER_TRANSACTION) {
        db.exec('COMMIT; BEGIN');
        inTransaction = 0;
      }
    }
    db.exec('COMMIT');
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * Copies a file of `answers` answers' rows to `path` (which must not exist yet), building it first
 * when no fresh one is cached. Returns the cached file's size in bytes.
 */
export function prefillSqlite(path: string, answers: number): { bytes: number; built: boolean } {
  const cached = join(tmpdir(), `gateway-bench-prefill-v${SCHEMA_VERSION}-${answers}.sqlite`);
  const fresh = existsSync(cached) && Date.now() - statSync(cached).mtimeMs < CACHE_MAX_AGE_MS - SPREAD_MS;
  if (!fresh) {
    const building = `${cached}.${process.pid}.building`;
    rmSync(building, { force: true });
    build(building, answers);
    for (const suffix of ['-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
    renameSync(building, cached);
  }
  copyFileSync(cached, path);
  return { bytes: statSync(cached).size, built: !fresh };
}
