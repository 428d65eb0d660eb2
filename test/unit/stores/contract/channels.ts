// The contract of the channel settings store: what one replica sets, every replica reads, whole and
// at once; a reset is seen everywhere; a value that does not read back is no settings at all.
import { describe, expect, it } from 'vitest';
import type { StoredChannelSettings } from '../../../../src/slack/channels/stores.js';
import { openFleet, type StoreImplementation } from './fleet.js';

const itHelp: StoredChannelSettings = {
  settings: {
    robot: 2,
    answer: 'questions',
    reply: 'ephemeral',
    escalate: { users: ['U0ONCALL'], groups: ['S0ITDESK'] },
    askers: 'anyone',
    lang: 'en',
  },
  changedBy: 'U0OPERATOR',
  changedAt: 1_764_000_000_000,
};

const hr: StoredChannelSettings = {
  settings: { answer: 'all', escalate: 'off' },
  changedBy: 'U0OTHER',
  changedAt: 1_764_000_100_000,
};

export function describeChannelSettingsStoreContract(implementation: StoreImplementation): void {
  describe('ChannelSettingsStore', () => {
    it('gives every replica what one replica set, one channel or all of them', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      expect(await b.channelSettings.all()).toEqual(new Map());
      expect(await b.channelSettings.get('C0ITHELP')).toBeUndefined();
      await a.channelSettings.put('C0ITHELP', itHelp);
      await a.channelSettings.put('C0HR', hr);
      expect(await b.channelSettings.get('C0ITHELP')).toEqual(itHelp);
      expect(await b.channelSettings.all()).toEqual(
        new Map([
          ['C0ITHELP', itHelp],
          ['C0HR', hr],
        ]),
      );
    });

    it('replaces a channel whole, and a reset is seen by every replica', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      await a.channelSettings.put('C0ITHELP', itHelp);
      const changed: StoredChannelSettings = { ...hr, settings: { robot: 3 } };
      await b.channelSettings.put('C0ITHELP', changed);
      expect(await a.channelSettings.get('C0ITHELP')).toEqual(changed);
      await a.channelSettings.delete('C0ITHELP');
      expect(await b.channelSettings.get('C0ITHELP')).toBeUndefined();
      expect(await b.channelSettings.all()).toEqual(new Map());
      // Deleting what is not there is no error.
      await b.channelSettings.delete('C0NEVER');
    });

    it('hands out copies: changing what was read changes nothing stored', async () => {
      const [a] = (await openFleet(implementation)).replicas;
      const written = structuredClone(itHelp);
      await a.channelSettings.put('C0ITHELP', written);
      written.settings.robot = 9;
      const read = await a.channelSettings.get('C0ITHELP');
      if (read) read.settings.robot = 8;
      expect(await a.channelSettings.get('C0ITHELP')).toEqual(itHelp);
    });
  });
}
