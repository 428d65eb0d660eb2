import { describe, expect, it } from 'vitest';
import { type WorkspaceSetup, WorkspaceSetups } from '../../../../src/slack/install/workspace-setups.js';
import { keptSealedValues } from '../../../support/sealed-values.js';

const APP_KEY = 'acme-app-key-0123456789';

const SETUP: WorkspaceSetup = {
  account: {
    openUrl: 'https://cs.acme.example',
    sysNum: 'acme',
    credential: { kind: 'fetched', appId: 'acme-app', appKey: APP_KEY },
  },
  robotFlag: 2,
  setBy: 'U0INSTALLER',
  setAt: 1_764_000_000_000,
};

function setups() {
  const { kept, values, sealer } = keptSealedValues();
  const told: string[] = [];
  const store = new WorkspaceSetups(values, sealer, {
    changed: async (workspace) => {
      told.push(workspace);
    },
  });
  return { kept, store, told, values, sealer };
}

describe('WorkspaceSetups', () => {
  it('keeps a set-up sealed under its workspace and gives it back whole', async () => {
    const { kept, store, values, sealer } = setups();
    await store.set('T1', SETUP);
    expect([...kept.keys()]).toEqual(['T1']);
    expect(kept.get('T1')).not.toContain(APP_KEY);
    expect(kept.get('T1')).not.toContain('cs.acme.example');
    // Read afresh (no cache), as another replica would.
    await expect(new WorkspaceSetups(values, sealer).get('T1')).resolves.toEqual(SETUP);
    // A sealed value moved under another workspace does not open there.
    kept.set('T2', kept.get('T1') as string);
    await expect(new WorkspaceSetups(values, sealer).get('T2')).resolves.toBeUndefined();
  });

  it('tells its watchers of every change, its own and those told by other replicas', async () => {
    const { store, told, values, sealer } = setups();
    const watched: string[] = [];
    store.watch((workspace) => watched.push(workspace));
    await store.set('T1', SETUP);
    await store.delete('T1');
    expect(watched).toEqual(['T1', 'T1']);
    expect(told).toEqual(['T1', 'T1']);

    // Another replica saved one: the cached "none" is dropped and the watchers hear of it.
    await expect(store.get('T3')).resolves.toBeUndefined();
    await new WorkspaceSetups(values, sealer).set('T3', SETUP);
    await expect(store.get('T3')).resolves.toBeUndefined();
    store.forget('T3');
    expect(watched).toEqual(['T1', 'T1', 'T3']);
    await expect(store.get('T3')).resolves.toEqual(SETUP);
  });
});
