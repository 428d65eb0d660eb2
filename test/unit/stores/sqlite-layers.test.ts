// The SQLite engine's layer switches (docs/storage.md) as the environment reads them, and the key
// filter's promise; the store contracts with each layer off run in contract.test.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../../src/config/env.js';
import { createSqliteStores } from '../../../src/stores/sqlite.js';
import { tempStateFiles } from '../../support/temp-state-files.js';

describe("the layers' variables", () => {
  const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };

  it('turn layers off in the SQLite choice, and leave it as it was when unset', () => {
    const unset = parseEnv(slack);
    expect(unset.ok && unset.env.state).toEqual({ kind: 'sqlite', path: './data/gateway.sqlite' });
    const off = parseEnv({
      ...slack,
      SQLITE_FLUSH_AFTER_MS: '0',
      SQLITE_RECENT_CHARACTERS: '0',
      SQLITE_KEY_FILTER: 'false',
      SQLITE_WRITER_THREAD: 'off',
    });
    expect(off.ok && off.env.state).toEqual({
      kind: 'sqlite',
      path: './data/gateway.sqlite',
      layers: { flushAfterMs: 0, recentCharacters: 0, keyFilter: false, writerThread: false },
    });
  });

  it('say one line per bad value', () => {
    const bad = parseEnv({
      ...slack,
      SQLITE_FLUSH_AFTER_MS: '-1',
      SQLITE_RECENT_CHARACTERS: 'lots',
      SQLITE_KEY_FILTER: 'maybe',
      SQLITE_WRITER_THREAD: '2',
    });
    expect(!bad.ok && bad.problems.map((line) => line.split(':')[0])).toEqual([
      'SQLITE_FLUSH_AFTER_MS',
      'SQLITE_RECENT_CHARACTERS',
      'SQLITE_KEY_FILTER',
      'SQLITE_WRITER_THREAD',
    ]);
  });
});

describe('the key filter', () => {
  const tempPath = tempStateFiles('sqlite-filter-');

  it('denies no key a file held at open, below or above the others, nor one written since', async () => {
    const path = tempPath();
    // Recent rows off: every look the filter admits is a statement on the file.
    const layers = { recentCharacters: 0, flushAfterMs: 0 };
    const first = createSqliteStores(path, { ttlSeconds: 60, layers });
    const older = [
      'msg:T1:C1:1700000000.000100',
      'msg:T1:C1:1700000005.000100',
      'msg:T1:C2:1800000000.000100',
    ];
    for (const key of older) await first.deliveries.keep(key, 60);
    await first.threads.claim('thread:T1:C1:\u{1F600}.1', 60);
    await first.close();

    const second = createSqliteStores(path, { ttlSeconds: 60, layers });
    for (const key of older) expect(await second.deliveries.has(key)).toBe(true);
    expect(await second.threads.has('thread:T1:C1:\u{1F600}.1')).toBe(true);
    expect(await second.deliveries.has('msg:T1:C1:1700000001.000100')).toBe(false);
    expect(await second.deliveries.has('msg:T1:C1:1900000000.000100')).toBe(false);
    await second.deliveries.keep('msg:T1:C1:1900000000.000100', 60);
    await second.names.set('U\uFFFF', 'Ada', 60);
    // Committed at once (no write held), then read back from the file: the filter admits it.
    await sleep(50);
    expect(await second.deliveries.has('msg:T1:C1:1900000000.000100')).toBe(true);
    await second.close();
    const third = createSqliteStores(path, { ttlSeconds: 60, layers, checkpointEveryMs: 1_000 });
    expect(await third.deliveries.has('msg:T1:C1:1900000000.000100')).toBe(true);
    expect(await third.names.get('U\uFFFF')).toBe('Ada');
    await third.close();
  });
});
