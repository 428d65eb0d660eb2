// The SQLite file's writer connection, on a worker thread (sqlite-writer-worker.ts): batches and
// checkpoints held up the event loop (docs/decisions/010). The gateway's connection reads.

import { extname } from 'node:path';
import type { SQLInputValue } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  type BatchWriter,
  CONNECTION_PRAGMAS,
  type SqliteDatabase,
  type SqlStatement,
} from './sqlite-database.js';
import type { WriteRequest, WriterMessage, WriterWorkerData } from './sqlite-writer-worker.js';

/** The worker beside this module: `.js` once compiled, `.ts` under tsx and vitest (its types stripped). */
const WORKER_URL = new URL(
  `./sqlite-writer-worker${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);
/**
 * The main thread has said once that node:sqlite is experimental (Node 22); a Node 22 before 22.18
 * strips a `.ts` file's types only when asked.
 */
const WORKER_EXEC_ARGV = [
  '--no-warnings',
  ...(WORKER_URL.pathname.endsWith('.ts') && !process.features.typescript
    ? ['--experimental-strip-types']
    : []),
];

/** SQLite's own default: a checkpoint at the commit that takes the log past this many pages. */
const INLINE_CHECKPOINT_PAGES = 1_000;

/** A batch the worker did not write (the file busy past the busy timeout, full, gone; the worker stopped). */
export class BackgroundWriteError extends Error {
  override readonly name = 'BackgroundWriteError';
}

/** Its `write` rejects with BackgroundWriteError; it is `gone` once the worker has exited. */
export interface BackgroundConnection extends BatchWriter {
  /** Resolves once the worker has written what it was sent, checkpointed, and closed its connection. */
  stop(): Promise<void>;
}

/**
 * Starts the worker on the file at `path`, which `db` has open, checkpointing every `everyMs`. Should
 * the worker fail (it cannot open the file, a checkpoint throws, it dies), `writing` turns false,
 * the batches it was sent are rejected (the caller writes them on `db` once the worker is `gone`),
 * and `db` checkpoints at its commits again, as SQLite does by default, so the log never grows
 * without bound; `onFailure` is told why.
 */
export function startBackgroundConnection(
  db: SqliteDatabase,
  path: string,
  options: { everyMs: number; onFailure?: (error: Error) => void },
): BackgroundConnection {
  db.exec('PRAGMA wal_autocheckpoint = 0');
  let stopping = false;
  let failed = false;
  let nextId = 1;
  const sent = new Map<number, { resolve: (changes: number[]) => void; reject: (error: Error) => void }>();
  // The worker keeps the process alive while a batch is on its way, and not otherwise.
  const settle = (id: number) => {
    const batch = sent.get(id);
    sent.delete(id);
    if (sent.size === 0 && !stopping) worker.unref();
    return batch;
  };
  const fallBack = (error: Error) => {
    if (failed) return;
    failed = true;
    // Not known to be written: they are the caller's to write again.
    for (const id of [...sent.keys()]) {
      settle(id)?.reject(new BackgroundWriteError(error.message, { cause: error }));
    }
    if (stopping) return;
    try {
      db.exec(`PRAGMA wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
    } catch {
      // The connection is closing: nothing is written any more, so nothing needs checkpointing.
    }
    options.onFailure?.(error);
    void worker.terminate();
  };
  const worker = new Worker(WORKER_URL, {
    execArgv: WORKER_EXEC_ARGV,
    workerData: { path, everyMs: options.everyMs, pragmas: CONNECTION_PRAGMAS } satisfies WriterWorkerData,
  });
  worker.unref();
  worker.on('message', (message: WriterMessage) => {
    if (message.kind === 'failed') fallBack(new Error(`background SQLite worker failed: ${message.message}`));
    else if (message.kind === 'written') settle(message.id)?.resolve(message.changes);
    else settle(message.id)?.reject(new BackgroundWriteError(message.message));
  });
  worker.on('error', (error) => fallBack(error));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => fallBack(new Error('background SQLite worker exited')));
  return {
    gone: exited,
    get writing() {
      return !failed && !stopping;
    },
    write(statements) {
      if (failed || stopping) {
        return Promise.reject(new BackgroundWriteError('the background SQLite worker is not running'));
      }
      const id = nextId++;
      return new Promise<number[]>((resolve, reject) => {
        sent.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ kind: 'write', id, ...encode(statements) } satisfies WriteRequest);
      });
    },
    async stop() {
      stopping = true;
      // Kept alive until it is done: a stop awaited by nothing else must still come back to its caller,
      // which writes what is held and closes the file after it.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}

/**
 * A batch as the worker takes it: each SQL once, and one flat array of plain values (its index, its
 * count of parameters, them), cheaper to clone than an array per statement with its SQL repeated.
 */
function encode(statements: readonly SqlStatement[]): { sqls: string[]; flat: SQLInputValue[] } {
  const sqls: string[] = [];
  const indexOf = new Map<string, number>();
  const flat: SQLInputValue[] = [];
  for (const [sql, params] of statements) {
    let index = indexOf.get(sql);
    if (index === undefined) {
      index = sqls.push(sql) - 1;
      indexOf.set(sql, index);
    }
    flat.push(index, params.length, ...params);
  }
  return { sqls, flat };
}
