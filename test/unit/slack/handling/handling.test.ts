import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { beginHandling } from '../../../../src/slack/handling/handling.js';
import type { SlackUser, UserLookup } from '../../../../src/slack/handling/user-directory.js';
import { workspaceOf } from '../../../../src/slack/handling/workspace.js';

function countingDirectory(): { users: UserLookup; asked: string[]; workspaces: string[] } {
  const asked: string[] = [];
  const workspaces: string[] = [];
  return {
    asked,
    workspaces,
    users: {
      lookup: async (_client, workspace, userId): Promise<SlackUser> => {
        asked.push(userId);
        workspaces.push(workspace);
        return { displayName: `name of ${userId}`, locale: 'en' };
      },
    },
  };
}

const client = new webApi.WebClient('xoxb-test', { slackApiUrl: 'http://127.0.0.1:9/api/' });
const logger = createLogger({ level: 'silent' });

describe('beginHandling', () => {
  it('looks each person up once per handling, however many times the listener asks', async () => {
    const { users, asked } = countingDirectory();
    const handling = beginHandling({ client, context: { teamId: 'T1' } }, { logger, users });
    const [first, second, other] = await Promise.all([
      handling.person('U1'),
      handling.person('U1'),
      handling.person('U2'),
    ]);
    expect(first).toEqual({ displayName: 'name of U1', locale: 'en' });
    expect(second).toBe(first);
    expect(other?.displayName).toBe('name of U2');
    expect(asked).toEqual(['U1', 'U2']);
  });

  it('asks again in the next handling: the directory, not the handling, is the cache', async () => {
    const { users, asked } = countingDirectory();
    await beginHandling({ client, context: { teamId: 'T1' } }, { logger, users }).person('U1');
    await beginHandling({ client, context: { teamId: 'T1' } }, { logger, users }).person('U1');
    expect(asked).toEqual(['U1', 'U1']);
  });

  it('takes the workspace from Bolt’s context: the team, else the enterprise, else one name for neither', async () => {
    expect(workspaceOf({ teamId: 'T1', enterpriseId: 'E1' })).toBe('T1');
    expect(workspaceOf({ enterpriseId: 'E1' })).toBe('E1');
    expect(workspaceOf({})).toBe('unknown');
    // An org-wide install is one install: the enterprise, whichever of its workspaces the event came from.
    expect(workspaceOf({ teamId: 'T1', enterpriseId: 'E1', isEnterpriseInstall: true })).toBe('E1');
    expect(workspaceOf({ teamId: 'T1', enterpriseId: 'E1', isEnterpriseInstall: false })).toBe('T1');
    const { users, workspaces } = countingDirectory();
    const handling = beginHandling({ client, context: { teamId: 'T9' } }, { logger, users });
    expect(handling.teamId).toBe('T9');
    // A person is looked up in the handling's workspace.
    await handling.person('U1');
    expect(workspaces).toEqual(['T9']);
  });
});
