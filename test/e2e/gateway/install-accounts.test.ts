// Installed in many workspaces with no platform account of its own: each workspace is told it is not
// set up (naming who installed the app), its installer sets its account up in the Home tab, and from
// then on its questions and ratings go to its own platform account only, sealed at rest.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_PATH } from '../../../src/platform/schemas.js';
import { type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type DistributedGateway, startDistributed } from '../../support/distributed-gateways.js';
import type { FakeSlackApi, RecordedCall } from '../../support/fake-slack-api.js';
import { blocksOf, buttonOf, buttonsOf, textOf } from '../../support/gateway-harness.js';
import { installThroughPages } from '../../support/install-pages.js';
import {
  type InputValue,
  messageShortcutPayload,
  openedViewId,
  viewOf,
  viewSubmissionPayload,
} from '../../support/review-payloads.js';
import { appMention, blockActionsPayload, eventFromTeam, IDS, nextTs } from '../../support/slack-payloads.js';
import { sendEvent, sendInteraction, sendSlashCommand } from '../../support/slack-signing.js';
import { tempStateFiles } from '../../support/temp-state-files.js';
import { waitFor } from '../../support/wait.js';

const SIGNING_SECRET = 'accounts-test-signing-secret';
const CLIENT_ID = '3333.4444';
const CLIENT_SECRET = 'client-secret-for-the-accounts-test';
const WAIT_MS = 5_000;

interface Company {
  team: string;
  name: string;
  installer: string;
  botUser: string;
  botToken: string;
  sysNum: string;
  appId: string;
  appKey: string;
  /** A workspace of this org, installed org-wide. */
  org?: string;
}

const ACME: Company = {
  team: 'T0ACME',
  name: 'Acme',
  installer: 'U0ACMEADMIN',
  botUser: 'U0ACMEBOT',
  botToken: `xoxb-acme-${randomBytes(6).toString('hex')}`,
  sysNum: 'acme-sys',
  appId: 'acme-app',
  appKey: `acme-key-${randomBytes(8).toString('hex')}`,
};
const GLOBEX: Company = {
  team: 'T0GLOBEX',
  name: 'Globex',
  installer: 'U0GLOBEXADMIN',
  botUser: 'U0GLOBEXBOT',
  botToken: `xoxb-globex-${randomBytes(6).toString('hex')}`,
  sysNum: 'globex-sys',
  appId: 'globex-app',
  appKey: `globex-key-${randomBytes(8).toString('hex')}`,
};
/** Two workspaces of one Enterprise Grid org, installed once for the org by its admin. */
const INITECH = { id: 'E0INITECH', token: `xoxb-initech-${randomBytes(6).toString('hex')}` };
const INITECH_ONE: Company = {
  team: 'T0INIONE',
  name: 'Initech',
  installer: 'W0INITECHADMIN',
  botUser: 'U0INITECHBOT',
  botToken: INITECH.token,
  sysNum: 'initech-sys',
  appId: 'initech-app',
  appKey: `initech-key-${randomBytes(8).toString('hex')}`,
  org: INITECH.id,
};
const INITECH_TWO: Company = { ...INITECH_ONE, team: 'T0INITWO' };
const COMPANIES = [ACME, GLOBEX];

const stateFile = tempStateFiles('install-accounts-test-');

