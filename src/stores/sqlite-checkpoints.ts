// Moving the write-ahead log into the database file (a checkpoint) copies every page written since
// the last one and syncs the file: done by SQLite at a commit, it stopped the event loop for
// milliseconds at a time under load. Here a worker thread of its own, on its own connection,
// checkpoints every second; the gateway's connection only appends to the log.

import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite-database.js';

/** SQLite's own default: a checkpoint at the commit that takes the log past this many pages. */
const INLINE_CHECKPOINT_PAGES = 1_000;

/**
 * The worker, as a script: it imports nothing of ours, so it runs the same from TypeScript (tsx,
 * vitest) and from the compiled code. PASSIVE copies what it can without waiting for a reader or the
 * writer, so it never holds up the gateway's connection.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
const fail = (error) => parentPort.postMessage({ kind: 'failed', message: String(error && error.message || error) });
let db;
let timer;
try {
  db = new DatabaseSync(workerData.path);
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  timer = setInterval(() => {
    try {
      checkpoint.get();
    } catch (error) {
      clearInterval(timer);
      fail(error);
    }
  }, workerData.everyMs);
} catch (error) {
  fail(error);
}
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try {
    db?.close();
  } finally {
    parentPort.close();
  }
});
`;

/** What the worker says: only that it failed (its checkpoints otherwise go unremarked). */
type WorkerMessage = { kind: 'failed'; message: string };

export interface BackgroundCheckpoints {
  /** Resolves once the worker has checkpointed for the last time and closed its connection. */
  stop(): Promise<void>;
}

/**
 * Checkpoints `db`'s file from a worker every `everyMs`. Should the worker fail (it cannot open the
 * file, a checkpoint throws, it dies), the connection checkpoints at its commits again, as SQLite
 * does by default, so the log never grows without bound; `onFailure` is told why.
 */
export function checkpointInBackground(
  db: SqliteDatabase,
  path: string,
  options: { everyMs: number; onFailure?: (error: Error) => void },
): BackgroundCheckpoints {
  db.exec('PRAGMA wal_autocheckpoint = 0');
  let stopping = false;
  let fellBack = false;
  const fallBack = (error: Error) => {
    if (fellBack || stopping) return;
    fellBack = true;
    try {
      db.exec(`PRAGMA wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
    } catch {
      // The connection is closing: nothing is written any more, so nothing needs checkpointing.
    }
    options.onFailure?.(error);
    void worker.terminate();
  };
  // The main thread has said once that node:sqlite is experimental (Node 22); the worker need not again.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: ['--no-warnings'],
    workerData: { path, everyMs: options.everyMs },
  });
  // The checkpoints must not keep a process alive that has nothing else to do.
  worker.unref();
  worker.on('message', (message: WorkerMessage) => {
    if (message.kind === 'failed') fallBack(new Error(`background checkpoint failed: ${message.message}`));
  });
  worker.on('error', (error) => fallBack(error));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => fallBack(new Error('background checkpoint worker exited')));
  return {
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
