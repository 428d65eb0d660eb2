// An uninstall takes the workspace's data with it: over signed HTTP against the fake Slack, Acme
// installs through the pages, sets a channel up and asks there; once uninstalled, the SQLite file holds
// no row of Acme's, and a reinstall starts from the defaults. An uninstall sent before a reinstall
// removes nothing, and one that comes after the bot's tokens were revoked still removes the data.
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { type DistributedGateway, startDistributed } from '../../support/distributed-gateways.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { isRecord, textOf } from '../../support/gateway-harness.js';
import { installThroughPages } from '../../support/install-pages.js';
import type { LogRecord } from '../../support/log-sink.js';
import { appMention, eventFromTeam, IDS } from '../../support/slack-payloads.js';
import { sendEvent, sendSlashCommand } from '../../support/slack-signing.js';
import { tempStateFiles } from '../../support/temp-state-files.js';
import { waitFor } from '../../support/wait.js';

const SIGNING_SECRET = 'install-purge-signing-secret';
const CLIENT_ID = '1111.2222';
const ACME_TOKEN = `xoxb-acme-${randomBytes(6).toString('hex')}`;
const ACME = 'T0ACME';
const OPERATOR = 'U0OPERATOR';
/** The channel Acme's operator sets up. */
const SET_UP = 'C0PURGE';
const WAIT_MS = 5_000;

const stateFile = tempStateFiles('install-purge-test-');

/** Slack's oauth.v2.access for the one good code: Acme's installation. */
function oauthAccess(call: RecordedCall): Record<string, unknown> {
  if (call.body.code !== 'good-code') return { ok: false, error: 'invalid_code' };
  return {
    ok: true,
    app_id: IDS.app,
    authed_user: { id: OPERATOR },
    scope: 'chat:write,app_mentions:read,commands,users:read',
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
        users: { [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' } },
        handlers: { 'oauth.v2.access': oauthAccess },
      },
      signingSecret: SIGNING_SECRET,
      clientId: CLIENT_ID,
      clientSecret: 'client-secret-for-the-test',
      statePath,
      env: { OPERATOR_USER_IDS: OPERATOR },
    },
    stops,
  );
  if (!started) throw new Error('no gateway started');
  return { ...started, statePath };
}

/** Through the install page and the OAuth redirect, as Acme's admin would. */
async function installAcme(url: string): Promise<void> {
  await installThroughPages(url);
}

/** `/cs <text>` typed by Acme's operator in the set-up channel; what they were answered. */
async function command(started: Started, text: string): Promise<string> {
  const { slack } = started;
  const mark = slack.calls().length;
  const response = await sendSlashCommand(started.gateway.url, SIGNING_SECRET, {
    command: '/cs',
    text,
    user_id: OPERATOR,
    team_id: ACME,
    channel_id: SET_UP,
    response_url: slack.responseUrl(),
  });
  expect(response.status).toBe(200);
  const answer = await slack.waitForCall(
    'response_url',
    (call) => slack.calls().indexOf(call) >= mark,
    WAIT_MS,
  );
  return textOf(answer);
}

/** The robot Acme's question in `channel` was asked of. */
async function robotAskedIn(started: Started, channel: string, text: string): Promise<unknown> {
  const asks = () =>
    started.simulator.received.flatMap((request) =>
      isRecord(request.body) && request.body.action === 'chat_user_robot_ask' && isRecord(request.body.data)
        ? [request.body.data]
        : [],
    );
  const before = asks().length;
  const mention = appMention({ text: `<@U0ACMEBOT> ${text}`, team: ACME, channel });
  await sendEvent(started.gateway.url, SIGNING_SECRET, eventFromTeam(mention, ACME, 'U0ACMEBOT'));
  const ask = await waitFor(() => asks()[before], { timeoutMs: WAIT_MS });
  return ask.robotFlag;
}

function logsOf(started: Started, msg: string): LogRecord[] {
  return started.gateway.logs.filter((record) => record.msg === msg);
}

/** An uninstall or revocation from Acme, sent at `sentAt` (seconds); its log record once handled. */
async function removal<E extends { type: string }>(started: Started, event: E, sentAt: number) {
  const before = logsOf(started, event.type).length;
  const sent = await sendEvent(started.gateway.url, SIGNING_SECRET, {
    ...eventFromTeam(event, ACME, 'U0ACMEBOT'),
    event_time: sentAt,
  });
  expect(sent.status).toBe(200);
  return waitFor(() => logsOf(started, event.type)[before], { timeoutMs: WAIT_MS });
}

