// The whole playground: the platform simulator, the stand-in for Slack and its page, and the real
// gateway in HTTP mode pointed at both, all on 127.0.0.1. Used by `npm run demo` and the browser tests.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createGateway, type Gateway } from '../src/app.js';
import { parseEnv } from '../src/config/env.js';
import type { Logger } from '../src/logging/logger.js';
import {
  DEFAULT_SIMULATOR_TOKEN,
  type Fault,
  SERVICE_GROUPS,
  type Simulator,
  startSimulator,
} from '../src/simulator/index.js';
import { writeChannelSettings } from '../src/stores/sqlite.js';
import { writeDemoRatings } from './demo-ratings.js';
import { postDigestNow } from './digest-control.js';
import { GatewayRequests } from './gateway-requests.js';
import { startGlobexPlatform } from './globex-platform.js';
import { type InstallRoutes, installRoutes } from './install-routes.js';
import { buildPageAssets } from './page.js';
import { type FaultKind, WORKSPACE_PARAM } from './protocol.js';
import { startPlaygroundServer } from './server.js';
import { SlackOAuthStandIn } from './slack-stand-in/oauth.js';
import { SlackStandIn } from './slack-stand-in/web-api.js';
import type { PlaygroundSpace } from './space.js';
import {
  ACME,
  APP,
  GLOBEX,
  IT_HELP_CHANNEL,
  IT_ONCALL_GROUP,
  PERSONAS,
  PERSONAS_TIME_ZONE,
  REVIEW_CHANNEL,
  Workspace,
} from './workspace.js';

export interface PlaygroundOptions {
  /** The page's port; 0 for any free one. */
  port: number;
  logger: Logger;
  /** Variables for the gateway over the playground's own (e.g. DEFAULT_LOCALE). */
  gatewayEnv?: Record<string, string>;
  /**
   * Distributed: the gateway installs through OAuth instead of one bot token; Acme is installed at start,
   * and Globex, with a platform of its own, can be installed from the page.
   */
  workspaces?: boolean | undefined;
}

export interface Playground {
  /** The page: open it in a browser. */
  url: string;
  simulator: Simulator;
  gateway: Gateway;
  close(): Promise<void>;
}

/** What each switch on the page does to the simulator: every platform call fails, or hangs past the timeout. */
const FAULTS: Record<Exclude<FaultKind, 'none'>, Fault> = {
  http500: { kind: 'http500' },
  slow: { kind: 'delay', ms: 6_000 },
  malformed: { kind: 'malformed' },
};

