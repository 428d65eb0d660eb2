// Whose a request is, decided alike before Bolt (the envelope) and in Bolt (its context), and the one
// shape of a workspace's own key.
import { describe, expect, it } from 'vitest';
import { workspaceKey, workspaceOf, workspaceOfEnvelope } from '../../../../src/slack/handling/workspace.js';

describe('workspaceOfEnvelope', () => {
  it('agrees with workspaceOf: the team, or the enterprise for an org-wide install', () => {
    const team = { team_id: 'T1', enterprise_id: 'E1', is_enterprise_install: false };
    const orgWide = { team_id: 'T1', enterprise_id: 'E1', is_enterprise_install: true };
    expect(workspaceOfEnvelope({ authorizations: [team] })).toBe('T1');
    expect(workspaceOfEnvelope({ authorizations: [orgWide] })).toBe('E1');
    expect(workspaceOfEnvelope({ team_id: 'T1', enterprise_id: 'E1', is_enterprise_install: true })).toBe(
      'E1',
    );
    expect(workspaceOfEnvelope({ authorizations: [{ team_id: null, enterprise_id: 'E1' }] })).toBe('E1');
    expect(workspaceOf({ teamId: 'T1', enterpriseId: 'E1', isEnterpriseInstall: true })).toBe('E1');
  });
});

describe('workspaceKey', () => {
  it('puts the workspace first, before every part', () => {
    expect(workspaceKey('T1', 'C1')).toBe('T1:C1');
    expect(workspaceKey('E1', 'S1')).toBe('E1:S1');
    expect(workspaceKey('T1', 'C1', '1700000000.000100')).toBe('T1:C1:1700000000.000100');
  });
});
