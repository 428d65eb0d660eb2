// The SQLite stores as a fleet: one replica's stores on a temporary database file (the file is one
// replica's: its writes are decided in process, KvTable), deleted with its folder on close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStores } from '../../../../src/stores/sqlite.js';
import type { SqliteLayers } from '../../../../src/stores/sqlite-database.js';
import { holdByChange, type ReplicaStores, type StoreImplementation } from './fleet.js';

/** The stores on a fresh file; with `checkpointEveryMs`, a worker thread writes the batches (the gateway's way). */
function sqliteImplementation(
  name: string,
  checkpointEveryMs?: number,
  layers?: SqliteLayers,
): StoreImplementation {
  return {
    name,
    async open({ lockWaitMs }) {
      const folder = mkdtempSync(join(tmpdir(), 'stores-contract-'));
      const stores = createSqliteStores(join(folder, 'state.sqlite'), {
        ttlSeconds: 60,
        lockWaitMs,
        lockPollMs: 5,
        ...(checkpointEveryMs === undefined ? {} : { checkpointEveryMs }),
        ...(layers === undefined ? {} : { layers }),
      });
      const replica: ReplicaStores = { ...stores, claims: stores.deliveries };
      return {
        replicas: [replica, replica],
        // A change of the card that does not finish holds its lock, as another handling would.
        holdCard: (id) => holdByChange(stores.reviewCards, id),
        async close() {
          await stores.close();
          rmSync(folder, { recursive: true, force: true });
        },
      };
    },
  };
}

export const sqliteStores = sqliteImplementation('SQLite, one file');
export const sqliteStoresWithWorker = sqliteImplementation('SQLite, one file, written by its worker', 1_000);

/** The gateway's way with one layer turned off (docs/storage.md): every contract still holds. */
export const sqliteLayersOff: StoreImplementation[] = [
  sqliteImplementation('SQLite, writes not held (SQLITE_FLUSH_AFTER_MS=0)', 1_000, { flushAfterMs: 0 }),
  sqliteImplementation('SQLite, no recent rows (SQLITE_RECENT_CHARACTERS=0)', 1_000, { recentCharacters: 0 }),
  sqliteImplementation('SQLite, no key filter (SQLITE_KEY_FILTER=false)', 1_000, { keyFilter: false }),
  sqliteImplementation('SQLite, no writer thread (SQLITE_WRITER_THREAD=false)', 1_000, {
    writerThread: false,
  }),
];