export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const assets = await buildPageAssets();
    const simulator = await startSimulator({
      accessToken: DEFAULT_SIMULATOR_TOKEN,
      host: '127.0.0.1',
      port: 0,
    });
    closers.push(() => simulator.close());

    const distributed = options.workspaces === true;
    const botToken = `xoxb-playground-${randomBytes(8).toString('hex')}`;
    const signingSecret = randomBytes(16).toString('hex');
    const slashCommand = '/cs';
    let origin = '';
    let gatewayUrl = '';
    const companies = distributed ? [ACME, GLOBEX] : [ACME];
    const requestsOf = new Map<string, GatewayRequests>();
    const spaces = companies.map((company): PlaygroundSpace => {
      const workspace = new Workspace(slashCommand, company);
      const standIn = new SlackStandIn(workspace, {
        // Distributed, the server checks each token against those oauth.v2.access issued.
        botToken: distributed ? undefined : botToken,
        origin: () => origin,
        webUrl: () => company.url,
      });
      return { workspace, standIn, requests: () => requestsOf.get(company.team.id) };
    });
    const [acme] = spaces;
    if (!acme) throw new Error('the playground has no workspace');
    const oauthApp = {
      clientId: `${randomBytes(4).toString('hex')}.${randomBytes(4).toString('hex')}`,
      clientSecret: randomBytes(16).toString('hex'),
      appId: APP.id,
      botUserId: APP.userId,
      scopes: ['app_mentions:read', 'chat:write', 'im:history', 'channels:history'],
    };
    const oauth = new SlackOAuthStandIn(oauthApp);
    const routes = distributed ? installRoutes({ oauth, spaces, gatewayUrl: () => gatewayUrl }) : undefined;
    const globex = distributed ? await startGlobexPlatform() : undefined;
    if (globex) closers.push(() => globex.simulator.close());
    let running: Gateway | undefined;
    const server = await startPlaygroundServer({
      spaces: [acme, ...spaces.slice(1)],
      distributed: routes,
      assets,
      port: options.port,
      setFault: (kind, space) => {
        const platform = space.workspace.company === GLOBEX && globex ? globex.simulator : simulator;
        if (kind === 'none') platform.faults.clear();
        else platform.faults.set(FAULTS[kind]);
      },
      postDigest: async (space) =>
        running ? postDigestNow(running, space) : { ok: false, error: 'the gateway is still starting' },
    });
    origin = server.origin;
    closers.push(() => server.close());

    const statePath = await demoState();
    const removeState = () => rmSync(dirname(statePath), { recursive: true, force: true });
    // Also on an exit that skips close (process.exit, an uncaught error): the folder never outlives the demo.
    process.once('exit', removeState);
    closers.push(async () => {
      process.off('exit', removeState);
      removeState();
    });
    const parsed = parseEnv({
      ...(distributed
        ? {
            SLACK_CLIENT_ID: oauthApp.clientId,
            SLACK_CLIENT_SECRET: oauthApp.clientSecret,
            SLACK_STATE_SECRET: randomBytes(16).toString('hex'),
            SLACK_INSTALLATION_KEY: randomBytes(32).toString('base64'),
          }
        : { SLACK_BOT_TOKEN: botToken }),
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: `${origin}/api/`,
      HOST: '127.0.0.1',
      PORT: '0',
      CS_OPEN_URL: simulator.url,
      CS_SYS_NUM: 'demo',
      CS_ACCESS_TOKEN: DEFAULT_SIMULATOR_TOKEN,
      CS_HEADERS_TIMEOUT_MS: '4000',
      CS_BODY_TIMEOUT_MS: '4000',
      CS_RETRY_ATTEMPTS: '0',
      // The stand-in answers at once; a refusal is shown on the page rather than retried.
      SLACK_WEB_API_RETRIES: '0',
      SLASH_COMMAND: slashCommand,
      OPERATOR_USER_IDS: PERSONAS.filter((persona) => persona.operator)
        .map((persona) => persona.id)
        .join(','),
      // A channel is one workspace's: installed in many, each workspace names its review channel and
      // its digest's in its Home set-up instead.
      DIGEST_SCHEDULE: '0 9 * * 1',
      // The platform's days, as the charts' counts must be (docs/decisions/023): a rating lands on today.
      DIGEST_TIME_ZONE: PERSONAS_TIME_ZONE,
      ...(distributed ? {} : { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, DIGEST_CHANNEL_ID: REVIEW_CHANNEL }),
      // The platform cannot list its groups: the demo names the simulator's, for /cs agents.
      AGENT_GROUPS: SERVICE_GROUPS.map((group) => `${group.groupId}=${group.groupName}`).join(','),
      SHUTDOWN_GRACE_SECONDS: '2',
      // The playground is a demo: every start begins from the same state, in a file of its own.
      STATE_PATH: statePath,
      ...options.gatewayEnv,
    });
    if (!parsed.ok) throw new Error(`playground gateway settings invalid: ${parsed.problems.join('; ')}`);
    await writeDemoRatings(statePath, {
      workspaces: companies.map((company) => company.team.id),
      timeZone: parsed.env.DIGEST_TIME_ZONE,
    });
    const gateway = await createGateway(parsed.env, options.logger);
    closers.push(() => gateway.stop());
    const { port } = await gateway.start();
    running = gateway;
    gatewayUrl = `http://127.0.0.1:${port}`;
    for (const { workspace, standIn } of spaces) {
      const teamId = workspace.company.team.id;
      workspace.answersOf = (channelId) => {
        const { answer, askers } = gateway.answersOnItsOwn(teamId, channelId);
        return { answers: answer, askers };
      };
      requestsOf.set(teamId, new GatewayRequests({ gatewayUrl, signingSecret, workspace, standIn }));
    }
    if (routes) {
      for (const { workspace } of spaces) {
        workspace.installed = false;
        workspace.distributedView = () => ({
          workspaces: spaces.map((space) => ({
            id: space.workspace.company.team.id,
            name: space.workspace.company.team.name,
            installed: space.workspace.installed,
          })),
          installed: workspace.installed,
          account: workspace.company === GLOBEX ? globex?.account : undefined,
        });
      }
      await installAtStart(routes, acme);
    }
    return { url: `${origin}/`, simulator, gateway, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Acme is installed as its admin would install it, through the gateway's install routes. */
async function installAtStart(routes: InstallRoutes, space: PlaygroundSpace): Promise<void> {
  const team = `${WORKSPACE_PARAM}=${space.workspace.company.team.id}`;
  const install = await routes.page(new URL(`http://playground/slack/install?${team}`), undefined);
  const cookie = install?.setCookie.map((set) => set.split(';')[0]).join('; ');
  const allow = /href="([^"]*\/oauth\/v2\/authorize\?[^"]+)"/.exec(install?.body ?? '')?.[1];
  const authorize = new URL((allow ?? '').replaceAll('&amp;', '&'), 'http://playground');
  const allowed = await routes.page(
    new URL(`http://playground/oauth/v2/authorize/allow${authorize.search}`),
    cookie,
  );
  const back = await routes.page(new URL(allowed?.location ?? '/', 'http://playground'), cookie);
  if (back?.status !== 200)
    throw new Error(`Acme was not installed: ${back?.body.slice(0, 300) ?? 'no page'}`);
}

/** The demo's state folders are named with the process that made them: `playground-state-<pid>-…`. */
const STATE_PREFIX = 'playground-state-';
const STATE_FOLDER = /^playground-state-(\d+)-/;

/** Removes the state folders of demos that were killed before they could (their process is gone). */
function removeLeftoverStates(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = STATE_FOLDER.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as someone else.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * A fresh state file holding #it-help's settings, as an operator would set them with `/cs channel`:
 * IT's robot (2), answering questions on its own, calling the on-call group when it cannot help.
 */
async function demoState(): Promise<string> {
  removeLeftoverStates();
  const path = join(mkdtempSync(join(tmpdir(), `${STATE_PREFIX}${process.pid}-`)), 'gateway.sqlite');
  await writeChannelSettings(
    path,
    {
      [IT_HELP_CHANNEL]: {
        robot: 2,
        answer: 'questions',
        escalate: { users: [], groups: [IT_ONCALL_GROUP.id] },
      },
    },
    PERSONAS.find((persona) => persona.operator)?.id ?? 'U0PLAYGROUND',
  );
  return path;
}
