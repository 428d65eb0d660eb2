// What only the SQLite stores do: keep state across a reopen, expire and sweep rows, refuse a file
// they cannot use.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QUESTION_LINK_RETENTION_SECONDS } from '../../../src/review/stores.js';
import { createSqliteStores, sweepInBackground } from '../../../src/stores/sqlite.js';
import { SCHEMA_VERSION, SqliteStateError, timeLedId } from '../../../src/stores/sqlite-database.js';
import { answerContext } from '../../support/answer-context.js';
import { makeReadOnly } from '../../support/read-only-file.js';
import { questionLink, reviewCard } from '../../support/review-values.js';
import { tempStateFiles } from '../../support/temp-state-files.js';
import { waitFor } from '../../support/wait.js';

const tempPath = tempStateFiles('sqlite-stores-');

/**
 * Stores on a fresh file that another connection holds in an exclusive transaction, and the flush
 * failures told; with `checkpointEveryMs`, written by their worker, as the gateway's are.
 */
function storesBehindALock(options: { checkpointEveryMs?: number } = {}) {
  const path = tempPath();
  const failures: unknown[] = [];
  const stores = createSqliteStores(path, {
    ttlSeconds: 60,
    onFlushError: (error) => failures.push(error),
    ...options,
  });
  const holder = new DatabaseSync(path);
  holder.exec('BEGIN EXCLUSIVE');
  return { stores, failures, holder };
}

/** Ends the other connection's transaction, waits until the held name is in the file, and closes both. */
async function releaseAndFindTheName(
  holder: DatabaseSync,
  stores: ReturnType<typeof createSqliteStores>,
): Promise<void> {
  holder.exec('ROLLBACK');
  const inFile = () => holder.prepare("SELECT count(*) AS n FROM kv WHERE ns = 'name'").get()?.n === 1;
  await waitFor(inFile, { timeoutMs: 10_000 });
  holder.close();
  await stores.close();
}

