// The Slack side composed: everything posts through the Web API connection opened first, not Bolt's app.
import { webApi } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Env, SlackInstall } from '../config/env.js';
import { errorFields } from '../logging/error-fields.js';
import type { Logger } from '../logging/logger.js';
import { meteredNameCache } from '../observability/metered-stores.js';
import type { Metrics } from '../observability/metrics.js';
import type { PlatformClient } from '../platform/index.js';
import type { ReviewBoard } from '../review/review-cards.js';
import type { AgentGroup } from '../service-desk/agent-groups.js';
import { ChannelDirectory } from '../slack/channels/directory.js';
import type { QuestionLimits } from '../slack/handling/question-limits.js';
import { UserDirectory } from '../slack/handling/user-directory.js';
import { Installations, NotInstalledError } from '../slack/install/installations.js';
import { createInstaller } from '../slack/install/installer.js';
import { OrgWorkspaces, workspaceAccessSchema } from '../slack/install/org-workspaces.js';
import { ROTATION_LOCK_SECONDS } from '../slack/install/rotation.js';
import { WorkspaceSetups } from '../slack/install/workspace-setups.js';
import type { WorkspaceSetupSources } from '../slack/kit/room-kit.js';
import { type BoardPlace, type ReviewPlaces, SlackReviewBoard } from '../slack/review/review-board.js';
import { boltLogger } from '../slack/transport/bolt-logger.js';
import { guardOutgoingCalls } from '../slack/transport/outgoing.js';
import { SlackRateLimits } from '../slack/transport/rate-limits.js';
import { Responder } from '../slack/transport/responder.js';
import { createSlackApp, type SlackApp, type SlackAuth } from '../slack/transport/slack-app.js';
import type { SlackWebApi } from '../slack/transport/web-api.js';
import { claimsOnly } from '../stores/namespace.js';
import { Sealer } from '../stores/sealing.js';
import type { Stores } from '../stores/stores.js';
import type { Core } from './core.js';
import type { DeskPlatform } from './platform-accounts.js';
import { createRoomKit, type SlackRoomKit } from './room-kit.js';

/** Slack's 429s, waited out per method and channel (or workspace) for every call: made before the Web API. */
export function slackRateLimits(env: Env, deps: { metrics: Metrics; logger: Logger }): SlackRateLimits {
  return new SlackRateLimits({
    giveUpAfterMs: env.QUESTION_DEADLINE_SECONDS * 1000,
    onOutcome: (method, outcome) => deps.metrics.slackRateLimited(method, outcome),
    logger: deps.logger.child({ component: 'slack' }),
  });
}

export function slackServices(
  env: Env,
  deps: {
    webApi: SlackWebApi;
    rateLimits: SlackRateLimits;
    stores: Stores;
    metrics: Metrics;
    logger: Logger;
    authorized: Pick<SlackAuthorization, 'setups' | 'botTokenOf'>;
  },
) {
  const { metrics } = deps;
  const responder = new Responder((method, error) => metrics.slackApiError(method, error), deps.rateLimits);
  const users = new UserDirectory(meteredNameCache(deps.stores.names, metrics), env.DEFAULT_LOCALE);
  const boardLogger = deps.logger.child({ component: 'review' });
  const board = (place: BoardPlace) =>
    new SlackReviewBoard({
      place,
      responder,
      users,
      logger: boardLogger,
      settings: { showAsker: env.REVIEW_SHOW_ASKER, locale: env.DEFAULT_LOCALE },
    });
  return { responder, users, review: reviewPlaces(env, deps.webApi, deps.authorized, board) };
}

function reviewPlaces(
  env: Env,
  webApi: SlackWebApi,
  { setups, botTokenOf }: Pick<SlackAuthorization, 'setups' | 'botTokenOf'>,
  board: (place: BoardPlace) => ReviewBoard,
): ReviewPlaces {
  if (!setups || !botTokenOf) {
    const place = { client: webApi.client, channelId: env.REVIEW_CHANNEL_ID };
    return { kind: 'one', board: board(async () => place), cardsEnabled: place.channelId !== undefined };
  }
  // A channel is one workspace's: each names its own (REVIEW_CHANNEL_ID is refused in this mode).
  const clients = workspaceClients(botTokenOf, webApi.clientOptions);
  const channelOf = async (workspace: string) => (await setups.get(workspace))?.reviewChannelId;
  return {
    kind: 'each',
    channelOf,
    boardOf: (workspace) =>
      board(async () => ({ client: await clients(workspace), channelId: await channelOf(workspace) })),
  };
}

/** Bot tokens whose client is kept: a workspace idle past it makes a new one at its next post. */
const WORKSPACE_CLIENTS = 1_000;

