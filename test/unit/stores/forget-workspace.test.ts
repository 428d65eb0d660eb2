// What forgetting a workspace does beyond the contract: in SQLite the rows leave the file itself (read
// back after a reopen, whichever layer held them); in Redis no key of another app's prefix is reached.
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredChannelSettings } from '../../../src/slack/channels/stores.js';
import { createStores } from '../../../src/stores/index.js';
import { createSqliteStores } from '../../../src/stores/sqlite.js';
import type { Stores } from '../../../src/stores/stores.js';
import { deleteKeysWithPrefix } from '../../support/redis-server.js';
import { tempStateFiles } from '../../support/temp-state-files.js';

const tempPath = tempStateFiles('forget-workspace-');
const REDIS_URL = 'redis://127.0.0.1:6379';

const settings: StoredChannelSettings = {
  settings: { robot: 2 },
  changedBy: 'U0OPERATOR',
  changedAt: 1_764_000_000_000,
};

/** Rows of the file whose id starts with `prefix`, in any namespace or in the channel settings. */
function rowsInFile(path: string, prefix: string): number {
  const file = new DatabaseSync(path, { readOnly: true });
  try {
    const pattern = `${prefix}%`;
    const count = (sql: string) => Number(file.prepare(sql).get(pattern)?.n ?? 0);
    return (
      count('SELECT count(*) AS n FROM kv WHERE id LIKE ?') +
      count('SELECT count(*) AS n FROM channel_settings WHERE channel LIKE ?')
    );
  } finally {
    file.close();
  }
}

async function keep(stores: Stores, workspace: string, names: number): Promise<void> {
  await stores.channelSettings.put(`${workspace}:C1`, settings);
  for (let user = 0; user < names; user++) await stores.names.set(`${workspace}:U${user}`, 'Ada', 60);
}

describe('forgetting a workspace in SQLite', () => {
  it('deletes its rows from the file, over several ranges, and they stay gone after a reopen', async () => {
    const path = tempPath();
    const first = createSqliteStores(path, { ttlSeconds: 60 });
    await keep(first, 'T1', 1_200);
    await keep(first, 'T10', 2);
    await first.close();
    expect(rowsInFile(path, 'T1:')).toBe(1_201);

    // Reopened: the rows are in the file only; one read puts a name among the recent rows.
    const second = createSqliteStores(path, { ttlSeconds: 60, checkpointEveryMs: 1_000 });
    expect(await second.names.get('T1:U7')).toBe('Ada');
    expect(await second.forgetWorkspace('T1')).toBe(1_201);
    expect(await second.names.get('T1:U7')).toBeUndefined();
    expect(await second.channelSettings.get('T1:C1')).toBeUndefined();
    // Written to the file once forgetting is done, not at the close.
    expect(rowsInFile(path, 'T1:')).toBe(0);
    await second.close();

    const third = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await third.names.get('T1:U7')).toBeUndefined();
    expect(await third.names.get('T10:U1')).toBe('Ada');
    expect(await third.channelSettings.get('T10:C1')).toEqual(settings);
    await third.close();
    expect(rowsInFile(path, 'T10:')).toBe(3);
  });

  it('deletes a write still held for the file, and one written over it after is kept', async () => {
    const path = tempPath();
    const stores = createSqliteStores(path, { ttlSeconds: 60, checkpointEveryMs: 1_000 });
    await stores.names.set('T1:U1', 'Ada', 60);
    await stores.names.set('T1:U2', 'Grace', 60);
    expect(await stores.forgetWorkspace('T1')).toBe(2);
    await stores.names.set('T1:U2', 'Grace again', 60);
    await stores.close();

    const reopened = createSqliteStores(path, { ttlSeconds: 60 });
    expect(await reopened.names.get('T1:U1')).toBeUndefined();
    expect(await reopened.names.get('T1:U2')).toBe('Grace again');
    await reopened.close();
  });
});

describe('forgetting a workspace in Redis', () => {
  const prefixes: string[] = [];
  const opened: Stores[] = [];
  afterEach(async () => {
    for (const stores of opened.splice(0)) await stores.close();
    for (const prefix of prefixes.splice(0)) await deleteKeysWithPrefix(prefix);
  });

  async function redisStores(keyPrefix: string): Promise<Stores> {
    const stores = await createStores({
      state: { kind: 'redis', server: { kind: 'url', url: REDIS_URL }, keyPrefix },
      maxEntries: 100,
      ttlSeconds: 60,
    });
    opened.push(stores);
    return stores;
  }

  it('reaches no key of another prefix, one its pattern characters would match included', async () => {
    const run = randomBytes(4).toString('hex');
    prefixes.push(`test:forget:${run}:`);
    // `[ab]` as a pattern would match `a`: the other app's keys.
    const ours = await redisStores(`test:forget:${run}:[ab]:`);
    const theirs = await redisStores(`test:forget:${run}:a:`);
    await keep(ours, 'T1', 3);
    await keep(theirs, 'T1', 3);

    expect(await ours.forgetWorkspace('T1')).toBe(4);
    expect(await ours.names.get('T1:U0')).toBeUndefined();
    expect(await ours.channelSettings.get('T1:C1')).toBeUndefined();
    expect(await theirs.names.get('T1:U0')).toBe('Ada');
    expect(await theirs.channelSettings.get('T1:C1')).toEqual(settings);
  });
});
