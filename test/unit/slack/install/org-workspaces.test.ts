import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { Installations } from '../../../../src/slack/install/installations.js';
import {
  OrgWorkspaces,
  queryOfRequest,
  workspaceAccessSchema,
} from '../../../../src/slack/install/org-workspaces.js';
import { memoryNamespaces } from '../../../../src/stores/namespace.js';
import { Sealer } from '../../../../src/stores/sealing.js';

function orgWorkspaces() {
  const namespace = memoryNamespaces({ maxEntries: 100 });
  const values = namespace('org-workspaces', { schema: workspaceAccessSchema, ttlSeconds: 3600 });
  // Another replica: the same store, its own cache.
  return { here: new OrgWorkspaces(values), replica: () => new OrgWorkspaces(values) };
}

const orgInstall: Installation = {
  team: undefined,
  enterprise: { id: 'E1', name: 'Globex' },
  user: { id: 'W1', token: undefined, scopes: undefined },
  bot: { token: 'xoxb-globex', scopes: ['chat:write'], id: 'B2', userId: 'UBOT2' },
  appId: 'A1',
  isEnterpriseInstall: true,
  authVersion: 'v2',
};

describe('OrgWorkspaces', () => {
  it('answers in every workspace of the org until one is taken back, and again once given back', async () => {
    const { here, replica } = orgWorkspaces();
    expect(await here.answersIn('E1', 'T1')).toBe(true);
    expect(await here.record('E1', ['T1', 'T1'], 'revoked', 2_000)).toEqual({ recorded: ['T1'], older: [] });
    expect(await here.answersIn('E1', 'T1')).toBe(false);
    expect(await here.answersIn('E1', 'T2')).toBe(true);
    expect(await here.answersIn('E2', 'T1')).toBe(true);
    expect(await replica().answersIn('E1', 'T1')).toBe(false);

    await here.record('E1', ['T1'], 'granted', 3_000);
    expect(await here.answersIn('E1', 'T1')).toBe(true);
  });

  it('keeps the latest event whatever order they arrive in, and the same event twice changes nothing', async () => {
    const { here, replica } = orgWorkspaces();
    await here.record('E1', ['T1'], 'revoked', 5_000);
    expect(await here.record('E1', ['T1', 'T2'], 'granted', 4_000)).toEqual({
      recorded: ['T2'],
      older: ['T1'],
    });
    expect(await here.record('E1', ['T1'], 'revoked', 5_000)).toEqual({ recorded: ['T1'], older: [] });
    const fresh = replica();
    expect(await fresh.answersIn('E1', 'T1')).toBe(false);
    expect(await fresh.answersIn('E1', 'T2')).toBe(true);
  });
});

describe('an org-wide install and its workspaces', () => {
  it('is not found for a workspace taken back, and still found for the org itself and the others', async () => {
    const { here } = orgWorkspaces();
    const kept = new Map<string, string>();
    const sealer = Sealer.fromBase64(randomBytes(32).toString('base64'));
    if (!sealer) throw new Error('no key');
    const installations = new Installations(
      {
        get: async (key) => kept.get(key),
        set: async (key, value) => {
          kept.set(key, value);
        },
        delete: async (key) => {
          kept.delete(key);
        },
      },
      sealer,
      { orgAccess: here },
    );
    await installations.storeInstallation(orgInstall);
    await here.record('E1', ['T2'], 'revoked', Date.now());

    const inWorkspace = (teamId: string) => ({ teamId, enterpriseId: 'E1', isEnterpriseInstall: true });
    expect((await installations.find(inWorkspace('T1')))?.bot?.token).toBe('xoxb-globex');
    expect(await installations.find(inWorkspace('T2'))).toBeUndefined();
    await expect(installations.fetchInstallation(inWorkspace('T2'))).rejects.toMatchObject({
      code: 'NOT_INSTALLED',
    });
    // An event that does not say it is org-wide finds the org's install the same way.
    expect(await installations.find({ teamId: 'T2', enterpriseId: 'E1', isEnterpriseInstall: false })).toBe(
      undefined,
    );
    expect(
      await installations.find({ teamId: undefined, enterpriseId: 'E1', isEnterpriseInstall: true }),
    ).toBeDefined();
  });
});

describe('queryOfRequest', () => {
  const source = { teamId: 'T2', enterpriseId: 'E1', isEnterpriseInstall: true };
  it("authorizes an org's access event as the org's, whichever workspace its envelope names", () => {
    for (const type of ['team_access_granted', 'team_access_revoked']) {
      expect(queryOfRequest(source, { event: { type, team_ids: ['T2'] } })).toEqual({
        ...source,
        teamId: undefined,
      });
    }
  });

  it('leaves every other request as Bolt read it', () => {
    for (const body of [{ event: { type: 'app_mention' } }, { type: 'block_actions' }, undefined, 'x']) {
      expect(queryOfRequest(source, body)).toBe(source);
    }
  });
});