/** A workspace's own client for what is posted outside a request, on the app's pool and retry policy. */
function workspaceClients(
  botTokenOf: (workspace: string) => Promise<string | undefined>,
  clientOptions: webApi.WebClientOptions,
): (workspace: string) => Promise<webApi.WebClient> {
  const clients = new LRUCache<string, webApi.WebClient>({ max: WORKSPACE_CLIENTS });
  return async (workspace) => {
    const token = await botTokenOf(workspace);
    if (token === undefined) throw new NotInstalledError(`no installation for ${workspace}`);
    const known = clients.get(token);
    if (known) return known;
    const client = guardOutgoingCalls(new webApi.WebClient(token, { ...clientOptions }));
    clients.set(token, client);
    return client;
  };
}

export interface SlackSide {
  slack: SlackApp;
  kit: SlackRoomKit;
  channels: ChannelDirectory;
}

export async function composeSlack(
  env: Env,
  deps: {
    core: Core;
    services: ReturnType<typeof slackServices>;
    webApi: SlackWebApi;
    platform: PlatformClient;
    agentGroups: readonly AgentGroup[];
    stores: Stores;
    metrics: Metrics;
    /** USER_QUESTION_LIMIT and CHANNEL_QUESTION_LIMIT's counts. */
    limits: QuestionLimits;
    /** Each workspace's platform for the operators' desk and Home figures. */
    platformOf: (workspace: string) => DeskPlatform;
    /** How each request is authorized: `slackAuth`'s, made before the core. */
    authorized: SlackAuthorization;
    /** Installed in many workspaces: where each sets up its own platform account. */
    setups: WorkspaceSetupSources | undefined;
    logger: Logger;
    /** False once stopping. */
    running: () => boolean;
  },
): Promise<SlackSide> {
  const { core, services, platform, stores, metrics, logger } = deps;
  const channels = new ChannelDirectory(stores.channelSettings, {
    defaults: {
      // Installed in many workspaces, each workspace's account names its default robot instead.
      robotFlag: env.slack.install.kind === 'workspace' ? env.CS_ROBOT_FLAG : undefined,
      source: env.CS_SOURCE,
      language: 'auto',
      reply: 'thread',
    },
    logger: logger.child({ component: 'channels' }),
  });
  // A channel's settings apply from the first message on.
  await channels.start();
  const { auth, installations, orgWorkspaces, setups, botTokenOf } = deps.authorized;
  const kit = createRoomKit(env, {
    conversation: core.conversation,
    review: core.review,
    responder: services.responder,
    users: services.users,
    channels,
    stores,
    sources: {
      platform,
      platformOf: deps.platformOf,
      agentGroups: deps.agentGroups,
      stores,
      metrics,
      client: () => deps.webApi.client,
      workspace: deps.webApi.identity?.workspace,
      installations,
      ...(installations && { forgetWorkspace: workspaceForgetter(stores, channels, setups) }),
      setups: deps.setups,
      orgWorkspaces,
      botTokenOf,
    },
    settings: {
      slashCommand: env.SLASH_COMMAND,
      appUserId: deps.webApi.identity?.botUserId,
      workingLineDelayMs: env.WORKING_LINE_DELAY_MS,
    },
    metrics,
    limits: deps.limits,
    logger: logger.child({ component: 'gateway' }),
  });
  const slack = await createSlackApp({
    connection: env.slack,
    auth,
    webApi: deps.webApi,
    port: env.PORT,
    host: env.HOST,
    socketMode: {
      ...(env.SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS === undefined
        ? {}
        : { clientPingTimeoutMs: env.SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS }),
      ...(env.SLACK_SOCKET_SERVER_PING_TIMEOUT_MS === undefined
        ? {}
        : { serverPingTimeoutMs: env.SLACK_SOCKET_SERVER_PING_TIMEOUT_MS }),
    },
    kit,
    logger,
    metrics,
    health: {
      alive: () => deps.running(),
      ready: async () => deps.running() && (await stores.ping()),
    },
  });
  return { slack, kit, channels };
}

/** What is stored of a workspace, then this process's copy of its channels' settings. */
function workspaceForgetter(stores: Stores, channels: ChannelDirectory, setups: WorkspaceSetups | undefined) {
  return async (workspace: string): Promise<number> => {
    const forgotten = await stores.forgetWorkspace(workspace);
    await channels.forget(workspace);
    await setups?.delete(workspace);
    return forgotten;
  };
}

