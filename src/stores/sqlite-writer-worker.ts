// The SQLite file's writer, run as a worker thread by sqlite-background.ts: it writes the gateway's
// batches and checkpoints the write-ahead log off the event loop. It imports only Node's own modules
// at run time, so Node loads it as it is: compiled (dist), or its types stripped (tsx, vitest).
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/** What the worker is started with. */
export interface WriterWorkerData {
  path: string;
  everyMs: number;
  pragmas: readonly string[];
}

/** A batch, flat: each statement as its SQL's index, its count of parameters, then them. */
export interface WriteRequest {
  kind: 'write';
  id: number;
  sqls: string[];
  flat: SQLInputValue[];
}

/** What the worker says: a batch written or not, or that it cannot go on (checkpoints or its connection). */
export type WriterMessage =
  | { kind: 'failed'; message: string }
  | { kind: 'written'; id: number; changes: number[] }
  | { kind: 'write-failed'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('sqlite-writer-worker runs as a worker thread');
const data = workerData as WriterWorkerData;
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
const say = (message: WriterMessage) => port.postMessage(message);

const prepared = new Map<string, StatementSync>();
let db: DatabaseSync | undefined;
let timer: NodeJS.Timeout | undefined;

function statement(open: DatabaseSync, sql: string): StatementSync {
  let found = prepared.get(sql);
  if (!found) {
    found = open.prepare(sql);
    prepared.set(sql, found);
  }
  return found;
}

/** One transaction; BEGIN IMMEDIATE waits out another writer's lock here, not on the event loop. */
function write({ sqls, flat }: WriteRequest): number[] {
  if (!db) throw new Error('the worker has no connection');
  const open = db;
  open.exec('BEGIN IMMEDIATE');
  try {
    const changes: number[] = [];
    for (let at = 0; at < flat.length; ) {
      const sql = sqls[Number(flat[at])] ?? '';
      const count = Number(flat[at + 1]);
      changes.push(Number(statement(open, sql).run(...flat.slice(at + 2, at + 2 + count)).changes));
      at += 2 + count;
    }
    open.exec('COMMIT');
    return changes;
  } catch (error) {
    open.exec('ROLLBACK');
    throw error;
  }
}

try {
  db = new DatabaseSync(data.path);
  for (const pragma of data.pragmas) db.exec(`PRAGMA ${pragma}`);
  db.exec('PRAGMA wal_autocheckpoint = 0');
  // PASSIVE: copies what it can without waiting for a reader or the writer.
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  timer = setInterval(() => {
    try {
      checkpoint.get();
    } catch (error) {
      clearInterval(timer);
      say({ kind: 'failed', message: reason(error) });
    }
  }, data.everyMs);
} catch (error) {
  db = undefined;
  say({ kind: 'failed', message: reason(error) });
}

port.on('message', (message: WriteRequest | 'stop') => {
  if (message === 'stop') {
    clearInterval(timer);
    try {
      db?.close();
    } finally {
      port.close();
    }
    return;
  }
  try {
    say({ kind: 'written', id: message.id, changes: write(message) });
  } catch (error) {
    say({ kind: 'write-failed', id: message.id, message: reason(error) });
  }
});