/** The `nth` removal of Acme's data, once done: how many entries went. */
async function dataRemoved(started: Started, nth: number): Promise<unknown> {
  const removed = await waitFor(() => logsOf(started, 'workspace data removed')[nth], { timeoutMs: WAIT_MS });
  expect(removed.workspace).toBe(ACME);
  return removed.forgotten;
}

/** Rows of Acme's in the file as another process reads it: channel settings, cached names and the rest. */
function acmeRows(statePath: string): { channels: number; names: number; all: number } {
  const file = new DatabaseSync(statePath, { readOnly: true });
  try {
    const count = (sql: string) => Number(file.prepare(sql).get(`${ACME}:%`)?.n ?? 0);
    const channels = count('SELECT count(*) AS n FROM channel_settings WHERE channel LIKE ?');
    const names = count("SELECT count(*) AS n FROM kv WHERE ns = 'name' AND id LIKE ?");
    return { channels, names, all: channels + count('SELECT count(*) AS n FROM kv WHERE id LIKE ?') };
  } finally {
    file.close();
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('uninstalling removes the workspace’s data', () => {
  it('leaves no row of Acme’s in the file, a reinstall starts from the defaults, and a stale uninstall keeps it', async () => {
    const started = await distributedGateway();
    const { url } = started.gateway;
    await installAcme(url);
    const defaultRobot = await robotAskedIn(started, IDS.channel, 'Where is the default robot?');
    expect(await command(started, 'channel robot:2')).toContain('*robot*: robot 2');
    expect(await robotAskedIn(started, SET_UP, 'How do I reset my password?')).toBe(2);
    // The channel's row at once, the asker's name with the next batch.
    await waitFor(() => acmeRows(started.statePath).names >= 1, { timeoutMs: WAIT_MS });
    expect(acmeRows(started.statePath).channels).toBe(1);

    const uninstalled = await removal(started, { type: 'app_uninstalled' }, nowSeconds() + 1);
    expect(uninstalled).toMatchObject({ outcome: 'removed', teamId: ACME });
    expect(await dataRemoved(started, 0)).toBeGreaterThanOrEqual(2);
    expect(acmeRows(started.statePath)).toEqual({ channels: 0, names: 0, all: 0 });

    const beforeReinstall = nowSeconds() - 1;
    await installAcme(url);
    expect(await robotAskedIn(started, SET_UP, 'Which robot now?')).toBe(defaultRobot);
    expect(await command(started, 'channel robot:3')).toContain('*robot*: robot 3');

    // Sent before the reinstall, arriving after it: the new install and its settings stay.
    const stale = await removal(started, { type: 'app_uninstalled' }, beforeReinstall);
    expect(stale).toMatchObject({ outcome: 'newer' });
    expect(await robotAskedIn(started, SET_UP, 'Still robot 3?')).toBe(3);
    expect(acmeRows(started.statePath).channels).toBe(1);
    expect(logsOf(started, 'workspace data removed')).toHaveLength(1);
    expect(started.gateway.logs.filter((record) => record.level >= 40)).toEqual([]);
  });

  it('removes the data when the uninstall comes after the bot’s tokens were revoked, and keeps it on a revocation alone', async () => {
    const started = await distributedGateway();
    await installAcme(started.gateway.url);
    expect(await command(started, 'channel robot:2')).toContain('*robot*: robot 2');

    const revoked = await removal(
      started,
      { type: 'tokens_revoked', tokens: { bot: ['U0ACMEBOT'] } },
      nowSeconds() + 1,
    );
    expect(revoked).toMatchObject({ outcome: 'removed' });
    // Only the installation went: Acme's settings are still kept.
    expect(acmeRows(started.statePath).channels).toBe(1);

    const uninstalled = await removal(started, { type: 'app_uninstalled' }, nowSeconds() + 1);
    expect(uninstalled).toMatchObject({ outcome: 'absent' });
    expect(await dataRemoved(started, 0)).toBeGreaterThanOrEqual(1);
    expect(acmeRows(started.statePath)).toEqual({ channels: 0, names: 0, all: 0 });
  });
});
