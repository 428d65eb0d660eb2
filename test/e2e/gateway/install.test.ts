// Installed in many workspaces: the install page and OAuth redirect over real HTTP, against the fake
// Slack's oauth.v2.access; then each workspace answered with its own bot token, an uninstalled one
// with nothing, and no token in clear in the SQLite file.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type DistributedGateway, startDistributed } from '../../support/distributed-gateways.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { beginInstall, finishInstall } from '../../support/install-pages.js';
import { appMention, eventFromTeam, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { tempStateFiles } from '../../support/temp-state-files.js';

const SIGNING_SECRET = 'install-test-signing-secret';
const CLIENT_ID = '1111.2222';
const CLIENT_SECRET = 'client-secret-for-the-test';
const ACME_TOKEN = `xoxb-acme-${randomBytes(6).toString('hex')}`;
const ACME = 'T0ACME';

const stateFile = tempStateFiles('install-test-');

/** Slack's oauth.v2.access for one good code: Acme's installation; any other code is refused. */
function oauthAccess(call: RecordedCall): Record<string, unknown> {
  if (call.body.code !== 'good-code' || call.body.client_id !== CLIENT_ID) {
    return { ok: false, error: 'invalid_code' };
  }
  return {
    ok: true,
    app_id: IDS.app,
    authed_user: { id: 'U0ADMIN' },
    scope: 'chat:write,app_mentions:read',
    token_type: 'bot',
    access_token: ACME_TOKEN,
    bot_user_id: 'U0ACMEBOT',
    team: { id: ACME, name: 'Acme' },
    enterprise: null,
    is_enterprise_install: false,
  };
}

interface Started extends DistributedGateway {
  statePath: string;
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function distributedGateway(): Promise<Started> {
  const statePath = stateFile();
  const [started] = await startDistributed(
    {
      slack: {
        handlers: { 'oauth.v2.access': oauthAccess },
      },
      signingSecret: SIGNING_SECRET,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      statePath,
    },
    stops,
  );
  if (!started) throw new Error('no gateway started');
  return { ...started, statePath };
}

function mentionFrom(team: string, text: string) {
  return eventFromTeam(appMention({ text: `<@U0ACMEBOT> ${text}`, team }), team, 'U0ACMEBOT');
}

/** Installs Acme through the pages, as its admin would. */
async function installAcme(url: string): Promise<void> {
  const { state, cookie } = await beginInstall(url);
  const done = await finishInstall(url, `code=good-code&state=${encodeURIComponent(state)}`, cookie);
  expect(done.status).toBe(200);
}

/** An uninstall or revocation from Acme, sent at `sentAt` (seconds). */
function removal(event: { type: string }, sentAt: number) {
  return { ...eventFromTeam(event, ACME, 'U0ACMEBOT'), event_time: sentAt };
}

/** Whether Acme's question is answered now: the answer's chat.update, or nothing within a second. */
async function acmeAnswered(started: Started, text: string): Promise<boolean> {
  const before = started.slack.calls('chat.update').length;
  await sendEvent(started.gateway.url, SIGNING_SECRET, mentionFrom(ACME, text));
  return started.slack
    .waitForCall('chat.update', () => started.slack.calls('chat.update').length > before, 1_000)
    .then(
      () => true,
      () => false,
    );
}

describe('installing in many workspaces', () => {
  it('installs from the page, then answers that workspace with its own token', async () => {
    const { gateway, slack, simulator } = await distributedGateway();
    const { state, cookie, page } = await beginInstall(gateway.url);
    expect(page).toContain('Add to Slack');
    expect(page).toContain(`client_id=${CLIENT_ID}`);
    expect(page).toContain('scope=app_mentions%3Aread%2Cchat%3Awrite');
    expect(cookie).toContain(state);

    const done = await finishInstall(
      gateway.url,
      `code=good-code&state=${encodeURIComponent(state)}`,
      cookie,
    );
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`slack://app?team=${ACME}&amp;id=${IDS.app}&amp;tab=home`);
    expect(slack.calls('oauth.v2.access')).toHaveLength(1);

    // The "Thinking…" line, then the answer in its place: both with Acme's own token.
    const answered = slack.waitForCall('chat.update', (call) => call.body.channel === IDS.channel);
    const sent = await sendEvent(
      gateway.url,
      SIGNING_SECRET,
      mentionFrom(ACME, 'How do I reset my password?'),
    );
    expect(sent.status).toBe(200);
    expect((await answered).token).toBe(ACME_TOKEN);
    expect(slack.calls('chat.postMessage').map((call) => call.token)).toEqual([ACME_TOKEN]);
    expect(
      simulator.received.some((request) => JSON.stringify(request.body).includes('reset my password')),
    ).toBe(true);
  });

  it('refuses a replayed, forged or missing state with a page, and stores nothing', async () => {
    const { gateway, slack } = await distributedGateway();
    const { state, cookie } = await beginInstall(gateway.url);
    const query = `code=good-code&state=${encodeURIComponent(state)}`;
    expect((await finishInstall(gateway.url, query, cookie)).status).toBe(200);

    const replayed = await finishInstall(gateway.url, query, cookie);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('already used');

    const forged = 'AAAAAAAAAAAAAAAAAAAAAAAA.1764324000000.Zm9yZ2Vk';
    const forgedAnswer = await finishInstall(
      gateway.url,
      `code=good-code&state=${forged}`,
      `slack-app-oauth-state=${forged}`,
    );
    expect(forgedAnswer.status).toBe(400);
    expect(await forgedAnswer.text()).toContain('Start again');

    const fresh = await beginInstall(gateway.url);
    const withoutCookie = await finishInstall(
      gateway.url,
      `code=good-code&state=${encodeURIComponent(fresh.state)}`,
      '',
    );
    expect(withoutCookie.status).toBe(400);

    // Only the first, good install reached Slack's code exchange.
    expect(slack.calls('oauth.v2.access')).toHaveLength(1);
  });

  it('says a cancelled install was cancelled, takes the pages by GET only, and survives garbage', async () => {
    const { gateway, slack } = await distributedGateway();
    const cancelled = await fetch(`${gateway.url}/slack/oauth_redirect?error=access_denied&state=x`);
    expect(cancelled.status).toBe(400);
    expect(await cancelled.text()).toContain('cancelled in Slack');
    expect((await fetch(`${gateway.url}/slack/install`, { method: 'POST' })).status).toBe(405);
    const garbage = await fetch(
      `${gateway.url}/slack/oauth_redirect?code=${'%00'.repeat(500)}&state=${'.'.repeat(5000)}`,
      { headers: { cookie: `slack-app-oauth-state=${'.'.repeat(5000)}` } },
    );
    expect(garbage.status).toBe(400);
    expect(slack.calls('oauth.v2.access')).toEqual([]);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it('answers a workspace that never installed with nothing, and keeps no token in clear', async () => {
    const { gateway, slack, simulator, statePath } = await distributedGateway();
    const { state, cookie } = await beginInstall(gateway.url);
    await finishInstall(gateway.url, `code=good-code&state=${encodeURIComponent(state)}`, cookie);

    for (const text of ['Who are you?', 'Anyone there?']) {
      const stranger = await sendEvent(gateway.url, SIGNING_SECRET, mentionFrom('T0STRANGER', text));
      expect(stranger.status).toBe(200);
    }
    // Acme's question after it: once answered, the stranger's would have been too.
    const answered = slack.waitForCall('chat.update', (call) => call.token === ACME_TOKEN);
    await sendEvent(gateway.url, SIGNING_SECRET, mentionFrom(ACME, 'How do I connect to the VPN?'));
    await answered;
    expect(
      slack
        .calls()
        .filter((call) => call.method.startsWith('chat.'))
        .map((call) => call.token),
    ).toEqual([ACME_TOKEN, ACME_TOKEN]);
    expect(simulator.received.some((request) => JSON.stringify(request.body).includes('Who are you'))).toBe(
      false,
    );
    // Told once, not once a request, and not as a failure of the app's own.
    const refusals = gateway.logs.filter((record) => record.workspace === 'T0STRANGER');
    expect(refusals.map((record) => record.msg)).toEqual([
      'a workspace without the app installed sent a request; nothing answered',
    ]);
    expect(gateway.logs.filter((record) => record.level >= 50)).toEqual([]);

    await gateway.gateway.stop();
    const folder = dirname(statePath);
    const files = readdirSync(folder);
    expect(files).toContain(basename(statePath));
    for (const file of files) {
      const bytes = readFileSync(join(folder, file));
      expect(bytes.includes(ACME_TOKEN), file).toBe(false);
      expect(bytes.includes('Acme'), file).toBe(false);
    }
  });

  it('removes the installation on an uninstall or a bot revocation, in either order, once', async () => {
    const started = await distributedGateway();
    const { url } = started.gateway;
    await installAcme(url);
    expect(await acmeAnswered(started, 'Before the uninstall?')).toBe(true);

    const now = Math.floor(Date.now() / 1000) + 1;
    expect((await sendEvent(url, SIGNING_SECRET, removal({ type: 'app_uninstalled' }, now))).status).toBe(
      200,
    );
    const revoked = { type: 'tokens_revoked', tokens: { bot: ['U0ACMEBOT'] } };
    expect((await sendEvent(url, SIGNING_SECRET, removal(revoked, now))).status).toBe(200);
    expect(await acmeAnswered(started, 'After the uninstall?')).toBe(false);

    await installAcme(url);
    expect(await acmeAnswered(started, 'Reinstalled?')).toBe(true);
    // The other order: the bot's tokens revoked, then the uninstall arriving late.
    const later = Math.floor(Date.now() / 1000) + 2;
    await sendEvent(url, SIGNING_SECRET, removal(revoked, later));
    await sendEvent(url, SIGNING_SECRET, removal({ type: 'app_uninstalled' }, later));
    expect(await acmeAnswered(started, 'Revoked?')).toBe(false);
    const outcomes = started.gateway.logs
      .filter((record) => record.msg === 'app_uninstalled' || record.msg === 'tokens_revoked')
      .map((record) => `${String(record.msg)}:${String(record.outcome)}`);
    expect(outcomes).toEqual([
      'app_uninstalled:removed',
      'tokens_revoked:absent',
      'tokens_revoked:removed',
      'app_uninstalled:absent',
    ]);
  });

  it('keeps a reinstall when an uninstall sent before it arrives late', async () => {
    const started = await distributedGateway();
    const { url } = started.gateway;
    const beforeInstall = Math.floor(Date.now() / 1000) - 60;
    await installAcme(url);
    await sendEvent(url, SIGNING_SECRET, removal({ type: 'app_uninstalled' }, beforeInstall));
    // Revoking user tokens alone leaves the app installed.
    const userTokensOnly = { type: 'tokens_revoked', tokens: { oauth: ['U0ADMIN'] } };
    await sendEvent(url, SIGNING_SECRET, removal(userTokensOnly, Math.floor(Date.now() / 1000) + 1));
    expect(await acmeAnswered(started, 'Still installed?')).toBe(true);
  });
});
