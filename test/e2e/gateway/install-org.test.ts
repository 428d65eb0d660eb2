// Installed org-wide: an Enterprise Grid org installs once through the pages, against the fake Slack's
// oauth.v2.access, and the admin is sent to Slack's page for adding the app to its workspaces; then
// two of its workspaces are answered with the org's one bot token, until the admin takes one back
// (team_access_revoked), on every replica at once, and while it is given back (team_access_granted).
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type DistributedGateway, startDistributed } from '../../support/distributed-gateways.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { installThroughPages } from '../../support/install-pages.js';
import { appMention, eventFromTeam, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { tempStateFiles } from '../../support/temp-state-files.js';
import { waitFor } from '../../support/wait.js';

const SIGNING_SECRET = 'install-org-test-signing-secret';
const CLIENT_ID = '3333.4444';
const ORG_TOKEN = `xoxb-org-${randomBytes(6).toString('hex')}`;
const ORG = 'E0ORG';
const ORG_BOT = 'U0ORGBOT';
/** Two workspaces of the org, each asking in a channel of its own. */
const ONE = { team: 'T0ONE', channel: 'C0ONE' };
const TWO = { team: 'T0TWO', channel: 'C0TWO' };
type Workspace = typeof ONE;

const stateFile = tempStateFiles('install-org-test-');

/** Slack's oauth.v2.access for an org-wide install: the enterprise, no team. */
function orgAccess(call: RecordedCall): Record<string, unknown> {
  if (call.body.code !== 'org-code') return { ok: false, error: 'invalid_code' };
  return {
    ok: true,
    app_id: IDS.app,
    authed_user: { id: 'W0ADMIN' },
    scope: 'chat:write,app_mentions:read',
    token_type: 'bot',
    access_token: ORG_TOKEN,
    bot_user_id: ORG_BOT,
    team: null,
    enterprise: { id: ORG, name: 'Initech' },
    is_enterprise_install: true,
  };
}

type Started = DistributedGateway;

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** One gateway on its own SQLite file, or `replicas` on one Redis under a prefix of this test's. */
function distributedGateways(replicas = 1): Promise<Started[]> {
  return startDistributed(
    {
      slack: { handlers: { 'oauth.v2.access': orgAccess } },
      signingSecret: SIGNING_SECRET,
      clientId: CLIENT_ID,
      clientSecret: 'client-secret-for-the-org-test',
      statePath: replicas === 1 ? stateFile() : undefined,
      replicas,
    },
    stops,
  );
}

async function distributedGateway(): Promise<Started> {
  const [started] = await distributedGateways();
  if (!started) throw new Error('no gateway started');
  return started;
}

/** The org's admin through the install page and back from Slack: the page they land on. */
function installOrg(url: string): Promise<string> {
  return installThroughPages(url, 'org-code');
}

function mentionIn(workspace: Workspace, text: string) {
  const event = appMention({
    text: `<@${ORG_BOT}> ${text}`,
    team: workspace.team,
    channel: workspace.channel,
  });
  return eventFromTeam(event, workspace.team, ORG_BOT, ORG);
}

/** The admin adding the app to workspaces of the org, or taking it back, sent at `sentAt` (seconds). */
function access(type: 'team_access_granted' | 'team_access_revoked', teamIds: string[], sentAt: number) {
  // Org-level: the envelope may name any workspace of the org, even the one taken back.
  return { ...eventFromTeam({ type, team_ids: teamIds }, TWO.team, ORG_BOT, ORG), event_time: sentAt };
}

/** Sends it, and waits for the install room to have logged it. */
async function sendAccess(started: Started, payload: ReturnType<typeof access>): Promise<void> {
  const seen = started.gateway.logs.filter((record) => record.msg === payload.event.type).length;
  expect((await sendEvent(started.gateway.url, SIGNING_SECRET, payload)).status).toBe(200);
  await waitFor(
    () => started.gateway.logs.filter((record) => record.msg === payload.event.type).length > seen,
  );
}

/** The workspace's question, answered in its channel: the answer's chat.update. */
async function answered(started: Started, workspace: Workspace, text: string): Promise<RecordedCall> {
  const earlier = new Set(started.slack.calls('chat.update'));
  const sent = await sendEvent(started.gateway.url, SIGNING_SECRET, mentionIn(workspace, text));
  expect(sent.status).toBe(200);
  return started.slack.waitForCall(
    'chat.update',
    (call) => !earlier.has(call) && call.body.channel === workspace.channel,
  );
}

/** Requests refused as from a workspace without the app, as the gateway counts them (each one). */
async function refused(started: Started): Promise<number> {
  const metrics = await (await fetch(`${started.gateway.url}/metrics`)).text();
  const line = /cs_gateway_slack_events_total\{type="authorize",outcome="not_installed"\} (\d+)/.exec(
    metrics,
  );
  return Number(line?.[1] ?? 0);
}

/** Sends the workspace's question and waits for it to be refused at authorize: no listener runs. */
async function refusedIn(started: Started, workspace: Workspace, text: string): Promise<void> {
  const before = await refused(started);
  const sent = await sendEvent(started.gateway.url, SIGNING_SECRET, mentionIn(workspace, text));
  expect(sent.status).toBe(200);
  await waitFor(async () => (await refused(started)) > before);
}

describe('installed org-wide', () => {
  it('sends the admin to add the app to workspaces, then answers two of them with the org token', async () => {
    const started = await distributedGateway();
    const page = await installOrg(started.gateway.url);
    expect(page).toContain('Installed for your organisation');
    expect(page).toContain(
      `href="https://app.slack.com/manage/${ORG}/integrations/profile/${IDS.app}/workspaces/add"`,
    );
    expect(page).not.toContain('slack://app');

    for (const workspace of [ONE, TWO]) {
      const answer = await answered(started, workspace, `How do I reset my password in ${workspace.team}?`);
      expect(answer.token).toBe(ORG_TOKEN);
    }
    const asked = started.simulator.received.map((request) => JSON.stringify(request.body));
    expect(asked.some((body) => body.includes('password in T0ONE'))).toBe(true);
    expect(asked.some((body) => body.includes('password in T0TWO'))).toBe(true);
    expect(
      started.slack
        .calls()
        .filter((call) => call.method.startsWith('chat.'))
        .every((call) => call.token === ORG_TOKEN),
    ).toBe(true);
    expect(started.gateway.logs.filter((record) => record.level >= 50)).toEqual([]);
  });

  it('stops answering a workspace taken back, keeps the others, and answers it again once given back', async () => {
    const started = await distributedGateway();
    await installOrg(started.gateway.url);
    const now = Math.floor(Date.now() / 1000);
    await sendAccess(started, access('team_access_granted', [ONE.team, TWO.team], now));
    expect((await answered(started, TWO, 'Before it was taken back?')).token).toBe(ORG_TOKEN);

    await sendAccess(started, access('team_access_revoked', [TWO.team], now + 1));
    const chatCallsBefore = started.slack.calls().filter((call) => call.method.startsWith('chat.')).length;
    await refusedIn(started, TWO, 'Anyone in T0TWO?');
    expect((await answered(started, ONE, 'Still answered in T0ONE?')).token).toBe(ORG_TOKEN);
    const chatCallsSince = started.slack
      .calls()
      .filter((call) => call.method.startsWith('chat.'))
      .slice(chatCallsBefore);
    expect(chatCallsSince.map((call) => call.body.channel)).not.toContain(TWO.channel);
    expect(
      started.simulator.received.some((request) => JSON.stringify(request.body).includes('Anyone in T0TWO')),
    ).toBe(false);

    // A late copy of the first grant is older news than the revocation: T0TWO stays taken back.
    await sendAccess(started, access('team_access_granted', [TWO.team], now));
    await refusedIn(started, TWO, 'Still nobody?');

    await sendAccess(started, access('team_access_granted', [TWO.team], now + 2));
    expect((await answered(started, TWO, 'Given back?')).token).toBe(ORG_TOKEN);
    expect(
      started.simulator.received.some((request) => JSON.stringify(request.body).includes('Still nobody')),
    ).toBe(false);
    // Told once an hour, as any workspace without the app is.
    expect(
      started.gateway.logs.filter(
        (record) => record.msg === 'a workspace without the app installed sent a request; nothing answered',
      ),
    ).toHaveLength(1);
    const logged = started.gateway.logs
      .filter((record) => record.msg === 'team_access_granted' || record.msg === 'team_access_revoked')
      .map(
        (record) => `${String(record.msg)} [${String(record.teamIds)}] older [${String(record.olderFor)}]`,
      );
    expect(logged).toEqual([
      'team_access_granted [T0ONE,T0TWO] older []',
      'team_access_revoked [T0TWO] older []',
      'team_access_granted [] older [T0TWO]',
      'team_access_granted [T0TWO] older []',
    ]);
  });

  it('logs and ignores an access event of unexpected shape, and keeps answering', async () => {
    const started = await distributedGateway();
    await installOrg(started.gateway.url);
    const garbage = {
      ...eventFromTeam({ type: 'team_access_revoked', team_ids: 'T0TWO' }, TWO.team, ORG_BOT, ORG),
    };
    expect((await sendEvent(started.gateway.url, SIGNING_SECRET, garbage)).status).toBe(200);
    await waitFor(() =>
      started.gateway.logs.some(
        (record) => record.msg === 'ignored a workspace access event of unexpected shape',
      ),
    );
    expect((await answered(started, TWO, 'Still here?')).token).toBe(ORG_TOKEN);
    expect(started.gateway.logs.filter((record) => record.level >= 50)).toEqual([]);
  });

  it('stops answering a workspace taken back on every replica at once, not after their cache', async () => {
    const [replicaA, replicaB] = await distributedGateways(2);
    if (!replicaA || !replicaB) throw new Error('two replicas expected');
    await installOrg(replicaA.gateway.url);
    // Replica B answers T0TWO, and so holds that the org's install answers there in its cache.
    expect((await answered(replicaB, TWO, 'Answered by B?')).token).toBe(ORG_TOKEN);

    await sendAccess(replicaA, access('team_access_revoked', [TWO.team], Math.floor(Date.now() / 1000)));
    // Asked again and again, B refuses within seconds: A told it, and its cache let go.
    await waitFor(
      async () => {
        const before = await refused(replicaB);
        await sendEvent(replicaB.gateway.url, SIGNING_SECRET, mentionIn(TWO, 'Still answered by B?'));
        return waitFor(async () => (await refused(replicaB)) > before, { timeoutMs: 500 }).then(
          () => true,
          () => false,
        );
      },
      { timeoutMs: 10_000, intervalMs: 50, message: 'replica B still answers T0TWO' },
    );
    expect((await answered(replicaB, ONE, 'And T0ONE, by B?')).token).toBe(ORG_TOKEN);
    for (const replica of [replicaA, replicaB]) {
      expect(replica.gateway.logs.filter((record) => record.level >= 50)).toEqual([]);
    }
  });
});
