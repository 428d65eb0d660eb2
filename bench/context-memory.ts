// Memory bench: what 100,000 cached answer contexts cost in the in-memory store, and the file they
// take in the SQLite store (a fresh file in a temporary folder, removed at the end) with the time a put
// takes. Run with `npm run bench:memory` (it needs --expose-gc, which the script passes).
// BENCH_CONTEXTS sets the count.
// Contexts are built like the conversation core builds them, from the simulator's knowledge base:
// its questions (English and Chinese), docIds and related entries as suggestions, ids in its formats.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLOutputValue } from 'node:sqlite';
import { newContextKey } from '../src/conversation/context-key.js';
import type { AnswerContext } from '../src/conversation/types.js';
import { seedEntries } from '../src/simulator/knowledge-base.js';
import { partnerIdFor } from '../src/slack/handling/user-directory.js';
import { MemoryContextStore } from '../src/stores/memory.js';
import { createSqliteStores } from '../src/stores/sqlite.js';

const COUNT = Number(process.env.BENCH_CONTEXTS ?? 100_000);
const TARGET_MB = 64;
const MB = 1024 * 1024;
const TTL_SECONDS = 7 * 24 * 3600;
/** The file size is reported per this many contexts, whatever BENCH_CONTEXTS is. */
const PER_CONTEXTS = 100_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npm run bench:memory does)');

function settle(): NodeJS.MemoryUsage {
  for (let i = 0; i < 4; i += 1) gc?.();
  return process.memoryUsage();
}

const entries = seedEntries();
const byDocId = new Map(entries.map((entry) => [entry.docId, entry]));

function contextFor(n: number): AnswerContext {
  const entry = entries[n % entries.length];
  if (!entry) throw new Error('no knowledge base');
  const userId = `U${(n % 5_000).toString(36).toUpperCase().padStart(10, '0')}`;
  const partnerId = partnerIdFor('T0123ABCDEF', userId);
  const uid = `u-${createHash('md5').update(`acme\0${partnerId}`).digest('hex').slice(0, 16)}`;
  const seconds = 1_763_800_000 + n;
  return {
    uid,
    cid: `c-${String(n >> 2).padStart(8, '0')}`,
    msgId: `m-${String(n).padStart(8, '0')}`,
    docId: entry.docId,
    docName: entry.questionTitle,
    robotFlag: entry.robotFlag,
    placement: { robotFlag: undefined, source: undefined, language: 'auto', reply: 'thread' },
    partnerId,
    askerUserId: userId,
    // What people type is rarely the title itself.
    question: `${entry.questionTitle.slice(0, -1)} please?`,
    suggestions: entry.related.flatMap((docId) => {
      const related = byDocId.get(docId);
      return related ? [{ question: related.questionTitle, docId }] : [];
    }),
    rateable: true,
    conversationId: `C0${(n % 200).toString(36).toUpperCase().padStart(9, '0')}`,
    threadId: `${seconds}.${String(n % 1_000_000).padStart(6, '0')}`,
    createdAt: Date.now(),
  };
}

/** The in-memory store: heap and RSS growth for COUNT contexts; true when under the target. */
async function memoryStore(): Promise<boolean> {
  const store = new MemoryContextStore({ maxEntries: COUNT, ttlSeconds: TTL_SECONDS });
  // A full rehearsal first, then thrown away: the code paths are compiled and V8's young generation
  // has grown to its working size, as in a gateway that has been running, so what remains is the
  // contexts themselves.
  const rehearsal = new MemoryContextStore({ maxEntries: COUNT, ttlSeconds: 60 });
  for (let n = 0; n < COUNT; n += 1) await rehearsal.put(newContextKey(), contextFor(n));
  rehearsal.clear();

  const before = settle();
  const keys: string[] = [];
  for (let n = 0; n < COUNT; n += 1) {
    const key = newContextKey();
    keys.push(key);
    await store.put(key, contextFor(n));
  }
  const after = settle();
  // The keys live in Slack's button values, not in the gateway: keep them out of the growth.
  const keyBytes = keys.reduce((sum, key) => sum + key.length, 0) + keys.length * 16;

  const started = performance.now();
  let found = 0;
  for (let i = 0; i < 100_000; i += 1) {
    const key = keys[(i * 7_919) % keys.length];
    if (key && (await store.get(key))) found += 1;
  }
  const getMicros = ((performance.now() - started) * 1000) / 100_000;

  const heapGrowth = (after.heapUsed + after.external - before.heapUsed - before.external - keyBytes) / MB;
  const rssGrowth = (after.rss - before.rss) / MB;
  const sample = await store.get(keys[0] ?? '');
  console.log('In-memory store:');
  console.log(
    `contexts stored: ${store.size} (a sample is ${JSON.stringify(sample).length} characters of JSON)`,
  );
  console.log(
    `heap growth: ${heapGrowth.toFixed(1)} MB (${((heapGrowth * MB) / COUNT).toFixed(0)} bytes a context)`,
  );
  console.log(`RSS growth:  ${rssGrowth.toFixed(1)} MB`);
  console.log(`get: ${getMicros.toFixed(2)} µs a lookup, ${found} of 100000 found`);
  const pass = Math.max(heapGrowth, rssGrowth) < TARGET_MB;
  console.log(
    `${pass ? 'PASS' : 'MISS'}  memory growth < ${TARGET_MB} MB for ${COUNT} contexts: ${Math.max(heapGrowth, rssGrowth).toFixed(1)} MB`,
  );
  // Dropped before the SQLite part, so its puts do not run beside a heap holding all of these.
  store.clear();
  return pass;
}