describe('SQLite stores', () => {
  it('keeps contexts, ratings and review cards across a reopen of the file', async () => {
    const path = tempPath();
    const first = createSqliteStores(path, { ttlSeconds: 60 });
    await first.contexts.put('k1', answerContext());
    await first.ratings.recordOnce('k1', 1, 60);
    await first.reviewCards.change('doc:a', async () => ({
      card: {
        id: 'doc:a',
        kind: 'disliked',
        docId: undefined,
        entryTitle: undefined,
        answerHtml: undefined,
        answerType: undefined,
        question: 'wifi?',
        otherWordings: [],
        robotFlag: undefined,
        linked: undefined,
        count: 1,
        reasons: [],
        notify: [],
        latestAsker: undefined,
        latestLink: undefined,
        latestConversation: undefined,
        status: 'open',
        handledBy: undefined,
        handledAt: undefined,
        changedFields: [],
        posted: undefined,
        createdAt: 1,
        updatedAt: 1,
      },
      result: undefined,
    }));
    await first.close();

    const second = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await second.contexts.get('k1')).toStrictEqual(answerContext());
    expect(await second.ratings.get('k1')).toBe(1);
    expect((await second.reviewCards.openCards('disliked', 5)).total).toBe(1);
    await second.close();
  });

  it('writes an answered delivery to the file, and leaves one still being handled to the process', async () => {
    const path = tempPath();
    const first = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await first.deliveries.claim('msg:T1:C1:1.1', 60)).toBe(true);
    expect(await first.deliveries.claim('msg:T1:C1:2.2', 60)).toBe(true);
    await first.deliveries.keep('msg:T1:C1:1.1', 3_600);
    // Within the process both are taken, by anyone who asks.
    expect(await first.deliveries.claim('msg:T1:C1:1.1', 60)).toBe(false);
    expect(await first.deliveries.claim('msg:T1:C1:2.2', 60)).toBe(false);
    expect(await first.deliveries.has('msg:T1:C1:2.2')).toBe(true);
    await first.close();
    // The next process: the answered one is not answered again; Slack's retry of the one whose
    // handling ended with the process is answered, not dropped.
    const second = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await second.deliveries.claim('msg:T1:C1:1.1', 60)).toBe(false);
    expect(await second.deliveries.claim('msg:T1:C1:2.2', 60)).toBe(true);
    await second.close();
  });

  it('finds what the file held at open, and answers keys it never held without asking the file', async () => {
    const path = tempPath();
    const before = createSqliteStores(path, { ttlSeconds: 60 });
    await before.deliveries.keep('msg:T1:C1:1.1', 3_600);
    await before.threads.claim('T1:C1:1.1', 3_600);
    await before.close();
    const stores = createSqliteStores(path, { ttlSeconds: 60 });
    // The filter is built from the file a page at a time after open; a turn of the loop ends it here.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await stores.deliveries.claim('msg:T1:C1:1.1', 60)).toBe(false);
    expect(await stores.threads.has('T1:C1:1.1')).toBe(true);
    // A row put in the file behind the gateway's back (the file is its alone) under a key it never
    // wrote: the filter denies the key, so the file is not asked and the row not seen.
    const other = new DatabaseSync(path);
    other
      .prepare('INSERT INTO kv (ns, id, value, expires_at) VALUES (?, ?, ?, ?)')
      .run('thread', timeLedId('T1:C1:9.9'), '1', Date.now() + 60_000);
    other.close();
    expect(await stores.threads.has('T1:C1:9.9')).toBe(false);
    await stores.close();
    // A new process builds its filter from the file: now it is there.
    const after = createSqliteStores(path, { ttlSeconds: 60 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await after.threads.has('T1:C1:9.9')).toBe(true);
    await after.close();
  });

  it('never returns an expired row, and sweeps expired rows in bounded batches', async () => {
    let now = 1_000_000;
    const stores = createSqliteStores(tempPath(), { ttlSeconds: 60, now: () => now });
    for (let index = 0; index < 5; index++) await stores.names.set(`U${index}`, 'Ada', 10);
    await stores.contexts.put('k1', answerContext());
    expect(await stores.deliveries.claim('event-1', 10)).toBe(true);
    now += 11_000;
    expect(await stores.names.get('U0')).toBeUndefined();
    expect(await stores.deliveries.has('event-1')).toBe(false);
    // An expired claim is no claim: it can be taken again.
    expect(await stores.deliveries.claim('event-1', 10)).toBe(true);
    expect(await stores.contexts.get('k1')).toStrictEqual(answerContext());
    expect(await stores.sweepExpired(3)).toBe(3);
    expect(await stores.sweepExpired(3)).toBe(2);
    expect(await stores.sweepExpired(3)).toBe(0);
    expect(await stores.contexts.get('k1')).toStrictEqual(answerContext());
    await stores.close();
  });

  it('sweeps expired rows in the background, in batches, until none is left', async () => {
    let now = 1_000_000;
    const path = tempPath();
    const stores = createSqliteStores(path, { ttlSeconds: 60, now: () => now });
    // More than two sweep batches, so a round has to go on past its first statement.
    for (let index = 0; index < 1_200; index++) await stores.names.set(`U${index}`, 'Ada', 10);
    await stores.names.set('U-live', 'Grace', 3_600);
    const rows = () => {
      const reader = new DatabaseSync(path);
      try {
        return Number(reader.prepare('SELECT count(*) AS n FROM kv').get()?.n);
      } finally {
        reader.close();
      }
    };
    // Writes reach the file within milliseconds, gathered into one transaction.
    await waitFor(() => rows() === 1_201);
    now += 11_000;
    const stop = sweepInBackground(stores, { everyMs: 5 });
    await waitFor(() => rows() === 1);
    await stop();
    expect(await stores.names.get('U-live')).toBe('Grace');
    await stores.close();
  });

  it('refuses a file another process holds locked, saying so', () => {
    const path = tempPath();
    createSqliteStores(path, { ttlSeconds: 60 }).close();
    const holder = new DatabaseSync(path);
    holder.exec('PRAGMA locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      // Waits out the busy timeout (5 s), as a start-up next to a long write would, then gives up.
      expect(() => createSqliteStores(path, { ttlSeconds: 60 })).toThrow(/is locked by another process/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  }, 15_000);

  it('tells a held write that could not reach the file, keeps it, and writes it once the file is free', async () => {
    const { stores, failures, holder } = storesBehindALock();
    await stores.names.set('U1', 'Ada', 60);
    // Each flush waits out the busy timeout (5 s) behind the other writer, then is told, not thrown;
    // the retry of a failed flush too: two failures take 11-12 s here, so the wait gives room.
    await waitFor(() => failures.length >= 2, { timeoutMs: 25_000 });
    expect(await stores.names.get('U1')).toBe('Ada');
    await releaseAndFindTheName(holder, stores);
  }, 40_000);

  it('keeps answering while another process holds the file when its worker writes, and writes once it is free', async () => {
    const { stores, failures, holder } = storesBehindALock({ checkpointEveryMs: 1_000 });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    await stores.names.set('U1', 'Ada', 60);
    // The worker waits out the busy timeout (5 s) behind the other writer; the event loop does not (on
    // the event loop, a flush stalled it the whole 5 s; half of that leaves room for a busy machine).
    await waitFor(() => failures.length >= 1, { timeoutMs: 15_000 });
    delay.disable();
    expect(delay.max / 1e6).toBeLessThan(2_500);
    expect(await stores.names.get('U1')).toBe('Ada');
    await releaseAndFindTheName(holder, stores);
  }, 30_000);

  it('changes a review card while another process holds the file, and writes it once the file is free', async () => {
    const { stores, failures, holder } = storesBehindALock();
    // The change neither waits for the file nor fails: the card is held with the next batch of writes.
    const changing = stores.reviewCards.change('q:wifi', async (card) => ({
      card: reviewCard('q:wifi', (card?.count ?? 0) + 1),
      result: 'noted',
    }));
    await expect(changing).resolves.toBe('noted');
    await stores.reviewCards.change('q:wifi', async (card) => ({
      card: reviewCard('q:wifi', (card?.count ?? 0) + 1),
      result: undefined,
    }));
    expect((await stores.reviewCards.get('q:wifi'))?.count).toBe(2);
    await waitFor(() => failures.length >= 1, { timeoutMs: 15_000 });
    holder.exec('ROLLBACK');
    const inFile = () =>
      holder.prepare("SELECT count FROM review_cards WHERE id = 'q:wifi'").get()?.count === 2;
    await waitFor(inFile, { timeoutMs: 10_000 });
    holder.close();
    expect((await stores.reviewCards.openCards('disliked', 5)).cards.map((card) => card.count)).toEqual([2]);
    await stores.close();
  }, 30_000);

  it('tells daily counts it could not write as lost, not as held writes tried again', async () => {
    const flushFailures: unknown[] = [];
    const countsLost: unknown[] = [];
    const stores = createSqliteStores(tempPath(), {
      ttlSeconds: 60,
      onFlushError: (error) => flushFailures.push(error),
      onCountsLost: (error) => countsLost.push(error),
    });
    // Another replica holds the day's count past the count's wait.
    const days = stores.namespace('question-day', {
      schema: z.record(z.string(), z.number()),
      ttlSeconds: 60,
    });
    expect(await days.claim('T1:2026-11-29:lock', 60)).toBe(true);
    await stores.dailyQuestions.add('T1', '2026-11-29', ['asked']);
    await stores.dailyQuestions.flush();
    expect(countsLost).toHaveLength(1);
    expect(flushFailures).toEqual([]);
    await stores.close();
  });

  it('refuses a file it cannot write, saying so', () => {
    const path = tempPath();
    createSqliteStores(path, { ttlSeconds: 60 }).close();
    const release = makeReadOnly(path);
    try {
      expect(() => createSqliteStores(path, { ttlSeconds: 60 })).toThrow(
        new RegExp(`STATE_PATH ${path} cannot be opened for writing`),
      );
    } finally {
      release();
    }
  });

  it('migrates a file of the previous schema forward at open, keeping what it held', async () => {
    const path = tempPath();
    const first = createSqliteStores(path, { ttlSeconds: 60 });
    await first.contexts.put('k1', answerContext());
    await first.close();
    // The file as release 1 of the schema left it: no channel settings table yet.
    const old = new DatabaseSync(path);
    old.exec('DROP TABLE channel_settings; PRAGMA user_version = 1');
    old.close();

    const second = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await second.contexts.get('k1')).toStrictEqual(answerContext());
    const settings = { settings: { robot: 2 }, changedBy: 'U1', changedAt: 1 };
    await second.channelSettings.put('C1', settings);
    expect(await second.channelSettings.get('C1')).toEqual(settings);
    await second.close();
    const migrated = new DatabaseSync(path);
    expect(migrated.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
    migrated.close();
  });

  it('keeps the deliveries and threads of a file of schema 2: their ids are rewritten time first, as they are now written', async () => {
    const path = tempPath();
    await createSqliteStores(path, { ttlSeconds: 60 }).close();
    const old = new DatabaseSync(path);
    const ids = [
      'thread:T1:C1:1700000000.000100',
      'msg:T1:C1:1700000001.000200',
      'assistant:T1:D1',
      'a:1.2:3',
      'x:12',
      'y:1.2.3',
      ':9.9',
      '9.9',
      'z:',
    ];
    const insert = old.prepare("INSERT INTO kv (ns, id, value, expires_at) VALUES (?, ?, '1', ?)");
    for (const id of ids) {
      insert.run('once', id, Date.now() + 3_600_000);
      insert.run('thread', id, Date.now() + 3_600_000);
    }
    insert.run('tick', 'digest:1700000000.1', Date.now() + 3_600_000);
    old.exec('PRAGMA user_version = 2');
    old.close();

    const stores = createSqliteStores(path, { ttlSeconds: 60 });
    // What the file held before is still there, to the running code: a thread still answered, an
    // answered delivery not answered again.
    expect(await stores.threads.has('thread:T1:C1:1700000000.000100')).toBe(true);
    expect(await stores.deliveries.claim('msg:T1:C1:1700000001.000200', 60)).toBe(false);
    expect(await stores.deliveries.claim('assistant:T1:D1', 60)).toBe(false);
    expect(await stores.deliveries.claim('msg:T1:C1:1700000002.000300', 60)).toBe(true);
    await stores.deliveries.keep('msg:T1:C1:1700000002.000300', 60);
    await stores.close();

    const migrated = new DatabaseSync(path);
    const rows = migrated
      .prepare("SELECT ns, id FROM kv WHERE ns IN ('once', 'thread', 'tick') ORDER BY ns, id")
      .all();
    migrated.close();
    const expected = [
      ...['once', 'thread'].flatMap((ns) =>
        [...ids, ...(ns === 'once' ? ['msg:T1:C1:1700000002.000300'] : [])].map((id) => ({
          ns,
          id: timeLedId(id),
        })),
      ),
      { ns: 'tick', id: 'digest:1700000000.1' },
    ];
    const byKey = (a: { ns: string; id: string }, b: { ns: string; id: string }) =>
      a.ns === b.ns ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.ns < b.ns ? -1 : 1;
    expect(rows.map((row) => ({ ns: row.ns, id: row.id }))).toEqual(expected.sort(byKey));
    expect(timeLedId('msg:T1:C1:1700000002.000300')).toBe('1700000002.000300\u0001msg:T1:C1');
    expect(timeLedId('a:1.2:3')).toBe('a:1.2:3');
  });

  it('refuses a database of a newer schema version, naming the file', async () => {
    const path = tempPath();
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => createSqliteStores(path, { ttlSeconds: 60 })).toThrow(SqliteStateError);
    expect(() => createSqliteStores(path, { ttlSeconds: 60 })).toThrow(path);
  });

  it('refuses a file that is not a database, naming the file', () => {
    const path = tempPath();
    writeFileSync(path, 'not a database, just some text that is long enough to have a header');
    expect(() => createSqliteStores(path, { ttlSeconds: 60 })).toThrow(SqliteStateError);
    expect(() => createSqliteStores(path, { ttlSeconds: 60 })).toThrow(path);
  });

  it('takes over a review card lock whose owner died, once it lapses', async () => {
    const path = tempPath();
    const stores = createSqliteStores(path, { ttlSeconds: 60, lockTtlSeconds: 1, lockPollMs: 5 });
    let release = (): void => undefined;
    const stuck = stores.reviewCards.change('doc:b', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { result: 'late' };
    });
    const next = await stores.reviewCards.change('doc:b', async () => ({ result: 'next' }));
    expect(next).toBe('next');
    release();
    await expect(stuck).resolves.toBe('late');
    await stores.close();
  });
});

describe('question links in SQLite', () => {
  it('keeps a link across a reopen of the file for QUESTION_LINK_RETENTION_SECONDS, then not', async () => {
    let now = 1_000_000;
    const path = tempPath();
    const first = createSqliteStores(path, { ttlSeconds: 60, now: () => now });
    await first.questionLinks.put('1:abc', questionLink('doc-wifi'));
    await first.close();
    const second = createSqliteStores(path, { ttlSeconds: 60, now: () => now });
    now += QUESTION_LINK_RETENTION_SECONDS * 1000 - 1_000;
    expect(await second.questionLinks.get('1:abc')).toEqual(questionLink('doc-wifi'));
    now += 2_000;
    expect(await second.questionLinks.get('1:abc')).toBeUndefined();
    await second.close();
  });
});
