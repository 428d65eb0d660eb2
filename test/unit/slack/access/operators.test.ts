// Who is an operator: named users, and the members of a user group read from Slack (the fake Web API
// on loopback), kept in the store and read again when older than the refresh or when told to.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { OperatorDirectory } from '../../../../src/slack/access/operators.js';
import { memoryOperatorCache } from '../../../support/memory-stores.js';
import { sharedFakeSlack } from '../../../support/shared-fake-slack.js';

const logger = createLogger({ level: 'silent' });
const fake = sharedFakeSlack();

describe('OperatorDirectory', () => {
  it('refuses everyone, as not configured, when neither variable is set', async () => {
    const operators = new OperatorDirectory({ userIds: [], usergroupId: undefined }, memoryOperatorCache());
    expect(await operators.check(fake.client, 'T1', 'U1', logger)).toEqual({
      kind: 'refused',
      reason: 'none_configured',
    });
    expect(fake.api.calls('usergroups.users.list')).toHaveLength(0);
  });

  it('admits named users without asking Slack', async () => {
    const operators = new OperatorDirectory({ userIds: ['U1'], usergroupId: 'S1' }, memoryOperatorCache());
    expect(await operators.check(fake.client, 'T1', 'U1', logger)).toEqual({ kind: 'operator' });
    expect(fake.api.calls('usergroups.users.list')).toHaveLength(0);
  });

  it('reads the group once per refresh period, and again when told the group changed', async () => {
    let now = 1_000_000;
    fake.api.setUsergroup('S1', ['U2']);
    const operators = new OperatorDirectory(
      { userIds: [], usergroupId: 'S1', refreshMs: 60_000 },
      memoryOperatorCache(),
      () => now,
    );
    expect(await operators.check(fake.client, 'T1', 'U2', logger)).toEqual({ kind: 'operator' });
    expect(await operators.check(fake.client, 'T1', 'U3', logger)).toEqual({
      kind: 'refused',
      reason: 'not_operator',
    });
    expect(fake.api.calls('usergroups.users.list')).toHaveLength(1);

    fake.api.setUsergroup('S1', ['U3']);
    expect(await operators.check(fake.client, 'T1', 'U3', logger)).toMatchObject({ kind: 'refused' });
    await operators.refresh(fake.client, 'T1', logger);
    expect(await operators.check(fake.client, 'T1', 'U3', logger)).toEqual({ kind: 'operator' });
    expect(await operators.check(fake.client, 'T1', 'U2', logger)).toMatchObject({ kind: 'refused' });

    fake.api.setUsergroup('S1', ['U2']);
    now += 61_000;
    expect(await operators.check(fake.client, 'T1', 'U2', logger)).toEqual({ kind: 'operator' });
    expect(fake.api.calls('usergroups.users.list')).toHaveLength(3);
  });

  it('keeps the last members read while Slack cannot be asked, and admits nobody without any', async () => {
    let now = 0;
    const cache = memoryOperatorCache();
    fake.api.setUsergroup('S1', ['U2']);
    const operators = new OperatorDirectory(
      { userIds: [], usergroupId: 'S1', refreshMs: 10 },
      cache,
      () => now,
    );
    expect(await operators.check(fake.client, 'T1', 'U2', logger)).toEqual({ kind: 'operator' });
    now += 100;
    fake.api.failNext('usergroups.users.list', { error: 'ratelimited' });
    expect(await operators.check(fake.client, 'T1', 'U2', logger)).toEqual({ kind: 'operator' });

    // Kept under the workspace's key: another workspace's group of that id is another copy.
    expect(await cache.get('T1:S1')).toMatchObject({ members: ['U2'] });
    expect(await cache.get('S1')).toBeUndefined();

    const fresh = new OperatorDirectory({ userIds: [], usergroupId: 'S9' }, memoryOperatorCache());
    expect(await fresh.check(fake.client, 'T1', 'U2', logger)).toMatchObject({
      kind: 'refused',
      reason: 'not_operator',
    });
  });
});
