// The stores of one replica in one SQLite file: what Redis keeps for a fleet, kept across restarts
// without a server. Every store is a namespace of the key/value table (sqlite-database.ts), written
// as on every engine (kept-stores.ts); review cards have a table of their own (sqlite-review.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChannelSettings } from '../conversation/channel-settings.js';
import { errorFields } from '../logging/error-fields.js';
import type { OnceStore } from '../slack/handling/stores.js';
import { positiveInteger } from '../util/positive.js';
import { SqliteChannelSettingsStore } from './channel-settings.js';
import { KeptOnceStore, KeptRatingStore, KeptTokenCache, keptContexts } from './kept-stores.js';
import { MemoryOnceStore } from './memory.js';
import { type Clock, KeptNamespace, type Namespaces } from './namespace.js';
import type { StoreLogger } from './redis-connection.js';
import type { ReviewLockOptions } from './review-lock.js';
import { startBackgroundConnection } from './sqlite-background.js';
import {
  KvTable,
  openDatabase,
  type SqliteLayers,
  type SqliteStrings,
  sqliteStrings,
  timeLedId,
} from './sqlite-database.js';
import { SqliteReviewStore } from './sqlite-review.js';
import { type EngineStores, type Stores, withDeclaredNamespaces } from './stores.js';

/** Deliveries being answered at once in one process, far above what one answers at a time. */
const LEASES_MAX = 100_000;

/**
 * Deliveries: a claim is a lease while the delivery is handled, kept in the process only (the file is
 * this process's alone, so no one else needs to see it, and a lease that dies with its process lets
 * Slack's retry be answered, which is what it is for); only an answered delivery (keep) is written:
 * one row an answer less for the file to write.
 */
class SqliteDeliveryStore implements OnceStore {
  readonly #file: SqliteStrings;
  readonly #kept: KeptOnceStore;
  readonly #leases: MemoryOnceStore;

  constructor(file: SqliteStrings, now: Clock) {
    this.#file = file;
    this.#kept = new KeptOnceStore(file, timeLedId);
    this.#leases = new MemoryOnceStore({ maxEntries: LEASES_MAX, now });
  }

  /** Looked up at once (synchronously), under the id it is filed by. */
  #answered(key: string): boolean {
    return this.#file.raw(timeLedId(key)) !== undefined;
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    // No await between the look at the file and the lease: within one process the claim is atomic.
    if (this.#answered(key)) return false;
    return this.#leases.claim(key, ttlSeconds);
  }

  async release(key: string): Promise<void> {
    await this.#leases.release(key);
  }

  async keep(key: string, ttlSeconds: number): Promise<void> {
    await this.#kept.keep(key, ttlSeconds);
    await this.#leases.release(key);
  }

  async has(key: string): Promise<boolean> {
    return this.#answered(key) || (await this.#leases.has(key));
  }
}

export interface SqliteStoresOptions extends ReviewLockOptions {
  /** Lifetime of an answer context. */
  ttlSeconds: number;
  /** Milliseconds since the epoch; tests inject one to pass TTLs without sleeping. */
  now?: Clock;
  /** Told when held writes could not be written to the file (they are tried again). */
  onFlushError?: (error: unknown) => void;
  /** Told of daily counts that could not be written (they are lost). */
  onCountsLost?: ((error: unknown) => void) | undefined;
  /**
   * Write the batches from a worker thread, on a connection of its own, and checkpoint the file from
   * it this often (the gateway's own stores); left out, the batches are written on the event loop and
   * SQLite checkpoints at commits (a short-lived connection, the tests).
   */
  checkpointEveryMs?: number;
  /** Told when the worker stopped, and the event loop writes and checkpoints again. */
  onCheckpointFailure?: (error: Error) => void;
  layers?: SqliteLayers | undefined;
}

export interface SqliteStores extends Stores {
  kind: 'sqlite';
  /** Deletes at most `limit` expired rows; resolves with how many it deleted (fewer: nothing more to sweep). */
  sweepExpired(limit: number): Promise<number>;
}

/**
 * Every store on one SQLite file, created and migrated if need be. Throws SqliteStateError when the
 * file cannot be used (not a database, locked, read-only, a newer schema, no node:sqlite).
 */
