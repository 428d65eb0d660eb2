// Installed in many workspaces in Socket Mode: the install page and OAuth redirect are served on PORT
// beside the health routes, and an event over the socket is answered with its workspace's own token.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { textOf } from '../../support/gateway-harness.js';
import { directMessage, IDS } from '../../support/slack-payloads.js';
import { type SocketModeHarness, startSocketModeHarness } from '../../support/socket-mode-harness.js';

const CLIENT_ID = '3333.4444';
const INSTALLED_TOKEN = `xoxb-socket-${randomBytes(6).toString('hex')}`;

/** Slack's oauth.v2.access for one good code: the default team's installation. */
function oauthAccess(call: RecordedCall): Record<string, unknown> {
  if (call.body.code !== 'good-code' || call.body.client_id !== CLIENT_ID) {
    return { ok: false, error: 'invalid_code' };
  }
  return {
    ok: true,
    app_id: IDS.app,
    authed_user: { id: 'U0ADMIN' },
    scope: 'chat:write,im:history',
    token_type: 'bot',
    access_token: INSTALLED_TOKEN,
    bot_user_id: IDS.botUser,
    team: { id: IDS.team, name: 'Acme' },
    enterprise: null,
    is_enterprise_install: false,
  };
}

let harness: SocketModeHarness;
beforeEach(async () => {
  harness = await startSocketModeHarness({
    env: {
      // Blank counts as unset: installed in many workspaces, each request authorized by its installation.
      SLACK_BOT_TOKEN: '',
      SLACK_CLIENT_ID: CLIENT_ID,
      SLACK_CLIENT_SECRET: 'socket-client-secret',
      SLACK_STATE_SECRET: 'socket-state-secret',
      SLACK_INSTALLATION_KEY: randomBytes(32).toString('base64'),
    },
  });
  harness.slack.setHandler('oauth.v2.access', oauthAccess);
});
afterEach(async () => {
  await harness.close();
});

/** Installs the default team through the pages on PORT, as its admin would. */
async function install(): Promise<string> {
  const start = await fetch(`${harness.url}/slack/install`);
  expect(start.status).toBe(200);
  const page = await start.text();
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const link = /href="(https:\/\/slack\.com\/oauth\/v2\/authorize[^"]+)"/.exec(page)?.[1];
  const state = new URL((link ?? '').replaceAll('&amp;', '&')).searchParams.get('state') ?? '';
  const done = await fetch(
    `${harness.url}/slack/oauth_redirect?code=good-code&state=${encodeURIComponent(state)}`,
    { headers: { cookie } },
  );
  expect(done.status).toBe(200);
  return done.text();
}

describe('Socket Mode, installed in many workspaces', () => {
  it('serves the install pages on PORT and answers over the socket with the installed token', async () => {
    // Before the install: acknowledged, never asked nor answered (the checks at the end say so).
    const early = await harness.sendEvent(directMessage({ text: 'Anyone there?' }));
    expect(early.envelope_id).toBeTruthy();

    const installed = await install();
    expect(installed).toContain(`slack://app?team=${IDS.team}&amp;id=${IDS.app}&amp;tab=home`);
    expect(harness.slack.calls('oauth.v2.access')).toHaveLength(1);

    const answered = harness.slack.waitForCall('chat.update', (call) => call.body.channel === IDS.dm, 5_000);
    await harness.sendEvent(directMessage({ text: 'How do I reset my password?' }));
    const answer = await answered;
    expect(answer.token).toBe(INSTALLED_TOKEN);
    expect(textOf(answer)).toContain('password portal');
    expect(harness.slack.calls('chat.postMessage').map((call) => call.token)).toEqual([INSTALLED_TOKEN]);
    expect(harness.robotAsks().map((ask) => ask.question)).toEqual(['How do I reset my password?']);
    expect(harness.logs.map((line) => line.msg)).toContain(
      'a workspace without the app installed sent a request; nothing answered',
    );
    // The socket was opened with the app-level token, never an installation's.
    expect(harness.slack.calls('apps.connections.open').map((call) => call.token)).not.toContain(
      INSTALLED_TOKEN,
    );
  });
});
