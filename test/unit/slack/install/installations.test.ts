import type { Installation } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { Installations } from '../../../../src/slack/install/installations.js';
import { keptSealedValues } from '../../../support/sealed-values.js';

const BOT_TOKEN = 'xoxb-acme-0123456789';

function installations() {
  const { kept, values, sealer } = keptSealedValues();
  return { kept, store: new Installations(values, sealer), sealer, values };
}

const teamInstall: Installation = {
  team: { id: 'T1', name: 'Acme' },
  enterprise: undefined,
  user: { id: 'U1', token: undefined, scopes: undefined },
  bot: { token: BOT_TOKEN, scopes: ['chat:write'], id: 'B1', userId: 'UBOT' },
  appId: 'A1',
  isEnterpriseInstall: false,
  authVersion: 'v2',
};

const orgInstall: Installation = {
  team: undefined,
  enterprise: { id: 'E1', name: 'Globex' },
  user: { id: 'U2', token: undefined, scopes: undefined },
  bot: { token: 'xoxb-globex', scopes: ['chat:write'], id: 'B2', userId: 'UBOT2' },
  appId: 'A1',
  isEnterpriseInstall: true,
  authVersion: 'v2',
};

describe('Installations', () => {
  it('keeps an installation sealed under its team and gives it back whole', async () => {
    const { kept, store } = installations();
    await store.storeInstallation(teamInstall);
    expect([...kept.keys()]).toEqual(['T1']);
    expect(kept.get('T1')).not.toContain(BOT_TOKEN);
    expect(kept.get('T1')).not.toContain('Acme');
    const fresh = new Installations(
      { get: async (key) => kept.get(key), set: async () => {}, delete: async () => {} },
      installations().sealer,
    );
    await expect(
      fresh.find({ teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).resolves.toBeUndefined();
    const found = await store.fetchInstallation({
      teamId: 'T1',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(found.bot?.token).toBe(BOT_TOKEN);
    expect(found.team?.id).toBe('T1');
  });

  it('finds an org-wide install by its enterprise, from any of its workspaces', async () => {
    const { kept, store } = installations();
    await store.storeInstallation(orgInstall);
    expect([...kept.keys()]).toEqual(['E1']);
    const asOrg = await store.fetchInstallation({
      teamId: undefined,
      enterpriseId: 'E1',
      isEnterpriseInstall: true,
    });
    expect(asOrg.bot?.token).toBe('xoxb-globex');
    // team_access_granted and some events arrive without saying the install is org-wide.
    const fromTeam = await store.find({ teamId: 'T9', enterpriseId: 'E1', isEnterpriseInstall: false });
    expect(fromTeam?.bot?.token).toBe('xoxb-globex');
  });

  it('says a workspace is not installed, and forgets a deleted one at once', async () => {
    const { store } = installations();
    const query = { teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    await expect(store.fetchInstallation(query)).rejects.toMatchObject({ code: 'NOT_INSTALLED' });
    await store.storeInstallation(teamInstall);
    await store.fetchInstallation(query);
    await store.deleteInstallation(query);
    await expect(store.fetchInstallation(query)).rejects.toMatchObject({ code: 'NOT_INSTALLED' });
  });

  it('does not open a sealed installation moved under another team', async () => {
    const { kept, store } = installations();
    await store.storeInstallation(teamInstall);
    kept.set('T2', kept.get('T1') ?? '');
    await expect(
      store.find({ teamId: 'T2', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).resolves.toBeUndefined();
  });
});
