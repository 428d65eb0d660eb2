// Two companies installing the app in their workspaces (Acme, Globex), and an org (Initech), each with a
// platform of its own: the install, what their people do in Slack, and what each platform was sent.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { TOKEN_PATH } from '../../src/platform/schemas.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type DistributedGateway, startDistributed } from './distributed-gateways.js';
import type { FakeSlackApi, RecordedCall } from './fake-slack-api.js';
import { buttonsOf, textOf } from './gateway-harness.js';
import { installThroughPages } from './install-pages.js';
import { type InputValue, openedViewId, viewOf, viewSubmissionPayload } from './review-payloads.js';
import { appMention, blockActionsPayload, eventFromTeam, IDS, nextTs } from './slack-payloads.js';
import { sendEvent, sendInteraction } from './slack-signing.js';
import { tempStateFiles } from './temp-state-files.js';

export const SIGNING_SECRET = 'companies-test-signing-secret';
const CLIENT_ID = '3333.4444';
const CLIENT_SECRET = 'client-secret-for-the-companies-tests';
export const WAIT_MS = 5_000;

export interface Company {
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

export const ACME: Company = {
  team: 'T0ACME',
  name: 'Acme',
  installer: 'U0ACMEADMIN',
  botUser: 'U0ACMEBOT',
  botToken: `xoxb-acme-${randomBytes(6).toString('hex')}`,
  sysNum: 'acme-sys',
  appId: 'acme-app',
  appKey: `acme-key-${randomBytes(8).toString('hex')}`,
};
export const GLOBEX: Company = {
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
export const INITECH = { id: 'E0INITECH', token: `xoxb-initech-${randomBytes(6).toString('hex')}` };
export const INITECH_ONE: Company = {
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
export const INITECH_TWO: Company = { ...INITECH_ONE, team: 'T0INITWO' };
export const COMPANIES = [ACME, GLOBEX];

const stateFile = tempStateFiles('companies-test-');

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

export interface Started extends DistributedGateway {
  statePath: string;
  /** Each company's own platform. */
  platforms: Map<Company, Simulator>;
}

/**
 * One gateway on SQLite with no platform account in its environment, Acme and Globex installed, each
 * company with a platform of its own; pushes onto `stops` what stops them.
 */
export async function installedInTwo(
  stops: Array<() => Promise<void>>,
  env: Record<string, string> = {},
): Promise<Started> {
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

export function since(slack: FakeSlackApi, mark: number): (call: RecordedCall) => boolean {
  return (call) => slack.calls().indexOf(call) >= mark;
}

export function askerOf(company: Company): string {
  return `U0${company.name.toUpperCase()}1`;
}

/** A mention in the company's channel; resolves with the message that ends it (the answer or the notice). */
export async function ask(started: Started, company: Company, question: string): Promise<RecordedCall> {
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
export async function openHome(started: Started, company: Company, user: string): Promise<RecordedCall> {
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

export function viewText(call: RecordedCall): string {
  return JSON.stringify(viewOf(call).blocks);
}

/** As Slack posts a payload from the company's workspace. */
export function fromTeam<T extends Record<string, unknown>>(payload: T, company: Company, user: string): T {
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
export async function setUp(
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
    review?: string;
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
        ...(typed.review === undefined ? {} : { setup_review_channel: { conversation: typed.review } }),
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

/** What its admin types in the set-up: the company's own account on its own platform. */
export function accountOf(company: Company, platform: Simulator) {
  return { url: platform.url, sysNum: company.sysNum, appId: company.appId, appKey: company.appKey };
}

export function statisticsReads(simulator: Simulator): number {
  return simulator.received.filter((request) =>
    ['wb_session_message', 'wb_human_satisfaction'].includes(
      String((request.body as { action?: unknown } | undefined)?.action),
    ),
  ).length;
}

export function feedbacks(simulator: Simulator): unknown[] {
  return simulator.received.filter(
    (request) => (request.body as { action?: unknown } | undefined)?.action === 'robot_feedback',
  );
}

/** What each robot question sent to this platform carried (the open call's `data`). */
export function robotAsks(simulator: Simulator): Array<Record<string, unknown>> {
  return simulator.received
    .filter((request) => request.path !== TOKEN_PATH)
    .map((request) => request.body as { action?: unknown; data?: Record<string, unknown> })
    .filter((body) => body.action === 'chat_user_robot_ask')
    .map((body) => body.data ?? {});
}