/** The code is the company's name: its installation, by its admin. */
function oauthAccess(call: RecordedCall): Record<string, unknown> {
  if (call.body.code === 'Initech' && call.body.client_id === CLIENT_ID) {
    return {
      ok: true,
      app_id: IDS.app,
      authed_user: { id: INITECH_ONE.installer },
      scope: 'chat:write,app_mentions:read',
      token_type: 'bot',
      access_token: INITECH.token,
      bot_user_id: INITECH_ONE.botUser,
      team: null,
      enterprise: { id: INITECH.id, name: 'Initech' },
      is_enterprise_install: true,
    };
  }
  const company = COMPANIES.find((candidate) => candidate.name === call.body.code);
  if (!company || call.body.client_id !== CLIENT_ID) return { ok: false, error: 'invalid_code' };
  return {
    ok: true,
    app_id: IDS.app,
    authed_user: { id: company.installer },
    scope: 'chat:write,app_mentions:read',
    token_type: 'bot',
    access_token: company.botToken,
    bot_user_id: company.botUser,
    team: { id: company.team, name: company.name },
    enterprise: null,
    is_enterprise_install: false,
  };
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

interface Started extends DistributedGateway {
  statePath: string;
  /** Each company's own platform. */
  platforms: Map<Company, Simulator>;
}

/** One gateway on SQLite with no platform account in its environment, Acme and Globex installed. */
async function installedInTwo(env: Record<string, string> = {}): Promise<Started> {
  const platforms = new Map<Company, Simulator>();
  for (const company of COMPANIES) {
    const simulator = await startSimulator({
      accessToken: `fixed-${company.appId}`,
      appId: company.appId,
      appKey: company.appKey,
    });
    stops.push(() => simulator.close());
    platforms.set(company, simulator);
  }
  const statePath = stateFile();
  const [started] = await startDistributed(
    {
      slack: { handlers: { 'oauth.v2.access': oauthAccess } },
      signingSecret: SIGNING_SECRET,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      statePath,
      env: { CS_OPEN_URL: '', CS_ACCESS_TOKEN: '', CS_SYS_NUM: '', ...env },
    },
    stops,
  );
  if (!started) throw new Error('no gateway started');
  for (const company of COMPANIES) await installThroughPages(started.gateway.url, company.name);
  return { ...started, statePath, platforms };
}

function since(slack: FakeSlackApi, mark: number): (call: RecordedCall) => boolean {
  return (call) => slack.calls().indexOf(call) >= mark;
}

function askerOf(company: Company): string {
  return `U0${company.name.toUpperCase()}1`;
}

/** A mention in the company's channel; resolves with the message that ends it (the answer or the notice). */
async function ask(started: Started, company: Company, question: string): Promise<RecordedCall> {
  const { slack, gateway } = started;
  const mark = slack.calls().length;
  const event = eventFromTeam(
    appMention({
      text: `<@${company.botUser}> ${question}`,
      team: company.team,
      user: askerOf(company),
    }),
    company.team,
    company.botUser,
    company.org,
  );
  expect((await sendEvent(gateway.url, SIGNING_SECRET, event)).status).toBe(200);
  // A notice is posted at once; an answer replaces its "Thinking…" line.
  const ended = (call: RecordedCall) => since(slack, mark)(call) && !textOf(call).includes('Thinking');
  const either = await Promise.race(
    ['chat.postMessage', 'chat.update'].map((method) =>
      slack.waitForCall(method, ended, WAIT_MS).catch(() => undefined),
    ),
  );
  if (!either) throw new Error(`${company.name}'s question got no answer and no notice`);
  return either;
}

/** The Home tab as `user` of `company` sees it now. */
async function openHome(started: Started, company: Company, user: string): Promise<RecordedCall> {
  const { slack, gateway } = started;
  const mark = slack.calls().length;
  const opened = { type: 'app_home_opened', user, channel: `D${user}`, tab: 'home', event_ts: nextTs() };
  expect(
    (
      await sendEvent(
        gateway.url,
        SIGNING_SECRET,
        eventFromTeam(opened, company.team, company.botUser, company.org),
      )
    ).status,
  ).toBe(200);
  return slack.waitForCall(
    'views.publish',
    (call) => since(slack, mark)(call) && call.body.user_id === user,
    WAIT_MS,
  );
}

function viewText(call: RecordedCall): string {
  return JSON.stringify(viewOf(call).blocks);
}

/** As Slack posts a payload from the company's workspace. */
function fromTeam<T extends Record<string, unknown>>(payload: T, company: Company, user: string): T {
  const view = payload.view as Record<string, unknown> | undefined;
  return {
    ...payload,
    team: { id: company.team, domain: company.name.toLowerCase() },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: company.team },
    ...(view ? { view: { ...view, team_id: company.team } } : {}),
    ...(company.org
      ? { enterprise: { id: company.org, name: company.name }, is_enterprise_install: true }
      : {}),
  };
}