/** The database file and its write-ahead log, in bytes (a log not there counts 0). */
function fileBytes(path: string): { main: number; wal: number } {
  const size = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  return { main: size(path), wal: size(`${path}-wal`) };
}

/** The SQLite store: the file COUNT contexts take, and the time a put and a get take. */
async function sqliteStore(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-contexts-'));
  try {
    const path = join(dir, 'gateway.sqlite');
    const stores = createSqliteStores(path, { ttlSeconds: TTL_SECONDS });
    const keys: string[] = [];
    let putMs = 0;
    try {
      for (let n = 0; n < COUNT; n += 1) {
        const key = newContextKey();
        keys.push(key);
        // Built outside the timed part: what is timed is the store's put (JSON, the SQL, the WAL).
        const context = contextFor(n);
        const started = performance.now();
        await stores.contexts.put(key, context);
        putMs += performance.now() - started;
      }
      // Puts are held in process and written in one transaction every 10 ms: wait for it, so the
      // file holds them all (a put's share of the commit is in bench:load's CPU per answer).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const written = fileBytes(path);
      // From a second connection, as an operator's sqlite3 would: the store's own keeps the log
      // open, and the file's size is only its size once the log is folded into it and truncated.
      const checkpointer = new DatabaseSync(path);
      let checkpoint: Record<string, SQLOutputValue> | undefined;
      try {
        checkpoint = checkpointer.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
      } finally {
        checkpointer.close();
      }
      const folded = fileBytes(path);

      const started = performance.now();
      let found = 0;
      for (let i = 0; i < 100_000; i += 1) {
        const key = keys[(i * 7_919) % keys.length];
        if (key && (await stores.contexts.get(key))) found += 1;
      }
      const getMicros = ((performance.now() - started) * 1000) / 100_000;

      const total = folded.main + folded.wal;
      const perContexts = (total / MB) * (PER_CONTEXTS / COUNT);
      console.log('\nSQLite store (node:sqlite, WAL, a fresh file):');
      console.log(
        `contexts stored: ${COUNT}; before the checkpoint ${(written.main / MB).toFixed(1)} MB file + ${(written.wal / MB).toFixed(1)} MB WAL`,
      );
      console.log(
        `after PRAGMA wal_checkpoint(TRUNCATE)${checkpoint?.busy === 0 ? '' : ' (not complete: busy)'}: ${(folded.main / MB).toFixed(1)} MB file + ${(folded.wal / MB).toFixed(1)} MB WAL`,
      );
      console.log(
        `file size: ${perContexts.toFixed(1)} MB per ${PER_CONTEXTS.toLocaleString('en')} contexts (${(total / COUNT).toFixed(0)} bytes a context)`,
      );
      console.log(
        `put: ${((putMs * 1000) / COUNT).toFixed(2)} µs a context (held, then written in one transaction)`,
      );
      console.log(`get: ${getMicros.toFixed(2)} µs a lookup, ${found} of 100000 found`);
    } finally {
      await stores.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const pass = await memoryStore();
  await sqliteStore();
  if (process.env.BENCH_STRICT === '1' && !pass) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
