// Installed in many workspaces in Socket Mode: the install page and OAuth redirect are served on PORT
// beside the health routes, and an event over the socket is answered with its workspace's own token.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textOf } from '../../support/gateway-harness.js';
import { installThroughPages } from '../../support/install-pages.js';
import { slackOAuth } from '../../support/slack-oauth.js';
import { directMessage, IDS } from '../../support/slack-payloads.js';
import { type SocketModeHarness, startSocketModeHarness } from '../../support/socket-mode-harness.js';

const CLIENT_ID = '3333.4444';
const CLIENT_SECRET = 'socket-client-secret';

let harness: SocketModeHarness;
beforeEach(async () => {
  harness = await startSocketModeHarness({
    env: {
      // Blank counts as unset: installed in many workspaces, each request authorized by its installation.
      SLACK_BOT_TOKEN: '',
      SLACK_CLIENT_ID: CLIENT_ID,
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_STATE_SECRET: 'socket-state-secret',
      SLACK_INSTALLATION_KEY: randomBytes(32).toString('base64'),
    },
  });
  const oauth = slackOAuth({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    team: { id: IDS.team, name: 'Acme' },
    appId: IDS.app,
    botUserId: IDS.botUser,
  });
  harness.slack.setHandler('oauth.v2.access', oauth.handler);
});
afterEach(async () => {
  await harness.close();
});

/** Installs the default team through the pages on PORT, as its admin would. */
function install(): Promise<string> {
  return installThroughPages(harness.url);
}

describe('Socket Mode, installed in many workspaces', () => {
  it('serves the install pages on PORT and answers over the socket with the installed token', async () => {
    // Before the install: acknowledged, never asked nor answered (the checks at the end say so).
    const early = await harness.sendEvent(directMessage({ text: 'Anyone there?' }));
    expect(early.envelope_id).toBeTruthy();

    const installed = await install();
    expect(installed).toContain(`slack://app?team=${IDS.team}&amp;id=${IDS.app}&amp;tab=home`);
    expect(harness.slack.calls('oauth.v2.access')).toHaveLength(1);
    const installedToken = String(harness.slack.calls('oauth.v2.access')[0]?.response?.access_token);

    const answered = harness.slack.waitForCall('chat.update', (call) => call.body.channel === IDS.dm, 5_000);
    await harness.sendEvent(directMessage({ text: 'How do I reset my password?' }));
    const answer = await answered;
    expect(answer.token).toBe(installedToken);
    expect(textOf(answer)).toContain('password portal');
    expect(harness.slack.calls('chat.postMessage').map((call) => call.token)).toEqual([installedToken]);
    expect(harness.robotAsks().map((ask) => ask.question)).toEqual(['How do I reset my password?']);
    expect(harness.logs.map((line) => line.msg)).toContain(
      'a workspace without the app installed sent a request; nothing answered',
    );
    // The socket was opened with the app-level token, never an installation's.
    expect(harness.slack.calls('apps.connections.open').map((call) => call.token)).not.toContain(
      installedToken,
    );
  });
});