/** The installer clicks Set up in their Home and submits the form; resolves with the submission's response. */
async function setUp(
  started: Started,
  company: Company,
  typed: {
    url: string;
    sysNum: string;
    appId?: string;
    appKey?: string;
    accessToken?: string;
    robot?: string;
    operators?: string;
    digest?: string;
  },
) {
  const { slack, gateway } = started;
  const home = await openHome(started, company, company.installer);
  const setupButton = buttonsOf({ ...home, body: { blocks: viewOf(home).blocks } }).find(
    (button) => button.actionId === 'workspace_setup_open',
  );
  if (!setupButton) throw new Error(`no set-up button in ${viewText(home)}`);
  const mark = slack.calls().length;
  const click = fromTeam(
    blockActionsPayload({
      user: company.installer,
      actions: [{ action_id: setupButton.actionId, block_id: setupButton.blockId, value: setupButton.value }],
    }) as unknown as Record<string, unknown>,
    company,
    company.installer,
  );
  expect((await sendInteraction(gateway.url, SIGNING_SECRET, click)).status).toBe(200);
  const opened = await slack.waitForCall('views.open', since(slack, mark), WAIT_MS);
  expect(opened.token).toBe(company.botToken);
  const submission = fromTeam(
    viewSubmissionPayload(
      { view: viewOf(opened), id: openedViewId(opened) },
      {
        setup_url: { text: typed.url },
        setup_sys_num: { text: typed.sysNum },
        ...(typed.appId === undefined ? {} : { setup_app_id: { text: typed.appId } }),
        ...(typed.appKey === undefined ? {} : { setup_app_key: { text: typed.appKey } }),
        ...(typed.accessToken === undefined ? {} : { setup_access_token: { text: typed.accessToken } }),
        ...(typed.robot === undefined ? {} : { setup_robot: { text: typed.robot } }),
        ...(typed.operators === undefined
          ? {}
          : { setup_operators: operatorsPicked(viewOf(opened), typed.operators) }),
        ...(typed.digest === undefined ? {} : { setup_digest_channel: { conversation: typed.digest } }),
      },
      company.installer,
    ),
    company,
    company.installer,
  );
  const response = await sendInteraction(gateway.url, SIGNING_SECRET, submission);
  return { ...response, modal: viewOf(opened) };
}

/** Picked from the groups the modal offers where it offers them, else typed. */
function operatorsPicked(modal: Record<string, unknown>, operators: string): InputValue {
  const block = (modal.blocks as Array<{ block_id?: string; element?: { type?: string } }>).find(
    (candidate) => candidate.block_id === 'setup_operators',
  );
  return block?.element?.type === 'static_select' ? { option: operators } : { text: operators };
}

/** The statistics calls this platform was sent. */
/** What its admin types in the set-up: the company's own account on its own platform. */
function accountOf(company: Company, platform: Simulator) {
  return { url: platform.url, sysNum: company.sysNum, appId: company.appId, appKey: company.appKey };
}

function statisticsReads(simulator: Simulator): number {
  return simulator.received.filter((request) =>
    ['wb_session_message', 'wb_human_satisfaction'].includes(
      String((request.body as { action?: unknown } | undefined)?.action),
    ),
  ).length;
}

function feedbacks(simulator: Simulator): unknown[] {
  return simulator.received.filter(
    (request) => (request.body as { action?: unknown } | undefined)?.action === 'robot_feedback',
  );
}

