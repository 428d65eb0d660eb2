// Every store the app needs, one set per process: Redis for several replicas, a SQLite file for one
// (kept across restarts), or memory (tests, demo). Each layer declares the stores it uses beside
// itself; this folder implements them.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { errorFields } from '../logging/error-fields.js';
import { MemoryChannelSettingsStore } from './channel-settings.js';
import { KeptOnceStore, KeptRatingStore } from './kept-stores.js';
import { MemoryContextStore } from './memory.js';
import { memoryNamespaces } from './namespace.js';
import type { StoreLogger } from './redis-connection.js';
import { MemoryReviewStore } from './review-memory.js';
import { createSqliteStores, sweepInBackground } from './sqlite.js';
import { type SqliteLayers, SqliteStateError } from './sqlite-database.js';
import {
  countsLost,
  type EngineStores,
  type StoreChoice,
  type Stores,
  withDeclaredNamespaces,
} from './stores.js';

export interface StoresOptions {
  state: StoreChoice;
  /** Cap of each in-memory store, and of a process's own memory of its deliveries with Redis. */
  maxEntries: number;
  /** Lifetime of an answer context. */
  ttlSeconds: number;
  logger?: StoreLogger;
  /** How long start may wait for Redis before it fails. */
  connectTimeoutMs?: number;
  /** SQLite: how often expired rows are swept away; 0 never. Default a minute. */
  sweepEveryMs?: number;
}

const DEFAULT_SWEEP_EVERY_MS = 60_000;
/** How often the write-ahead log is moved into the SQLite file, by the worker thread that writes it (sqlite-background.ts). */
const CHECKPOINT_EVERY_MS = 1_000;

/**
 * Rejects with StoreUnavailableError when Redis cannot be reached at start, and with SqliteStateError
 * when the SQLite file cannot be used (its message names the path and what to do).
 */
export async function createStores(options: StoresOptions): Promise<Stores> {
  switch (options.state.kind) {
    case 'memory':
      return memoryStores(options);
    case 'sqlite':
      return sqliteStores(options.state.path, options, options.state.layers);
    case 'redis': {
      // Loaded only here: the SQLite and memory stores never need the Redis client's heap.
      const { redisStores } = await import('./redis-stores.js');
      return redisStores(options.state, options);
    }
  }
}

function memoryStores(options: StoresOptions): Stores {
  const bounds = { maxEntries: options.maxEntries };
  const namespace = memoryNamespaces(bounds);
  const contexts = new MemoryContextStore({ ...bounds, ttlSeconds: options.ttlSeconds });
  const reviewCards = new MemoryReviewStore(bounds);
  const channelSettings = new MemoryChannelSettingsStore();
  const engine: EngineStores = {
    namespace,
    contexts,
    deliveries: new KeptOnceStore(namespace.strings('once')),
    threads: new KeptOnceStore(namespace.strings('thread')),
    ratings: new KeptRatingStore(namespace.strings('rated')),
    reviewCards,
    channelSettings,
    tokenCache: undefined,
    kind: 'memory',
    location: 'this process (lost when it stops)',
    ping: async () => true,
    close: async () => {
      contexts.clear();
      reviewCards.clear();
      channelSettings.clear();
      namespace.clear();
    },
  };
  return withDeclaredNamespaces(engine, options.ttlSeconds, countsLost(options.logger));
}

function sqliteStores(path: string, options: StoresOptions, layers: SqliteLayers | undefined): Stores {
  const file = resolve(path);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw new SqliteStateError(
      `STATE_PATH ${file}: cannot create its folder (${String(error)}); create it, or set STATE_PATH to a writable place`,
      { cause: error },
    );
  }
  const logger = options.logger;
  const stores = createSqliteStores(file, {
    ttlSeconds: options.ttlSeconds,
    checkpointEveryMs: CHECKPOINT_EVERY_MS,
    layers,
    ...(logger && {
      onFlushError: (error: unknown) =>
        logger.warn(
          { ...errorFields(error), path: file },
          'state not yet written to the SQLite file; trying again',
        ),
      onCountsLost: countsLost(logger),
      onCheckpointFailure: (error: Error) =>
        logger.warn(
          { ...errorFields(error), path: file },
          'SQLite file written and checkpointed on the event loop from now on, which is slower under load',
        ),
    }),
  });
  const stopSweeping = sweepInBackground(stores, {
    everyMs: options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    ...stores,
    close: async () => {
      await stopSweeping();
      await stores.close();
    },
  };
}
