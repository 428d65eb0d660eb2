// The gateway's SQLite file is written and checkpointed by a worker thread, not on the event loop (a
// commit held it up under load, and for the whole busy timeout behind another process's lock); when
// the worker cannot work, the event loop writes, and the commits checkpoint, again.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createSqliteStores } from '../../../src/stores/sqlite.js';
import { BackgroundWriteError, startBackgroundConnection } from '../../../src/stores/sqlite-background.js';
import { openDatabase } from '../../../src/stores/sqlite-database.js';
import { answerContext } from '../../support/answer-context.js';
import { runEntry } from '../../support/child-process.js';
import { tempStateFiles } from '../../support/temp-state-files.js';
import { waitFor } from '../../support/wait.js';

const tempPath = tempStateFiles('sqlite-background-');

const size = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/** Enough contexts that their pages pass SQLite's 1,000-page threshold for a checkpoint at a commit. */
async function writeManyContexts(stores: ReturnType<typeof createSqliteStores>): Promise<void> {
  const context = answerContext({ question: 'A question long enough to fill pages? '.repeat(40) });
  for (let n = 0; n < 3_000; n++) await stores.contexts.put(`C1:${n}`, context);
}

describe('background checkpoints', () => {
  it('leaves the commits to append to the log and moves it into the file from the worker', async () => {
    const path = tempPath();
    const stores = createSqliteStores(path, { ttlSeconds: 60, checkpointEveryMs: 200 });
    const fileBefore = size(path);
    await writeManyContexts(stores);
    // The held writes are committed within 500 ms; the log now holds them, the file not yet.
    await waitFor(() => size(`${path}-wal`) > 4_096 * 1_000);
    await waitFor(() => size(path) > 4_096 * 1_000);
    expect(size(path)).toBeGreaterThan(fileBefore + 4_096 * 1_000);
    await stores.close();
    const reopened = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await reopened.contexts.get('C1:2999')).toBeDefined();
    await reopened.close();
  });

  it('does not checkpoint at a commit while the worker is on it', async () => {
    const path = tempPath();
    // A worker that will not get to its first checkpoint during the test.
    const stores = createSqliteStores(path, { ttlSeconds: 60, checkpointEveryMs: 600_000 });
    await writeManyContexts(stores);
    await waitFor(() => size(`${path}-wal`) > 4_096 * 1_000);
    // With SQLite's default the commit past 1,000 pages would have copied them into the file.
    expect(size(path)).toBeLessThan(4_096 * 100);
    await stores.close();
    // The last connection to close checkpoints what is left: nothing is lost.
    const reopened = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await reopened.contexts.get('C1:0')).toBeDefined();
    await reopened.close();
  });

  it('closes, writing what is held, in a process with nothing else to keep it alive', async () => {
    const path = tempPath();
    const closing = runEntry('test/entries/close-sqlite-stores.ts', { STATE_FILE: path });
    expect(await closing.exited).toBe(0);
    expect(closing.stdout).toContain('closed');
    const reopened = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await reopened.contexts.get('T1:C1:1.1')).toBeDefined();
    await reopened.close();
  }, 20_000);

  it('hands writes and checkpoints back to the event loop and says why when the worker cannot open the file', async () => {
    const path = tempPath();
    const db = openDatabase(path);
    const failures: Error[] = [];
    const background = startBackgroundConnection(db, join(path, 'not-a-folder', 'state.sqlite'), {
      everyMs: 50,
      onFailure: (error) => failures.push(error),
    });
    await waitFor(() => failures.length > 0);
    expect(failures[0]?.message).toMatch(/background SQLite worker failed/);
    expect(db.prepare('PRAGMA wal_autocheckpoint').get()).toEqual({ wal_autocheckpoint: 1_000 });
    expect(background.writing).toBe(false);
    await expect(background.write([['DELETE FROM kv', []]])).rejects.toBeInstanceOf(BackgroundWriteError);
    await background.stop();
    db.close();
  });

  it('writes from the worker what the stores hold, and reads it meanwhile from the process', async () => {
    const path = tempPath();
    const stores = createSqliteStores(path, { ttlSeconds: 60, checkpointEveryMs: 1_000 });
    const reader = new DatabaseSync(path);
    const inFile = (id: string) =>
      reader.prepare("SELECT count(*) AS n FROM kv WHERE ns = 'ctx' AND id = ?").get(id)?.n === 1;
    try {
      await stores.contexts.put('k1', answerContext());
      expect(inFile('k1')).toBe(false);
      expect(await stores.contexts.get('k1')).toStrictEqual(answerContext());
      await waitFor(() => inFile('k1'));
      expect(await stores.contexts.get('k1')).toStrictEqual(answerContext());
      // A sweep goes through the worker too, after what was held before it.
      await stores.names.set('U1', 'Ada', 60);
      expect(await stores.sweepExpired(10)).toBe(0);
      expect(reader.prepare("SELECT count(*) AS n FROM kv WHERE ns = 'name'").get()?.n).toBe(1);
    } finally {
      reader.close();
      await stores.close();
    }
  });
});
