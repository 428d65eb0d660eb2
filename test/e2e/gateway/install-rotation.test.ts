// Token rotation across two replicas on one Redis: a workspace installed through the real pages with a
// token expiring within two hours; both replicas asked at once refresh it once, answer with the new
// token, and leave no token, old or new, in clear in Redis or in their logs.
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDistributed } from '../../support/distributed-gateways.js';
import type { FakeSlackApi } from '../../support/fake-slack-api.js';
import { installThroughPages } from '../../support/install-pages.js';
import { type SlackOAuth, slackOAuth } from '../../support/slack-oauth.js';
import { appMention, eventFromTeam, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import type { TestGateway } from '../../support/test-gateway.js';
import { waitFor } from '../../support/wait.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const keyPrefix = `test:install-rotation:${process.pid}:${randomBytes(4).toString('hex')}:`;
const SIGNING_SECRET = 'rotation-test-signing-secret';
const CLIENT_ID = '1111.2222';
const CLIENT_SECRET = 'client-secret-for-the-test';
const ACME = 'T0ACME';
const ACME_BOT = 'U0ACMEBOT';

let slack: FakeSlackApi;
let oauth: SlackOAuth;
let replicaA: TestGateway;
let replicaB: TestGateway;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  oauth = slackOAuth({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    team: { id: ACME, name: 'Acme' },
    appId: IDS.app,
    botUserId: ACME_BOT,
    // Installed with an hour left: due for a refresh at its first use.
    installedLifetimeSeconds: 3600,
  });
  const [a, b] = await startDistributed(
    {
      slack: { handlers: { 'oauth.v2.access': oauth.handler } },
      signingSecret: SIGNING_SECRET,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      keyPrefix,
    },
    stops,
  );
  if (!a || !b) throw new Error('two replicas expected');
  ({ slack } = a);
  replicaA = a.gateway;
  replicaB = b.gateway;
});
afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** Installs Acme through one replica's pages, as its admin would. */
async function installAcme(url: string): Promise<void> {
  await installThroughPages(url);
}

function mentionFromAcme(text: string) {
  return eventFromTeam(appMention({ text: `<@${ACME_BOT}> ${text}`, team: ACME }), ACME, ACME_BOT);
}

/** Every key under the test's prefix and every value it holds, as text. */
async function redisContents(): Promise<string> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    const parts: string[] = [];
    for await (const keys of client.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 100 })) {
      for (const key of keys) {
        parts.push(key);
        const type = await client.type(key);
        if (type === 'string') parts.push(String(await client.get(key)));
        else if (type === 'hash') parts.push(JSON.stringify(await client.hGetAll(key)));
        else if (type === 'set') parts.push(...(await client.sMembers(key)));
        else if (type === 'list') parts.push(...(await client.lRange(key, 0, -1)));
        else if (type === 'zset') parts.push(...(await client.zRange(key, 0, -1)));
        else throw new Error(`a key of a type this test does not read: ${type}`);
      }
    }
    return parts.join('\n');
  } finally {
    await client.quit();
  }
}

describe('token rotation across two replicas', () => {
  it('refreshes an expiring token once, answers on both replicas with the new one, and keeps none in clear', async () => {
    await installAcme(replicaA.url);
    const [install] = slack.calls('oauth.v2.access');
    const oldToken = String(install?.response?.access_token);
    expect(install?.response?.expires_in).toBe(3600);
    const afterInstall = slack.calls().length;

    // The refresh takes a moment, so the other replica's question arrives while it is on its way.
    slack.delayNext('oauth.v2.access', 300);
    const sent = await Promise.all([
      sendEvent(replicaA.url, SIGNING_SECRET, mentionFromAcme('How do I reset my password?')),
      sendEvent(replicaB.url, SIGNING_SECRET, mentionFromAcme('How do I connect to the VPN?')),
    ]);
    expect(sent.map((response) => response.status)).toEqual([200, 200]);
    await waitFor(() => slack.calls('chat.update').length >= 2, {
      timeoutMs: 10_000,
      message: 'both questions answered',
    });

    const refreshes = slack
      .calls('oauth.v2.access')
      .filter((call) => call.body.grant_type === 'refresh_token');
    expect(refreshes.map((call) => call.body.refresh_token)).toEqual([install?.response?.refresh_token]);
    const newToken = String(refreshes[0]?.response?.access_token);
    expect(newToken).toMatch(/^xoxe\.xoxb-/);
    expect(newToken).not.toBe(oldToken);
    // Each answer, its "Thinking…" line first, posted with the new token.
    const posted = slack
      .calls()
      .slice(afterInstall)
      .filter((call) => call.method.startsWith('chat.'));
    expect(posted.map((call) => call.method).sort()).toEqual([
      'chat.postMessage',
      'chat.postMessage',
      'chat.update',
      'chat.update',
    ]);
    expect(
      new Set(
        slack
          .calls()
          .slice(afterInstall)
          .flatMap((call) => call.token ?? []),
      ),
    ).toEqual(new Set([newToken]));
    const refreshedBy = [replicaA, replicaB].map(
      (replica) => replica.logs.filter((record) => record.msg === 'token refreshed').length,
    );
    expect(refreshedBy.sort()).toEqual([0, 1]);

    // Sealed in Redis: the installation is there, no token of it in clear, in a key or a value.
    const stored = await redisContents();
    expect(stored).toContain(`${keyPrefix}installations:${ACME}`);
    expect(oauth.issued).toHaveLength(4);
    for (const secret of oauth.issued) {
      expect(stored).not.toContain(secret);
      for (const replica of [replicaA, replicaB]) expect(JSON.stringify(replica.logs)).not.toContain(secret);
    }
  });
});
