import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { Installations, type StoredInstallation } from '../../../../src/slack/install/installations.js';
import { ROTATION_LOCK_SECONDS, TokenRotation } from '../../../../src/slack/install/rotation.js';
import { claimsOnly, memoryNamespaces } from '../../../../src/stores/namespace.js';
import { type FakeSlackApi, startFakeSlackApi } from '../../../support/fake-slack-api.js';
import { logSink } from '../../../support/log-sink.js';
import { keptSealedValues } from '../../../support/sealed-values.js';
import { type RotatingToken, type SlackOAuth, slackOAuth } from '../../../support/slack-oauth.js';

const CLIENT_ID = '1111.2222';
const CLIENT_SECRET = 'client-secret-for-the-test';
const TEAM = { id: 'T0ACME', name: 'Acme' };
const QUERY = { teamId: TEAM.id, enterpriseId: undefined, isEnterpriseInstall: false };
const HOUR = 3600;

let slack: FakeSlackApi;
let oauth: SlackOAuth;

beforeAll(async () => {
  slack = await startFakeSlackApi();
});
afterAll(async () => {
  await slack.close();
});
beforeEach(() => {
  slack.reset();
  oauth = slackOAuth({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    team: TEAM,
    appId: 'A1',
    botUserId: 'U0ACMEBOT',
  });
  slack.setHandler('oauth.v2.access', oauth.handler);
});

function installation(bot: RotatingToken): StoredInstallation {
  return {
    team: TEAM,
    user: { id: 'U0ADMIN' },
    bot: { ...bot, scopes: ['chat:write'], id: 'B0ACME', userId: 'U0ACMEBOT' },
    appId: 'A1',
    isEnterpriseInstall: false,
    authVersion: 'v2',
  };
}

/** What the replicas share: the sealed installations, the claims, the key. */
function sharedStore() {
  const { kept, values, sealer } = keptSealedValues();
  const locks = memoryNamespaces({ maxEntries: 100 })('install-rotations', {
    schema: claimsOnly,
    ttlSeconds: ROTATION_LOCK_SECONDS,
  });
  const sink = logSink();
  const logger = createLogger({ level: 'debug', destination: sink.destination });
  const counted: string[] = [];
  /** A gateway process of its own: its own installation cache and Web API client. */
  const replica = () =>
    new TokenRotation({
      installations: new Installations(values, sealer),
      locks,
      client: new webApi.WebClient(undefined, { slackApiUrl: slack.url, retryConfig: { retries: 0 } }),
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      logger,
      onRefreshFailed: () => counted.push('refresh_failed'),
    });
  return { kept, values, sealer, sink, counted, replica };
}

const refreshCalls = () =>
  slack.calls('oauth.v2.access').filter((call) => call.body.grant_type === 'refresh_token');

