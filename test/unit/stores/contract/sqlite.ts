// The SQLite stores as a fleet: two connections (two replicas) on one temporary database file,
// deleted with its folder on close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createSqliteStores, type SqliteStores } from '../../../../src/stores/sqlite.js';
import { KvStatements, openDatabase } from '../../../../src/stores/sqlite-database.js';
import { REVIEW_LOCK_NAMESPACE } from '../../../../src/stores/sqlite-review.js';
import type { FleetOptions, ReplicaStores, StoreImplementation } from './fleet.js';

function replica(path: string, { lockWaitMs }: FleetOptions): SqliteStores {
  return createSqliteStores(path, { ttlSeconds: 60, lockWaitMs, lockPollMs: 5 });
}

function asReplica(stores: SqliteStores): ReplicaStores {
  return { ...stores, claims: stores.deliveries };
}

export const sqliteStores: StoreImplementation = {
  name: 'SQLite, two connections on one file',
  async open(options) {
    const folder = mkdtempSync(join(tmpdir(), 'stores-contract-'));
    const path = join(folder, 'state.sqlite');
    const a = replica(path, options);
    const b = replica(path, options);
    return {
      replicas: [asReplica(a), asReplica(b)],
      // Another replica's lock, written by a third connection, with a TTL far past any wait here.
      async holdCard(id) {
        const db = openDatabase(path);
        const kv = new KvStatements(db);
        kv.put.run(REVIEW_LOCK_NAMESPACE, id, 'someone-else', Date.now() + 30_000);
        return async () => {
          // A replica that gave up never released a lock it does not own.
          expect(kv.get.get(REVIEW_LOCK_NAMESPACE, id, Date.now())?.value).toBe('someone-else');
          kv.delete.run(REVIEW_LOCK_NAMESPACE, id);
          db.close();
        };
      },
      async close() {
        await a.close();
        await b.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  },
};
