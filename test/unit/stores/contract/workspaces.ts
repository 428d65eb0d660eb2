// The contract of forgetting a workspace (an uninstall): what was kept under its own keys, and its
// review cards, go, on every replica and at once; another workspace's stay, one whose id starts alike
// (T1, T10) too.
import { describe, expect, it } from 'vitest';
import type { StoredChannelSettings } from '../../../../src/slack/channels/stores.js';
import { entrySnapshot, questionLink, reviewCard } from '../../../support/review-values.js';
import { openFleet, type ReplicaStores, type StoreImplementation } from './fleet.js';

const settings: StoredChannelSettings = {
  settings: { robot: 2, answer: 'all' },
  changedBy: 'U0OPERATOR',
  changedAt: 1_764_000_000_000,
};
const members = { members: ['U0OPERATOR'], fetchedAt: 1_764_000_000_000 };
const card = reviewCard('doc:wifi', 2);
/** Past one SQLite range (500 ids), so a workspace's rows take more than one step. */
const MANY_NAMES = 600;

/** What an installed workspace leaves: a channel's settings, names, a user group, a panel thread and its title. */
async function keepSome(stores: ReplicaStores, workspace: string, names = 1): Promise<void> {
  await stores.channelSettings.put(`${workspace}:C1`, settings);
  for (let user = 0; user < names; user++) await stores.names.set(`${workspace}:U${user}`, 'Ada', 60);
  await stores.operators.set(`${workspace}:S1`, members, 60);
  await stores.assistantContexts.set(`${workspace}:D1:1764000000.000100`, 'C1', 60);
  expect(await stores.panelTitles.claim(`assistant-title:${workspace}:D1:1764000000.000100`)).toBe(true);
  await stores.reviewCards.of(workspace).change('doc:wifi', async () => ({ card, result: undefined }));
  await stores.entrySnapshots.of(workspace).put(entrySnapshot('doc-wifi'));
  await stores.questionLinks.of(workspace).put('1:wifi', questionLink('doc-wifi'));
}

/** Each of what keepSome kept, as it reads now. */
async function readBack(stores: ReplicaStores, workspace: string) {
  return {
    channel: await stores.channelSettings.get(`${workspace}:C1`),
    name: await stores.names.get(`${workspace}:U0`),
    operators: await stores.operators.get(`${workspace}:S1`),
    panelChannel: await stores.assistantContexts.get(`${workspace}:D1:1764000000.000100`),
    // Claimable again only once forgotten (and then claimed here, as its next question would).
    titleFree: await stores.panelTitles.claim(`assistant-title:${workspace}:D1:1764000000.000100`),
    card: await stores.reviewCards.of(workspace).get('doc:wifi'),
    openCards: (await stores.reviewCards.of(workspace).openCards('disliked', 5)).total,
    snapshot: await stores.entrySnapshots.of(workspace).get('doc-wifi'),
    link: await stores.questionLinks.of(workspace).get('1:wifi'),
  };
}

const kept = {
  channel: settings,
  name: 'Ada',
  operators: members,
  panelChannel: 'C1',
  titleFree: false,
  card,
  openCards: 1,
  snapshot: entrySnapshot('doc-wifi'),
  link: questionLink('doc-wifi'),
};
const gone = {
  channel: undefined,
  name: undefined,
  operators: undefined,
  panelChannel: undefined,
  titleFree: true,
  card: undefined,
  openCards: 0,
  snapshot: undefined,
  link: undefined,
};

export function describeForgetWorkspaceContract(implementation: StoreImplementation): void {
  describe('forgetWorkspace', () => {
    it('forgets one workspace on every replica, at once, and keeps the others, T10 beside T1', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      await keepSome(a, 'T1', MANY_NAMES);
      await keepSome(a, 'T10');
      await keepSome(b, 'E1');
      // Kept before keys carried their workspace: every workspace's, so no uninstall's.
      await a.channelSettings.put('C1', settings);

      // Just written (in SQLite still held for the file): gone all the same.
      expect(await b.forgetWorkspace('T1')).toBe(MANY_NAMES + 7);
      expect(await readBack(a, 'T1')).toEqual(gone);
      expect(await b.names.get(`T1:U${MANY_NAMES - 1}`)).toBeUndefined();
      expect(await readBack(b, 'T10')).toEqual(kept);
      expect(await readBack(a, 'E1')).toEqual(kept);
      expect([...(await b.channelSettings.all()).keys()].sort()).toEqual(['C1', 'E1:C1', 'T10:C1']);
    });

    it('forgets again without harm, and a workspace kept afresh after it stays', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      await keepSome(a, 'T1');
      expect(await a.forgetWorkspace('T1')).toBe(8);
      expect(await b.forgetWorkspace('T1')).toBe(0);
      // Installed again: what it keeps now is its own, and stays.
      await a.channelSettings.put('T1:C2', settings);
      await a.names.set('T1:U9', 'Grace', 60);
      expect(await b.channelSettings.get('T1:C2')).toEqual(settings);
      expect(await b.names.get('T1:U9')).toBe('Grace');
      expect(await b.names.get('T1:U0')).toBeUndefined();
    });

    it('refuses what is no workspace id, which would reach other keys', async () => {
      const [a] = (await openFleet(implementation)).replicas;
      await keepSome(a, 'T1');
      for (const workspace of ['', 'T1:', 'T*', 'T[1]', 'T 1']) {
        await expect(a.forgetWorkspace(workspace)).rejects.toBeInstanceOf(RangeError);
      }
      expect(await readBack(a, 'T1')).toEqual(kept);
    });
  });
}