export interface SlackAuthorization {
  auth: SlackAuth;
  installations?: Installations;
  orgWorkspaces?: OrgWorkspaces;
  /** Each workspace's own set-up (its platform account); only when installed in many. */
  setups?: WorkspaceSetups;
  /** Seals what is kept of a workspace's secrets; only when installed in many. */
  sealer?: Sealer;
  /** A workspace's bot token for a post outside any request; only when installed in many. */
  botTokenOf?: (workspace: string) => Promise<string | undefined>;
}

/** One workspace's token, or each workspace's from its sealed installation, with the install pages. */
export async function slackAuth(
  install: SlackInstall,
  deps: { webApi: SlackWebApi; stores: Stores; metrics: Metrics; logger: Logger },
): Promise<SlackAuthorization> {
  if (install.kind === 'workspace') return { auth: { kind: 'token', botToken: install.botToken } };
  const sealer = Sealer.fromBase64(install.installationKey);
  // The environment's check let it through: reaching this is a bug, not a setting.
  if (!sealer) throw new Error('SLACK_INSTALLATION_KEY did not read as a key');
  const { stores, logger } = deps;
  // An installation lasts until the app is removed: the longest a namespace keeps anything.
  const values = stores.namespace('installations', {
    schema: z.string(),
    ttlSeconds: INSTALLATION_TTL_SECONDS,
  });
  const { changes } = stores;
  // Undefined without a store the replicas share.
  const tell = (topic: string): ((key: string) => Promise<void>) | undefined => {
    if (!changes) return undefined;
    return (key) =>
      changes.publish(topic, key).catch((error: unknown) => {
        logger.warn(
          { ...errorFields(error), workspace: key, topic },
          'other replicas not told of an installation change; they see it within a minute',
        );
      });
  };
  const listen = (topic: string, forget: (key: string) => void): Promise<void> | undefined =>
    changes?.subscribe(topic, forget).catch((error: unknown) => {
      logger.warn(
        { ...errorFields(error), topic },
        "not listening for other replicas' installation changes; this one sees them within a minute",
      );
    });
  const orgWorkspaces = new OrgWorkspaces(
    stores.namespace('org-workspaces', {
      schema: workspaceAccessSchema,
      ttlSeconds: INSTALLATION_TTL_SECONDS,
    }),
    tell(ORG_WORKSPACES_TOPIC),
  );
  const installations = new Installations(values, sealer, {
    changed: tell(INSTALLATIONS_TOPIC),
    orgAccess: orgWorkspaces,
  });
  const setups = new WorkspaceSetups(
    stores.namespace('workspace-setups', { schema: z.string(), ttlSeconds: INSTALLATION_TTL_SECONDS }),
    sealer,
    {
      changed: tell(WORKSPACE_SETUPS_TOPIC),
      digests: stores.namespace('digest-workspaces', {
        schema: z.array(z.string().max(64)).max(100_000),
        ttlSeconds: INSTALLATION_TTL_SECONDS,
      }),
    },
  );
  await listen(INSTALLATIONS_TOPIC, (key) => installations.forget(key));
  await listen(ORG_WORKSPACES_TOPIC, (key) => orgWorkspaces.forget(key));
  await listen(WORKSPACE_SETUPS_TOPIC, (key) => setups.forget(key));
  const installer = createInstaller({
    clientId: install.clientId,
    clientSecret: install.clientSecret,
    stateSecret: install.stateSecret,
    installations,
    stateClaims: stores.namespace('install-states', { schema: claimsOnly, ttlSeconds: 600 }),
    rotationLocks: stores.namespace('install-rotations', {
      schema: claimsOnly,
      ttlSeconds: ROTATION_LOCK_SECONDS,
    }),
    clientOptions: deps.webApi.clientOptions,
    logger: logger.child({ component: 'install' }),
    sdkLogger: boltLogger(logger, 'oauth'),
    onNotInstalled: () => deps.metrics.slackEvent('authorize', 'not_installed'),
    onRefreshFailed: () => deps.metrics.slackEvent('authorize', 'refresh_failed'),
  });
  return {
    auth: { kind: 'installations', authorize: installer.authorize, pages: installer.pages },
    installations,
    orgWorkspaces,
    setups,
    sealer,
    botTokenOf: (workspace) => installer.botTokenOf(workspace),
  };
}

/** Where replicas tell each other that an installation changed (its key: a team or an org). */
const INSTALLATIONS_TOPIC = 'installations';
/** Where they tell each other that a workspace's set-up changed (its key: a team or an org). */
const WORKSPACE_SETUPS_TOPIC = 'workspace-setups';
/** Where they tell each other that an org's workspace was added or taken back (`<enterprise>:<team>`). */
const ORG_WORKSPACES_TOPIC = 'org-workspaces';

/** Ten years: kept until an uninstall removes it. */
const INSTALLATION_TTL_SECONDS = 10 * 365 * 24 * 3600;
