// The Slack side composed: everything posts through the Web API connection opened first, not Bolt's app.
import type { Env } from '../config/env.js';
import type { Logger } from '../logging/logger.js';
import { meteredNameCache } from '../observability/metered-stores.js';
import type { Metrics } from '../observability/metrics.js';
import type { PlatformClient } from '../platform/index.js';
import type { AgentGroup } from '../service-desk/agent-groups.js';
import { OperatorDirectory } from '../slack/access/operators.js';
import { UsergroupDirectory } from '../slack/access/usergroups.js';
import { ChannelDirectory } from '../slack/channels/directory.js';
import { StatisticsDigest } from '../slack/desk/digest.js';
import { UserDirectory } from '../slack/handling/user-directory.js';
import { SlackReviewBoard } from '../slack/review/review-board.js';
import { Responder } from '../slack/transport/responder.js';
import { createSlackApp, type SlackApp } from '../slack/transport/slack-app.js';
import type { SlackWebApi } from '../slack/transport/web-api.js';
import type { Stores } from '../stores/stores.js';
import type { Core } from './core.js';
import { createListenerDeps, type SlackListeners } from './listeners.js';

/** Given before the core exists. */
export function slackServices(
  env: Env,
  deps: { webApi: SlackWebApi; stores: Stores; metrics: Metrics; logger: Logger },
) {
  const { metrics } = deps;
  const responder = new Responder((method, error) => metrics.slackApiError(method, error));
  const users = new UserDirectory(
    meteredNameCache(deps.stores.names, (store, result) => metrics.storeLookup(store, result)),
    env.DEFAULT_LOCALE,
  );
  const board = new SlackReviewBoard({
    client: () => deps.webApi.client,
    responder,
    users,
    logger: deps.logger.child({ component: 'review' }),
    settings: {
      channelId: env.REVIEW_CHANNEL_ID,
      showAsker: env.REVIEW_SHOW_ASKER,
      locale: env.DEFAULT_LOCALE,
    },
  });
  return { responder, users, board };
}

const USERGROUP_REFRESH_MS = 60 * 60 * 1000;

export interface SlackSide {
  slack: SlackApp;
  listeners: SlackListeners;
  digest: StatisticsDigest | undefined;
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
    logger: Logger;
    /** False once stopping. */
    running: () => boolean;
  },
): Promise<SlackSide> {
  const { core, services, platform, stores, metrics, logger } = deps;
  const channels = new ChannelDirectory(stores.channelSettings, {
    defaults: {
      robotFlag: env.CS_ROBOT_FLAG,
      source: env.CS_SOURCE,
      language: 'auto',
      reply: 'thread',
    },
    logger: logger.child({ component: 'channels' }),
  });
  // A channel's settings apply from the first message on.
  await channels.start();
  const listeners = createListenerDeps({
    conversation: core.conversation,
    review: {
      observer: core.review.observer,
      desk: core.review.desk,
      context: (contextKey) => core.conversation.context(contextKey),
    },
    operators: new OperatorDirectory(
      { userIds: env.OPERATOR_USER_IDS, usergroupId: env.OPERATOR_USERGROUP_ID },
      stores.operators,
    ),
    operatorContact: env.OPERATOR_CONTACT,
    tickets: platform,
    agents: platform,
    agentGroups: deps.agentGroups,
    statistics: platform,
    homeExamples: env.HOME_EXAMPLE_QUESTIONS,
    responder: services.responder,
    deliveries: stores.deliveries,
    threads: stores.threads,
    assistantContexts: stores.assistantContexts,
    users: services.users,
    channels,
    directEscalation: env.directEscalation,
    usergroups: new UsergroupDirectory(stores.operators, {
      refreshMs: USERGROUP_REFRESH_MS,
      what: 'user group',
    }),
    settings: {
      defaultLocale: env.DEFAULT_LOCALE,
      dedupTtlSeconds: env.DEDUP_TTL_SECONDS,
      handlingLeaseSeconds: handlingLeaseSeconds(env),
      threadTtlSeconds: env.CONTEXT_TTL_SECONDS,
      placeholderDelayMs: env.PLACEHOLDER_DELAY_MS,
      ratingButtons: env.RATING_BUTTONS,
      assistantPrompts: env.ASSISTANT_PROMPTS ?? env.HOME_EXAMPLE_QUESTIONS,
      questionDeadlineMs: env.QUESTION_DEADLINE_SECONDS * 1000,
    },
    logger: logger.child({ component: 'gateway' }),
    metrics: {
      onEvent: (kind, outcome) => metrics.slackEvent(kind, outcome),
      onSlackApiError: (method, error) => metrics.slackApiError(method, error),
      operatorRefusal: (action) => metrics.operatorRefusal(action),
      homePublish: (outcome) => metrics.homePublish(outcome),
    },
  });
  const slack = await createSlackApp({
    connection: env.slack,
    webApi: deps.webApi,
    port: env.PORT,
    host: env.HOST,
    slashCommand: env.SLASH_COMMAND,
    workingLineDelayMs: env.WORKING_LINE_DELAY_MS,
    socketMode: {
      ...(env.SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS === undefined
        ? {}
        : { clientPingTimeoutMs: env.SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS }),
      ...(env.SLACK_SOCKET_SERVER_PING_TIMEOUT_MS === undefined
        ? {}
        : { serverPingTimeoutMs: env.SLACK_SOCKET_SERVER_PING_TIMEOUT_MS }),
    },
    listeners,
    logger,
    metrics,
    health: {
      alive: () => deps.running(),
      ready: async () => deps.running() && (await stores.ping()),
    },
  });

  const digestChannel = env.DIGEST_CHANNEL_ID ?? env.REVIEW_CHANNEL_ID;
  const digest =
    env.DIGEST_SCHEDULE && digestChannel
      ? new StatisticsDigest({
          settings: {
            schedule: env.DIGEST_SCHEDULE,
            timeZone: env.DIGEST_TIME_ZONE,
            channelId: digestChannel,
            locale: env.DEFAULT_LOCALE,
          },
          statistics: platform,
          // Refused while Redis is down: a tick is posted once per fleet, or not at all.
          claims: stores.ticks,
          client: () => deps.webApi.client,
          logger: logger.child({ component: 'digest' }),
          onOutcome: (outcome) => metrics.digest(outcome),
        })
      : undefined;
  return { slack, listeners, digest, channels };
}

/** Twice the longest robot call plus a minute: a delivery whose process died is answered on Slack's retry. */
function handlingLeaseSeconds(env: Env): number {
  const robotCallMs = env.CS_CONNECT_TIMEOUT_MS + env.CS_HEADERS_TIMEOUT_MS + env.CS_BODY_TIMEOUT_MS;
  return Math.min(Math.ceil((2 * robotCallMs) / 1000) + 60, env.DEDUP_TTL_SECONDS);
}