export function createSqliteStores(path: string, options: SqliteStoresOptions): SqliteStores {
  const now = options.now ?? Date.now;
  const db = openDatabase(path);
  const { writerThread = true, ...layers } = options.layers ?? {};
  const background =
    options.checkpointEveryMs === undefined || !writerThread
      ? undefined
      : startBackgroundConnection(db, path, {
          everyMs: options.checkpointEveryMs,
          ...(options.onCheckpointFailure && { onFailure: options.onCheckpointFailure }),
        });
  const kv = new KvTable(db, { ...layers, onFlushError: options.onFlushError, writer: background });
  let open = true;
  const strings = (name: string) => sqliteStrings(kv, name, now);
  const namespace: Namespaces = (name, declared) => new KeptNamespace(strings(name), name, declared);
  const engine: EngineStores & Pick<SqliteStores, 'kind' | 'sweepExpired'> = {
    namespace,
    contexts: keptContexts(namespace, options.ttlSeconds),
    deliveries: new SqliteDeliveryStore(strings('once'), now),
    threads: new KeptOnceStore(strings('thread'), timeLedId),
    ratings: new KeptRatingStore(strings('rated')),
    reviewCards: new SqliteReviewStore(db, kv, { ...options, now }),
    channelSettings: new SqliteChannelSettingsStore(db),
    tokenCache: new KeptTokenCache(strings('platform-token'), strings('platform-token-lock'), now),
    kind: 'sqlite',
    location: path,
    async sweepExpired(limit) {
      positiveInteger('limit', limit);
      // The sweep works on the file: what is held is written first, so it is swept in its turn.
      const at = now();
      let swept = await kv.sweep(at, limit);
      for (const sql of [SWEEP_CARDS_SQL, SWEEP_WORKSPACE_CARDS_SQL]) {
        if (swept >= limit) break;
        const [deleted = 0] = await kv.execute([[sql, [at, limit - swept]]]);
        swept += deleted;
      }
      return swept;
    },
    ping: async () => {
      if (!open) return false;
      try {
        db.prepare('SELECT 1').get();
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (!open) return;
      open = false;
      kv.close();
      try {
        // Awaited only when there is a worker (it writes the batches it was sent, then stops): without
        // one a close is done when it returns.
        if (background) await background.stop();
        kv.flush();
      } finally {
        db.close();
      }
    },
  };
  return withDeclaredNamespaces(engine, options.ttlSeconds, options.onCountsLost);
}

const SWEEP_CARDS_SQL =
  'DELETE FROM review_cards WHERE id IN (SELECT id FROM review_cards WHERE expires_at <= ? LIMIT ?)';
const SWEEP_WORKSPACE_CARDS_SQL = `DELETE FROM workspace_review_cards WHERE (workspace, id) IN
  (SELECT workspace, id FROM workspace_review_cards WHERE expires_at <= ? LIMIT ?)`;

/** Rows deleted per statement: short enough that a question waiting behind a sweep does not notice. */
const SWEEP_BATCH = 500;
/** Batches per round at most; what is left waits for the next round. */
const SWEEP_BATCHES_PER_ROUND = 200;

/**
 * Sweeps expired rows every `everyMs` (0: never), a bounded batch at a time with a turn of the event
 * loop between batches, so the file does not grow with what no one can read any more. Expired rows
 * are never returned in between; the sweep only gives their space back. Returns stop, which waits
 * for a round in progress.
 */
export function sweepInBackground(
  stores: Pick<SqliteStores, 'sweepExpired' | 'location'>,
  options: { everyMs: number; logger?: StoreLogger },
): () => Promise<void> {
  if (options.everyMs <= 0) return async () => undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  const sweepRound = async () => {
    let swept = 0;
    try {
      for (let batch = 0; batch < SWEEP_BATCHES_PER_ROUND && !stopped; batch++) {
        const deleted = await stores.sweepExpired(SWEEP_BATCH);
        swept += deleted;
        if (deleted < SWEEP_BATCH) break;
        await nextTurn();
      }
    } catch (error) {
      // A busy file now is a free one at the next round; nothing is lost meanwhile.
      options.logger?.warn(
        { ...errorFields(error), path: stores.location, swept },
        'could not sweep expired state',
      );
    }
  };
  const timer = setInterval(() => {
    round = round.then(sweepRound);
  }, options.everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await round;
  };
}

/**
 * Writes channels' settings into the SQLite state file at `path` (created if need be) before a
 * gateway opens it: the playground's demo channel, the bench's chatter channels, as an operator's
 * `/cs channel` would have left them.
 */
export async function writeChannelSettings(
  path: string,
  channels: Readonly<Record<string, ChannelSettings>>,
  changedBy: string,
): Promise<void> {
  const stores = createSqliteStores(path, { ttlSeconds: 3600 });
  try {
    for (const [channelId, settings] of Object.entries(channels)) {
      await stores.channelSettings.put(channelId, { settings, changedBy, changedAt: Date.now() });
    }
  } finally {
    // The gateway opens the file next: what was written is in it once this is closed.
    await stores.close();
  }
}