describe('token rotation', () => {
  it('refreshes a token expiring within two hours once across replicas, and stores the new one sealed', async () => {
    const store = sharedStore();
    const old = oauth.grant(HOUR);
    await new Installations(store.values, store.sealer).replace(installation(old));
    const [replicaA, replicaB] = [store.replica(), store.replica()];
    // Slow enough that every request below asks while the one refresh is on its way.
    slack.delayNext('oauth.v2.access', 300);

    const used = await Promise.all([
      replicaA.current(QUERY),
      replicaB.current(QUERY),
      replicaA.current(QUERY),
    ]);

    expect(refreshCalls().map((call) => call.body.refresh_token)).toEqual([old.refreshToken]);
    const refreshed = refreshCalls()[0]?.response;
    const newToken = String(refreshed?.access_token);
    expect(newToken).not.toBe(old.token);
    expect(used.map((found) => found?.bot?.token)).toEqual([newToken, newToken, newToken]);

    // What every replica reads from now on: the new pair, good for twelve hours, and none of it in clear.
    const stored = await new Installations(store.values, store.sealer).find(QUERY);
    expect(stored?.bot?.token).toBe(newToken);
    expect(stored?.bot?.refreshToken).toBe(refreshed?.refresh_token);
    expect(stored?.bot?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 11 * HOUR);
    const sealed = store.kept.get(TEAM.id) ?? '';
    for (const secret of oauth.issued) expect(sealed).not.toContain(secret);
    // Asked again, nothing is due: no second refresh.
    expect((await replicaB.current(QUERY))?.bot?.token).toBe(newToken);
    expect(refreshCalls()).toHaveLength(1);
  });

  it('leaves alone a token good for more than two hours, and one that does not rotate', async () => {
    const store = sharedStore();
    const replica = store.replica();
    const lasting = oauth.grant(3 * HOUR);
    await new Installations(store.values, store.sealer).replace(installation(lasting));
    expect((await replica.current(QUERY))?.bot?.token).toBe(lasting.token);

    // Rotation off for this app: a token with no refresh token and no expiry.
    const soon = oauth.grant(HOUR);
    await new Installations(store.values, store.sealer).replace({
      ...installation(soon),
      bot: { token: soon.token, scopes: ['chat:write'], id: 'B0ACME', userId: 'U0ACMEBOT' },
    });
    expect((await store.replica().current(QUERY))?.bot?.token).toBe(soon.token);
    expect(slack.calls('oauth.v2.access')).toEqual([]);
  });

  it('uses the old token when the refresh is refused, logs it without a token, and counts it', async () => {
    const store = sharedStore();
    const old = oauth.grant(HOUR);
    // Another app's refresh token: Slack refuses it.
    await new Installations(store.values, store.sealer).replace(
      installation({ ...old, refreshToken: 'xoxe-1-never-issued' }),
    );
    const replica = store.replica();

    expect((await replica.current(QUERY))?.bot?.token).toBe(old.token);
    expect(refreshCalls().map((call) => call.response?.error)).toEqual(['invalid_refresh_token']);
    expect(store.counted).toEqual(['refresh_failed']);
    const warnings = store.sink.records.filter((record) => record.level === 40);
    expect(warnings).toEqual([
      expect.objectContaining({
        workspace: TEAM.id,
        msg: 'could not refresh the bot token; the current one is used until it expires',
      }),
    ]);
    for (const secret of [...oauth.issued, 'xoxe-1-never-issued']) {
      expect(store.sink.lines.join('\n')).not.toContain(secret);
    }
    // The next requests use it too, without asking Slack again for a while.
    expect((await replica.current(QUERY))?.bot?.token).toBe(old.token);
    expect(refreshCalls()).toHaveLength(1);
    // Still stored as it was: the old token is kept until it expires.
    expect((await new Installations(store.values, store.sealer).find(QUERY))?.bot?.token).toBe(old.token);
  });

  it('is refused by Slack with a refresh token already used', async () => {
    const store = sharedStore();
    const old = oauth.grant(HOUR);
    await new Installations(store.values, store.sealer).replace(installation(old));
    const first = await store.replica().current(QUERY);
    expect(first?.bot?.token).not.toBe(old.token);

    // A replica that stored what it read before the refresh brings the used refresh token back.
    await new Installations(store.values, store.sealer).replace(installation(old));
    expect((await store.replica().current(QUERY))?.bot?.token).toBe(old.token);
    expect(refreshCalls().map((call) => call.response?.error ?? 'ok')).toEqual([
      'ok',
      'invalid_refresh_token',
    ]);
    expect(store.counted).toEqual(['refresh_failed']);
  });

  it('answers a grant it does not know with invalid_grant_type', async () => {
    const client = new webApi.WebClient(undefined, { slackApiUrl: slack.url, retryConfig: { retries: 0 } });
    await expect(
      client.apiCall('oauth.v2.access', {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_type: 'password',
      }),
    ).rejects.toMatchObject({ data: { error: 'invalid_grant_type' } });
  });
});
