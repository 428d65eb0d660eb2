// Channel settings per workspace: a channel's settings are its workspace's, and settings stored before
// keys carried their workspace are never lost on upgrade (read in every workspace, moved when changed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { ChannelDirectory } from '../../../../src/slack/channels/directory.js';
import type { ChannelSettingsStore } from '../../../../src/slack/channels/stores.js';
import { MemoryChannelSettingsStore } from '../../../../src/stores/channel-settings.js';
import { createSqliteStores, writeChannelSettings } from '../../../../src/stores/sqlite.js';

const defaults = { robotFlag: undefined, source: undefined, language: 'auto', reply: 'thread' } as const;
const logger = createLogger({ level: 'silent' });

function directoryOn(store: ChannelSettingsStore): ChannelDirectory {
  return new ChannelDirectory(store, { defaults, logger, now: () => 1_764_000_000_000 });
}

describe('ChannelDirectory', () => {
  it("keeps a channel's settings to its workspace, and lists each workspace's own", async () => {
    const store = new MemoryChannelSettingsStore();
    const channels = directoryOn(store);
    await channels.change('T1', 'C1', { answer: 'all' }, 'U0OPERATOR');
    await channels.change('T2', 'C2', { answer: 'questions' }, 'U0OTHER');
    expect(channels.policyOf('T1', 'C1').answer).toBe('all');
    expect(channels.policyOf('T2', 'C1').answer).toBe('mention');
    expect(channels.settingsOf('T2', 'C1')).toBeUndefined();
    expect([...channels.list('T1').keys()]).toEqual(['C1']);
    expect([...channels.list('T2').keys()]).toEqual(['C2']);
    expect([...(await store.all()).keys()].sort()).toEqual(['T1:C1', 'T2:C2']);
    // Another replica reads them back from the store as they were written.
    const replica = directoryOn(store);
    await replica.refresh();
    expect(replica.policyOf('T2', 'C2').answer).toBe('questions');
    expect(await channels.reset('T1', 'C1')).toEqual({ answer: 'all' });
    expect(channels.list('T1').size).toBe(0);
  });

  it('reads settings stored under the channel alone in every workspace, and moves them when changed', async () => {
    const store = new MemoryChannelSettingsStore();
    await store.put('C1', { settings: { answer: 'all', lang: 'en' }, changedBy: 'U0OLD', changedAt: 1 });
    await store.put('C2', { settings: { answer: 'questions' }, changedBy: 'U0OLD', changedAt: 1 });
    const channels = directoryOn(store);
    await channels.refresh();
    expect(channels.policyOf('T1', 'C1').answer).toBe('all');
    expect(channels.settingsOf('T1', 'C1')?.changedBy).toBe('U0OLD');
    expect([...channels.list('T1').keys()].sort()).toEqual(['C1', 'C2']);

    const changed = await channels.change('T1', 'C1', { reply: 'ephemeral' }, 'U0OPERATOR');
    expect(changed).toEqual({
      before: { answer: 'all', lang: 'en' },
      after: { answer: 'all', lang: 'en', reply: 'ephemeral' },
    });
    expect(await store.get('C1')).toBeUndefined();
    expect(await store.get('T1:C1')).toMatchObject({ settings: changed.after, changedBy: 'U0OPERATOR' });
    expect(channels.policyOf('T1', 'C1').placement.reply).toBe('ephemeral');
    expect([...channels.list('T1').keys()].sort()).toEqual(['C1', 'C2']);

    // A reset of one not yet moved deletes it.
    expect(await channels.reset('T1', 'C2')).toEqual({ answer: 'questions' });
    expect(await store.all()).toEqual(new Map([['T1:C1', await store.get('T1:C1')]]));
    expect(channels.policyOf('T1', 'C2').answer).toBe('mention');
  });

  describe('on a SQLite file written before keys carried their workspace', () => {
    let folder: string | undefined;
    afterEach(() => {
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('applies its settings after the upgrade', async () => {
      folder = mkdtempSync(join(tmpdir(), 'channel-upgrade-'));
      const path = join(folder, 'state.sqlite');
      await writeChannelSettings(path, { C0HELP: { answer: 'all', robot: 2 } }, 'U0OLD');
      const stores = createSqliteStores(path, { ttlSeconds: 60 });
      try {
        const channels = directoryOn(stores.channelSettings);
        await channels.refresh();
        expect(channels.policyOf('T1', 'C0HELP')).toMatchObject({
          answer: 'all',
          placement: { robotFlag: 2 },
        });
        await channels.change('T1', 'C0HELP', { lang: 'zh' }, 'U0OPERATOR');
        expect([...(await stores.channelSettings.all()).keys()]).toEqual(['T1:C0HELP']);
      } finally {
        await stores.close();
      }
    });
  });
});
