// The cached user directory: one users.info per person and workspace, kept under the workspace's key.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { UserDirectory } from '../../../../src/slack/handling/user-directory.js';
import { memoryNamespaces } from '../../../../src/stores/namespace.js';
import { declaredNamespaces } from '../../../../src/stores/stores.js';
import { sharedFakeSlack } from '../../../support/shared-fake-slack.js';

const logger = createLogger({ level: 'silent' });
const fake = sharedFakeSlack();

describe('UserDirectory', () => {
  it("asks Slack once per person and workspace, and keeps each under its workspace's key", async () => {
    const names = declaredNamespaces(memoryNamespaces({ maxEntries: 10 }), 3600).names;
    const users = new UserDirectory(names, 'en');
    const first = await users.lookup(fake.client, 'T1', 'U1', logger);
    expect(await users.lookup(fake.client, 'T1', 'U1', logger)).toEqual(first);
    expect(fake.api.calls('users.info')).toHaveLength(1);
    expect(await names.get('T1:U1')).toBeDefined();
    expect(await names.get('U1')).toBeUndefined();
    await users.lookup(fake.client, 'T2', 'U1', logger);
    expect(fake.api.calls('users.info')).toHaveLength(2);
  });
});
