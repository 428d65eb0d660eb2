// Installed in many workspaces, two replicas on one Redis: an uninstall handled by one replica is heard
// by the other at once (Redis pub/sub drops its cached installation), not after its minute of cache.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDistributed } from '../../support/distributed-gateways.js';
import type { FakeSlackApi } from '../../support/fake-slack-api.js';
import { installThroughPages } from '../../support/install-pages.js';
import { slackOAuth } from '../../support/slack-oauth.js';
import { appMention, eventFromTeam, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import type { TestGateway } from '../../support/test-gateway.js';
import { waitFor } from '../../support/wait.js';

const _keyPrefix = `test:install-replicas:${process.pid}:${randomBytes(4).toString('hex')}:`;
const SIGNING_SECRET = 'replicas-install-signing-secret';
const CLIENT_ID = '5555.6666';
const CLIENT_SECRET = 'client-secret-for-the-replicas-test';
const ACME = 'T0ACME';
const ACME_BOT = 'U0ACMEBOT';
const NOT_INSTALLED = 'a workspace without the app installed sent a request; nothing answered';

let slack: FakeSlackApi;
let replicaA: TestGateway;
let replicaB: TestGateway;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const oauth = slackOAuth({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    team: { id: ACME, name: 'Acme' },
    appId: IDS.app,
    botUserId: ACME_BOT,
  });
  const [a, b] = await startDistributed(
    {
      slack: { handlers: { 'oauth.v2.access': oauth.handler } },
      signingSecret: SIGNING_SECRET,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
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

async function installAcme(url: string): Promise<void> {
  await installThroughPages(url);
}

function mentionFromAcme(text: string) {
  return eventFromTeam(appMention({ text: `<@${ACME_BOT}> ${text}`, team: ACME }), ACME, ACME_BOT);
}

describe('installations across replicas', () => {
  it('stops answering on the other replica within seconds of an uninstall, not after its cache', async () => {
    await installAcme(replicaA.url);
    // Replica B answers, and so holds Acme's installation in its minute-long cache.
    const answered = slack.waitForCall('chat.update', () => true, 10_000);
    await sendEvent(replicaB.url, SIGNING_SECRET, mentionFromAcme('How do I reset my password?'));
    await answered;

    // Sent after the install (Slack's event_time is in whole seconds; an earlier one is a stale uninstall).
    const uninstall = {
      ...eventFromTeam({ type: 'app_uninstalled' }, ACME, ACME_BOT),
      event_time: Math.ceil(Date.now() / 1000) + 1,
    };
    expect((await sendEvent(replicaA.url, SIGNING_SECRET, uninstall)).status).toBe(200);
    const removed = await waitFor(() => replicaA.logs.find((line) => line.msg === 'app_uninstalled'), {
      message: 'replica A handled the uninstall',
    });
    expect(removed.outcome).toBe('removed');

    // Asked again and again, B refuses within seconds: its cache was dropped when A removed it.
    const startedAt = Date.now();
    await waitFor(
      async () => {
        await sendEvent(replicaB.url, SIGNING_SECRET, mentionFromAcme('Are you still there?'));
        return replicaB.logs.some((line) => line.msg === NOT_INSTALLED);
      },
      { timeoutMs: 10_000, intervalMs: 50, message: 'replica B still answers Acme' },
    );
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(replicaB.logs.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
  });
});
