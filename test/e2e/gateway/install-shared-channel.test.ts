// Installed in many workspaces, a modal submitted from a Slack Connect channel: the person submitting
// belongs to a partner's workspace where the app is not installed, and the modal was opened through the
// host's installation. Slack names that one in `view.app_installed_team_id`; it is the one answered.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type FakeSlackApi, startFakeSlackApi } from '../../support/fake-slack-api.js';
import { buttonOf, textOf } from '../../support/gateway-harness.js';
import { installThroughPages } from '../../support/install-pages.js';
import { openedViewId, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { slackOAuth } from '../../support/slack-oauth.js';
import { blockActionsPayload, IDS } from '../../support/slack-payloads.js';
import { sendInteraction, sendSlashCommand } from '../../support/slack-signing.js';
import { startTestGateway, type TestGateway } from '../../support/test-gateway.js';
import { waitFor } from '../../support/wait.js';

const SIGNING_SECRET = 'shared-channel-signing-secret';
const CLIENT_ID = '7777.8888';
const CLIENT_SECRET = 'client-secret-for-the-shared-channel-test';
const HOST_OPERATOR = 'U0HOSTOP';
const PARTNER = 'T0PARTNER';
const PARTNER_OPERATOR = 'U0PARTNEROP';
const SHARED_CHANNEL = 'C0SHARED';
const NOT_INSTALLED = 'a workspace without the app installed sent a request; nothing answered';
const WAIT_MS = 5_000;

let simulator: Simulator;
let slack: FakeSlackApi;
let gateway: TestGateway;
let installedToken: string;

beforeEach(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  const oauth = slackOAuth({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    team: { id: IDS.team, name: 'Host' },
    appId: IDS.app,
    botUserId: IDS.botUser,
  });
  slack = await startFakeSlackApi({ handlers: { 'oauth.v2.access': oauth.handler } });
  slack.setAppMember(SHARED_CHANNEL, true);
  gateway = await startTestGateway({
    env: {
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_CLIENT_ID: CLIENT_ID,
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_STATE_SECRET: 'state-secret-for-the-shared-channel-test',
      SLACK_INSTALLATION_KEY: randomBytes(32).toString('base64'),
      SLACK_API_URL: slack.url,
      CS_OPEN_URL: simulator.url,
      OPERATOR_USER_IDS: `${HOST_OPERATOR},${PARTNER_OPERATOR}`,
    },
    closeFakes: async () => {
      await slack.close();
      await simulator.close();
    },
  });
  // The host workspace installs through the pages, as its admin would.
  await installThroughPages(gateway.url);
  installedToken = String(slack.calls('oauth.v2.access')[0]?.response?.access_token);
});
afterEach(async () => {
  await gateway.gateway.stop();
});

/** The host's operator opens the channel's settings modal; resolves with what the partner will submit. */
async function openSettingsModal() {
  const typed = await sendSlashCommand(gateway.url, SIGNING_SECRET, {
    command: '/cs',
    text: 'channel',
    user_id: HOST_OPERATOR,
    team_id: IDS.team,
    channel_id: SHARED_CHANNEL,
    response_url: slack.responseUrl('typed'),
  });
  expect(typed.status).toBe(200);
  const shown = await slack.waitForCall('response_url', undefined, WAIT_MS);
  const edit = buttonOf(shown, 'channel_settings_edit');
  const click = blockActionsPayload(
    {
      user: HOST_OPERATOR,
      channel: SHARED_CHANNEL,
      actions: [{ action_id: edit.actionId, block_id: edit.blockId, value: edit.value, text: edit.text }],
    },
    { response_url: slack.responseUrl('shown') },
  );
  expect((await sendInteraction(gateway.url, SIGNING_SECRET, click)).status).toBe(200);
  const opened = await slack.waitForCall('views.open', undefined, WAIT_MS);
  expect(opened.token).toBe(installedToken);
  return { view: viewOf(opened), id: openedViewId(opened) };
}

/** Submitted by the partner's operator, from their own workspace, as Slack posts it. */
function partnerSubmission(
  opened: { view: Record<string, unknown>; id: string },
  appInstalledTeam: string | undefined,
) {
  const payload = viewSubmissionPayload(
    opened,
    { channel_robot: { text: '7' }, channel_answer: { option: 'questions' } },
    PARTNER_OPERATOR,
  );
  const view = payload.view as Record<string, unknown>;
  return {
    ...payload,
    team: { id: PARTNER, domain: 'partner' },
    user: { id: PARTNER_OPERATOR, username: 'partner.op', name: 'partner.op', team_id: PARTNER },
    view: {
      ...view,
      team_id: PARTNER,
      ...(appInstalledTeam === undefined ? {} : { app_installed_team_id: appInstalledTeam }),
    },
  };
}

describe('a modal submitted from a shared channel', () => {
  it('is answered through the installation that opened it (view.app_installed_team_id)', async () => {
    const opened = await openSettingsModal();
    const mark = slack.calls().length;
    const response = await sendInteraction(gateway.url, SIGNING_SECRET, partnerSubmission(opened, IDS.team));
    expect(response.status).toBe(200);

    const notice = await slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === SHARED_CHANNEL && slack.calls().indexOf(call) >= mark,
      WAIT_MS,
    );
    expect(notice.token).toBe(installedToken);
    expect(textOf(notice)).toContain('I now answer questions here on my own');
    expect(gateway.logs.map((line) => line.msg)).not.toContain(NOT_INSTALLED);

    // Saved as the host workspace's: its operator sees them on the channel.
    const before = slack.calls('response_url').length;
    await sendSlashCommand(gateway.url, SIGNING_SECRET, {
      command: '/cs',
      text: 'channel',
      user_id: HOST_OPERATOR,
      team_id: IDS.team,
      channel_id: SHARED_CHANNEL,
      response_url: slack.responseUrl('again'),
    });
    const shown = await slack.waitForCall(
      'response_url',
      () => slack.calls('response_url').length > before,
      WAIT_MS,
    );
    expect(textOf(slack.calls('response_url')[before] ?? shown)).toContain('*robot*: robot 7');
  });

  it('without it, is refused as from a workspace that has not installed the app, and changes nothing', async () => {
    const opened = await openSettingsModal();
    const mark = slack.calls().length;
    const response = await sendInteraction(gateway.url, SIGNING_SECRET, partnerSubmission(opened, undefined));
    expect(response.status).toBe(200);
    await waitFor(() => gateway.logs.some((line) => line.msg === NOT_INSTALLED), { timeoutMs: WAIT_MS });
    expect(
      slack
        .calls()
        .slice(mark)
        .filter((call) => call.method === 'chat.postMessage'),
    ).toEqual([]);
  });
});