/** What each robot question sent to this platform carried (the open call's `data`). */
function robotAsks(simulator: Simulator): Array<Record<string, unknown>> {
  return simulator.received
    .filter((request) => request.path !== TOKEN_PATH)
    .map((request) => request.body as { action?: unknown; data?: Record<string, unknown> })
    .filter((body) => body.action === 'chat_user_robot_ask')
    .map((body) => body.data ?? {});
}

describe('each workspace its own platform account', () => {
  it('tells a workspace not set up whom to ask, and asks no platform', async () => {
    const started = await installedInTwo();
    const told = await ask(started, ACME, 'How do I reset my password?');
    expect(textOf(told)).toContain('not set up in this workspace yet');
    expect(textOf(told)).toContain(`<@${ACME.installer}>`);
    expect(told.token).toBe(ACME.botToken);
    for (const simulator of started.platforms.values()) expect(robotAsks(simulator)).toEqual([]);

    // The installer sees what to do in the Home; someone else there sees no operator part.
    expect(viewText(await openHome(started, ACME, ACME.installer))).toContain('Not set up yet');
    expect(viewText(await openHome(started, ACME, 'U0ACMEPERSON'))).not.toContain('workspace_setup_open');
  });

  it('answers each workspace from the account its installer set up, and keeps the key sealed', async () => {
    const started = await installedInTwo();
    for (const company of COMPANIES) {
      const platform = started.platforms.get(company);
      if (!platform) throw new Error('no platform');
      const saved = await setUp(started, company, {
        ...accountOf(company, platform),
        // Globex names its default robot; Acme leaves it to the platform.
        ...(company === GLOBEX ? { robot: '7' } : {}),
      });
      expect(saved.status).toBe(200);
      expect(saved.text).toBe('');
      // The Home published again for the installer shows the account.
      const shown = await started.slack.waitForCall(
        'views.publish',
        (call) => call.body.user_id === company.installer && viewText(call).includes(company.sysNum),
        WAIT_MS,
      );
      expect(viewText(shown)).not.toContain(company.appKey);
    }

    const acmeAnswer = await ask(started, ACME, 'How do I reset my password?');
    expect(textOf(acmeAnswer)).not.toContain('not set up');
    const globexAnswer = await ask(started, GLOBEX, 'How do I connect to the VPN?');
    expect(textOf(globexAnswer)).not.toContain('not set up');

    const acmeAsks = robotAsks(started.platforms.get(ACME) as Simulator);
    const globexAsks = robotAsks(started.platforms.get(GLOBEX) as Simulator);
    expect(acmeAsks.map((body) => [body.sysNum, body.question, body.robotFlag])).toEqual([
      ['acme-sys', 'How do I reset my password?', undefined],
    ]);
    expect(globexAsks.map((body) => [body.sysNum, body.question, body.robotFlag])).toEqual([
      ['globex-sys', 'How do I connect to the VPN?', 7],
    ]);

    // Its installer may not edit the entry from Slack: the review loop writes one account's entries.
    const markEdit = started.slack.calls().length;
    const shortcut = fromTeam(
      messageShortcutPayload({
        user: ACME.installer,
        channel: String(acmeAnswer.body.channel),
        message: { ts: String(acmeAnswer.body.ts), user: ACME.botUser, blocks: blocksOf(acmeAnswer) },
      }),
      ACME,
      ACME.installer,
    );
    expect((await sendInteraction(started.gateway.url, SIGNING_SECRET, shortcut)).status).toBe(200);
    const refusedEdit = await started.slack.waitForCall(
      'chat.postEphemeral',
      since(started.slack, markEdit),
      WAIT_MS,
    );
    expect(textOf(refusedEdit)).toContain("change this one in the platform's console");
    expect(started.slack.calls('views.open').filter(since(started.slack, markEdit))).toEqual([]);

    // Rated in Acme: the feedback goes to Acme's platform, none to Globex's.
    const up = buttonOf(acmeAnswer, 'rate_up');
    const rating = fromTeam(
      blockActionsPayload({
        user: askerOf(ACME),
        channel: String(acmeAnswer.body.channel),
        message: { ts: String(acmeAnswer.body.ts), blocks: blocksOf(acmeAnswer) },
        actions: [{ action_id: up.actionId, block_id: up.blockId, value: up.value, text: up.text }],
      }) as unknown as Record<string, unknown>,
      ACME,
      askerOf(ACME),
    );
    expect((await sendInteraction(started.gateway.url, SIGNING_SECRET, rating)).status).toBe(200);
    await waitFor(() => feedbacks(started.platforms.get(ACME) as Simulator).length === 1, {
      timeoutMs: WAIT_MS,
    });
    expect(feedbacks(started.platforms.get(GLOBEX) as Simulator)).toEqual([]);

    // Neither the app key nor a platform token is in the SQLite files in clear.
    const directory = dirname(started.statePath);
    const files = readdirSync(directory).filter((name) => name.startsWith(basename(started.statePath)));
    const tokens = [ACME, GLOBEX].flatMap((company) => [company.appKey]);
    for (const name of files) {
      const bytes = readFileSync(join(directory, name)).toString('latin1');
      for (const secret of tokens) expect(bytes).not.toContain(secret);
      expect(bytes).not.toContain('acme-sys');
    }
  });

  it("forgets a workspace's account when the app is uninstalled there", async () => {
    const started = await installedInTwo();
    const platform = started.platforms.get(ACME) as Simulator;
    const saved = await setUp(started, ACME, accountOf(ACME, platform));
    expect(saved.text).toBe('');
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).not.toContain('not set up');

    const uninstalled = {
      ...eventFromTeam({ type: 'app_uninstalled' }, ACME.team, ACME.botUser),
      // Sent after the install it removes.
      event_time: Math.floor(Date.now() / 1000) + 1,
    };
    expect((await sendEvent(started.gateway.url, SIGNING_SECRET, uninstalled)).status).toBe(200);
    await waitFor(() => started.gateway.logs.some((line) => line.msg === 'workspace data removed'), {
      timeoutMs: WAIT_MS,
    });
    await installThroughPages(started.gateway.url, ACME.name);
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');
  });

  it("reads the operators' figures and statistics from the workspace's own account", async () => {
    const started = await installedInTwo();
    const acme = started.platforms.get(ACME) as Simulator;
    const globex = started.platforms.get(GLOBEX) as Simulator;
    const stats = async () => {
      const mark = started.slack.calls().length;
      const typed = await sendSlashCommand(started.gateway.url, SIGNING_SECRET, {
        command: '/cs',
        text: 'stats',
        user_id: ACME.installer,
        team_id: ACME.team,
        channel_id: 'C0ACMEOPS',
        response_url: started.slack.responseUrl(`stats-${mark}`),
      });
      expect(typed.status).toBe(200);
      const shown = await started.slack.waitForCall(
        'response_url',
        (call) => since(started.slack, mark)(call) && !textOf(call).includes('Reading'),
        WAIT_MS,
      );
      return textOf(shown);
    };
    expect(await stats()).toContain('not set up yet');
    expect(statisticsReads(acme)).toBe(0);

    const saved = await setUp(started, ACME, accountOf(ACME, acme));
    expect(saved.text).toBe('');
    // The Home published after saving read its figures from Acme's platform.
    await waitFor(() => statisticsReads(acme) > 0, { timeoutMs: WAIT_MS });
    const before = statisticsReads(acme);
    expect(await stats()).not.toContain('not set up');
    expect(statisticsReads(acme)).toBeGreaterThan(before);
    expect(statisticsReads(globex)).toBe(0);
  });

  it("makes the members of the group a set-up names that workspace's operators", async () => {
    const started = await installedInTwo();
    const platform = started.platforms.get(ACME) as Simulator;
    started.slack.setUsergroup('S0ACMEOPS', ['U0ACMEOPERATOR']);
    const member = () => openHome(started, ACME, 'U0ACMEOPERATOR').then(viewText);
    expect(await member()).not.toContain('workspace_setup_open');

    const invalid = await setUp(started, ACME, {
      ...accountOf(ACME, platform),
      operators: '@acme-ops',
    });
    expect(JSON.parse(invalid.text)).toMatchObject({
      errors: { setup_operators: expect.stringContaining('starts with S') },
    });
    // Slack lists the group, so the form offers it by its handle rather than asking for its id.
    const offered = JSON.stringify(invalid.modal);
    expect(offered).toContain('"static_select"');
    expect(offered).toContain('"value":"S0ACMEOPS"');
    const saved = await setUp(started, ACME, {
      ...accountOf(ACME, platform),
      operators: 'S0ACMEOPS',
    });
    expect(saved.text).toBe('');
    const home = await member();
    expect(home).toContain('workspace_setup_open');
    expect(home).toContain('<!subteam^S0ACMEOPS>');
    // Only in Acme: the group is Acme's, and Globex has no set-up naming it.
    expect(viewText(await openHome(started, GLOBEX, 'U0ACMEOPERATOR'))).not.toContain('workspace_setup_open');
  });

  it("posts each workspace's digest where its set-up says, from its own platform, with its own token", async () => {
    const started = await installedInTwo({ DIGEST_SCHEDULE: '* * * * * *' });
    const { slack } = started;
    const acme = started.platforms.get(ACME) as Simulator;
    const globex = started.platforms.get(GLOBEX) as Simulator;
    const digests = (channel: string) =>
      slack.calls('chat.postMessage').filter((call) => call.body.channel === channel);
    const acmeSaved = await setUp(started, ACME, { ...accountOf(ACME, acme), digest: 'C0ACMEDIGEST' });
    expect(acmeSaved.text).toBe('');
    expect(JSON.stringify(acmeSaved.modal)).toContain('"conversations_select"');
    expect((await setUp(started, GLOBEX, { ...accountOf(GLOBEX, globex), digest: 'C0GXDIGEST' })).text).toBe(
      '',
    );
    await waitFor(() => digests('C0ACMEDIGEST').length > 0 && digests('C0GXDIGEST').length > 0, {
      timeoutMs: WAIT_MS,
      message: () => `${digests('C0ACMEDIGEST').length} and ${digests('C0GXDIGEST').length} digests`,
    });
    const [acmeDigest] = digests('C0ACMEDIGEST');
    const [globexDigest] = digests('C0GXDIGEST');
    expect(acmeDigest?.token).toBe(ACME.botToken);
    expect(globexDigest?.token).toBe(GLOBEX.botToken);
    expect(textOf(acmeDigest as RecordedCall)).toContain('Total messages');
    expect(statisticsReads(acme)).toBeGreaterThan(0);
    expect(statisticsReads(globex)).toBeGreaterThan(0);
    expect(viewText(await openHome(started, ACME, ACME.installer))).toContain('<#C0ACMEDIGEST>');

    // Globex names no channel any more: its digest stops (a tick already under way may still post).
    expect((await setUp(started, GLOBEX, accountOf(GLOBEX, globex))).text).toBe('');
    const globexBefore = digests('C0GXDIGEST').length;
    const acmeBefore = digests('C0ACMEDIGEST').length;
    await waitFor(() => digests('C0ACMEDIGEST').length >= acmeBefore + 3, { timeoutMs: WAIT_MS * 2 });
    expect(digests('C0GXDIGEST').length).toBeLessThanOrEqual(globexBefore + 1);
  });

  it('sets an org-wide install up once, for every workspace of the org', async () => {
    const started = await installedInTwo();
    await installThroughPages(started.gateway.url, 'Initech');
    const initech = await startSimulator({
      accessToken: 'fixed-initech',
      appId: INITECH_ONE.appId,
      appKey: INITECH_ONE.appKey,
    });
    stops.push(() => initech.close());
    expect(textOf(await ask(started, INITECH_TWO, 'How do I reset my password?'))).toContain(
      `<@${INITECH_ONE.installer}>`,
    );

    const saved = await setUp(started, INITECH_ONE, accountOf(INITECH_ONE, initech));
    expect(saved.text).toBe('');
    for (const [workspace, question] of [
      [INITECH_ONE, 'How do I connect to the VPN?'],
      [INITECH_TWO, 'How do I request annual leave?'],
    ] as const) {
      const answer = await ask(started, workspace, question);
      expect(textOf(answer)).not.toContain('not set up');
      expect(answer.token).toBe(INITECH.token);
    }
    expect(robotAsks(initech).map((body) => [body.sysNum, body.question])).toEqual([
      ['initech-sys', 'How do I connect to the VPN?'],
      ['initech-sys', 'How do I request annual leave?'],
    ]);
    // Acme is not in the org: still not set up.
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');
  });

  it('refuses an app key the platform refuses, and saves nothing', async () => {
    const started = await installedInTwo();
    const platform = started.platforms.get(ACME) as Simulator;
    const refused = await setUp(started, ACME, {
      url: platform.url,
      sysNum: ACME.sysNum,
      appId: ACME.appId,
      appKey: 'not-the-key',
    });
    expect(refused.status).toBe(200);
    const body = JSON.parse(refused.text) as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors.setup_app_key).toContain('refused');

    const unreachable = await setUp(started, ACME, {
      url: 'http://127.0.0.1:9',
      sysNum: ACME.sysNum,
      appId: ACME.appId,
      appKey: ACME.appKey,
    });
    const unreachableBody = JSON.parse(unreachable.text) as { errors: Record<string, string> };
    expect(unreachableBody.errors.setup_url).toContain('could not be reached');

    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');
  });

  it('checks a fixed access token with the platform before keeping it', async () => {
    const started = await installedInTwo();
    const platform = started.platforms.get(ACME) as Simulator;
    const refused = await setUp(started, ACME, {
      url: platform.url,
      sysNum: ACME.sysNum,
      accessToken: 'not-the-token',
    });
    const body = JSON.parse(refused.text) as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors.setup_access_token).toContain('refused this access token');
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');

    const saved = await setUp(started, ACME, {
      url: platform.url,
      sysNum: ACME.sysNum,
      accessToken: `fixed-${ACME.appId}`,
    });
    expect(saved.text).toBe('');
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('password portal');
    expect(robotAsks(platform).map((ask) => ask.sysNum)).toEqual([ACME.sysNum]);
  });

  it('lets only the installer (an operator) save a set-up', async () => {
    const started = await installedInTwo();
    const platform = started.platforms.get(ACME) as Simulator;
    // Globex's installer is nobody in Acme: a submission of theirs from Acme is refused.
    const intruder = { ...ACME, installer: GLOBEX.installer };
    const home = await openHome(started, ACME, GLOBEX.installer);
    expect(viewText(home)).not.toContain('workspace_setup_open');
    const opened = { view: { type: 'modal', callback_id: 'workspace_setup', blocks: [] }, id: 'V1' };
    const submission = fromTeam(
      viewSubmissionPayload(opened, {}, intruder.installer),
      ACME,
      intruder.installer,
    );
    const state = {
      setup_url: { setup_url: { type: 'plain_text_input', value: platform.url } },
      setup_sys_num: { setup_sys_num: { type: 'plain_text_input', value: 'stolen' } },
      setup_app_id: { setup_app_id: { type: 'plain_text_input', value: ACME.appId } },
      setup_app_key: { setup_app_key: { type: 'plain_text_input', value: ACME.appKey } },
    };
    const view = submission.view as Record<string, unknown>;
    const refused = await sendInteraction(started.gateway.url, SIGNING_SECRET, {
      ...submission,
      view: { ...view, state: { values: state } },
    });
    expect(JSON.parse(refused.text)).toMatchObject({ response_action: 'errors' });
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');
  });
});
