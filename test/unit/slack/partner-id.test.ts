// The robot keys a user's session, uid and history on partnerId: it must name one Slack user, always.
import { describe, expect, it } from 'vitest';
import { robotAskRequestSchema } from '../../../src/platform/schemas.js';
import { partnerIdFor } from '../../../src/slack/handling/user-directory.js';

describe('partnerIdFor', () => {
  it('is the same for one user every time, so the robot keeps their session and history', () => {
    expect(partnerIdFor('T0123ABCD', 'U061F7AUR')).toBe(partnerIdFor('T0123ABCD', 'U061F7AUR'));
  });

  it('keeps the value existing users already have on the platform across releases', () => {
    expect(partnerIdFor('T0123ABCD', 'U061F7AUR')).toBe('slack-T0123ABCD-U061F7AUR');
  });

  it('differs between two users of one workspace, so neither sees the other’s session', () => {
    expect(partnerIdFor('T0123ABCD', 'U061F7AUR')).not.toBe(partnerIdFor('T0123ABCD', 'U0G9QF9C6'));
  });

  it('differs between workspaces for one user id, so two workspaces on one platform stay apart', () => {
    expect(partnerIdFor('T0123ABCD', 'U061F7AUR')).not.toBe(partnerIdFor('T9876WXYZ', 'U061F7AUR'));
  });

  it('is accepted by the platform as a partnerId', () => {
    const request = {
      sysNum: 'acme',
      partnerId: partnerIdFor('T0123ABCD', 'W012A3CDE'),
      question: 'VPN',
    };
    expect(robotAskRequestSchema.safeParse(request).success).toBe(true);
  });
});
