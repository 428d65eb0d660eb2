// The composition root: builds the stores, the platform client, the conversation core and the Slack
// app from a validated Env, registering each with the resource stack as it opens, and hands back
// start and stop. It reads no process.env; choosing the platform and the drain live in src/composition.

import { choosePlatform } from './composition/platform.js';
import { drainWithin } from './composition/shutdown.js';
import type { Env } from './config/env.js';
import { newContextKey } from './conversation/context-key.js';
import { Conversation } from './conversation/conversation.js';
import { errorFields } from './logging/error-fields.js';
import type { Logger } from './logging/logger.js';
import { meteredContextStore, meteredNameCache } from './observability/metered-stores.js';
import { Metrics } from './observability/metrics.js';
import { PlatformClient } from './platform/index.js';
import { KnowledgeReview } from './review/knowledge-review.js';
import { OperatorDirectory } from './slack/access/operators.js';
import { StatisticsDigest } from './slack/desk/digest.js';
import { createListenerDeps } from './slack/handling/deps.js';
import { UserDirectory } from './slack/handling/user-directory.js';
import { SlackReviewBoard } from './slack/review/review-board.js';
import { Responder } from './slack/transport/responder.js';
import { createSlackApp, type SlackApp } from './slack/transport/slack-app.js';
import { createStores } from './stores/index.js';
import { ResourceStack } from './util/resource-stack.js';

export interface Gateway {
  mode: 'http' | 'socket';
  /** The platform origin in use: the configured one, or the built-in simulator's. */
  platformUrl: string;
  demo: boolean;
  conversation: Conversation;
  start(): Promise<{ port: number | undefined }>;
  /** Drains and closes within SHUTDOWN_GRACE_SECONDS, whatever is still open then. */
  stop(): Promise<void>;
}

export async function createGateway(env: Env, logger: Logger): Promise<Gateway> {
  const resources = new ResourceStack(logger);
  try {
    return await composeGateway(env, logger, resources);
  } catch (error) {
    // A failure midway closes what had opened, so a refused setting leaves no pool or socket behind.
    await resources.closeAll();
    throw error;
  }
}

async function composeGateway(env: Env, logger: Logger, resources: ResourceStack): Promise<Gateway> {
  // Stores first: with Redis, the platform token is shared through them as well.
  const stores = await createStores({
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    keyPrefix: env.REDIS_KEY_PREFIX,
    maxEntries: env.CONTEXT_MAX_ENTRIES,
    ttlSeconds: env.CONTEXT_TTL_SECONDS,
    logger: logger.child({ component: 'store' }),
  });
  resources.defer('stores', () => stores.close());

  const platformTimeouts = {
    connectMs: env.CS_CONNECT_TIMEOUT_MS,
    headersMs: env.CS_HEADERS_TIMEOUT_MS,
    bodyMs: env.CS_BODY_TIMEOUT_MS,
  };
  const platformChoice = await choosePlatform(env, {
    timeouts: platformTimeouts,
    tokenCache: stores.tokenCache,
    logger,
  });
  resources.defer('platform simulator', () => platformChoice.close());

  const metrics = new Metrics();
  const platform = new PlatformClient({
    ...platformChoice.client,
    timeouts: platformTimeouts,
    retry: { attempts: env.CS_RETRY_ATTEMPTS },
    ...(env.CS_TICKET_LIST_PATH ? { ticketListPath: env.CS_TICKET_LIST_PATH } : {}),
    logger: logger.child({ component: 'platform' }),
    observer: metrics,
  });
  resources.defer('platform client', () => platform.close());

  const responder = new Responder((method, error) => metrics.slackApiError(method, error));
  const users = new UserDirectory(
    meteredNameCache(stores.names, (store, result) => metrics.storeLookup(store, result)),
    env.DEFAULT_LOCALE,
  );
  // Cards are posted with the app's own client, which exists once the Slack app is built below.
  let slackApp: SlackApp | undefined;
  const review = new KnowledgeReview({
    cards: stores.reviewCards,
    snapshots: stores.entrySnapshots,
    board: new SlackReviewBoard({
      client: () => {
        if (!slackApp) throw new Error('review card shown before the Slack app was built');
        return slackApp.app.client;
      },
      responder,
      users,
      logger: logger.child({ component: 'review' }),
      settings: {
        channelId: env.REVIEW_CHANNEL_ID ?? '',
        showAsker: env.REVIEW_SHOW_ASKER,
        locale: env.DEFAULT_LOCALE,
      },
    }),
    platform,
    logger: logger.child({ component: 'review' }),
    metrics: {
      card: (action) => metrics.reviewCard(action),
      edit: (outcome) => metrics.knowledgeEdit(outcome),
    },
    settings: {
      cardsEnabled: env.REVIEW_CHANNEL_ID !== undefined,
      notifyAskersOnFix: env.NOTIFY_ASKERS_ON_FIX,
    },
  });

  const conversation = new Conversation({
    robot: platform,
    contexts: meteredContextStore(stores.contexts, (store, result) => metrics.storeLookup(store, result)),
    ratings: stores.ratings,
    settings: {
      sysNum: platformChoice.sysNum,
      maxQuestionLength: env.MAX_QUESTION_LENGTH,
      contextTtlSeconds: env.CONTEXT_TTL_SECONDS,
      demo: platformChoice.demo,
    },
    logger: logger.child({ component: 'conversation' }),
    newKey: newContextKey,
    observer: review,
  });
  // The platform client reports to the metrics and the conversation asks through that client, so the
  // gauge that reads the conversation is registered now that it exists.
  metrics.countQuestionsInFlight(conversation);

  let stopping = false;
  const listeners = createListenerDeps({
    conversation,
    review: {
      desk: review,
      context: (contextKey) => conversation.context(contextKey),
    },
    operators: new OperatorDirectory(
      { userIds: env.OPERATOR_USER_IDS, usergroupId: env.OPERATOR_USERGROUP_ID },
      stores.operators,
    ),
    tickets: platform,
    agents: platform,
    statistics: platform,
    homeExamples: env.HOME_EXAMPLE_QUESTIONS,
    responder,
    deliveries: stores.deliveries,
    threads: stores.threads,
    users,
    settings: {
      defaultLocale: env.DEFAULT_LOCALE,
      defaultPlacement: {
        robotFlag: env.CS_ROBOT_FLAG,
        source: env.CS_SOURCE,
        language: 'auto',
        reply: 'thread',
      },
      dedupTtlSeconds: env.DEDUP_TTL_SECONDS,
      handlingLeaseSeconds: handlingLeaseSeconds(env),
      threadTtlSeconds: env.CONTEXT_TTL_SECONDS,
      placeholderDelayMs: env.PLACEHOLDER_DELAY_MS,
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
  const socketMode = {
    ...(env.SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS === undefined
      ? {}
      : { clientPingTimeoutMs: env.SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS }),
    ...(env.SLACK_SOCKET_SERVER_PING_TIMEOUT_MS === undefined
      ? {}
      : { serverPingTimeoutMs: env.SLACK_SOCKET_SERVER_PING_TIMEOUT_MS }),
  };
  const slack = await createSlackApp({
    connection: env.slack,
    slackApiUrl: env.slack.apiUrl,
    port: env.PORT,
    host: env.HOST,
    ...(env.SLACK_WEB_API_RETRIES === undefined ? {} : { webApiRetries: env.SLACK_WEB_API_RETRIES }),
    slashCommand: env.SLASH_COMMAND,
    socketMode,
    listeners,
    logger,
    metrics,
    health: {
      alive: () => !stopping,
      ready: async () => !stopping && (await stores.ping()),
    },
  });
  slackApp = slack;
  resources.defer('Slack app', () => slack.close());

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
          // The claims every replica shares (Redis when set), refused while Redis is down: a tick is
          // posted once per fleet, or not at all.
          claims: stores.ticks,
          client: () => slack.app.client,
          logger: logger.child({ component: 'digest' }),
          onOutcome: (outcome) => metrics.digest(outcome),
        })
      : undefined;
  if (digest) resources.defer('statistics digest', () => digest.stop());

  return {
    mode: slack.mode,
    platformUrl: platformChoice.client.openUrl,
    demo: platformChoice.demo,
    conversation,
    async start() {
      const started = await slack.start();
      digest?.start();
      return started;
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      // No new digest once stopping; one being posted is waited for by the resource stack.
      void digest?.stop();
      const graceMs = env.SHUTDOWN_GRACE_SECONDS * 1000;
      await drainWithin(graceMs, {
        // Answers in flight are still posted: the listeners' drain covers asking and posting.
        drain: () =>
          slack
            .stop()
            .catch((error: unknown) => logger.warn(errorFields(error), 'Slack app did not stop cleanly'))
            .then(() => listeners.inFlight.drain())
            .then(() => review.settled()),
        onDrainCutShort: () =>
          logger.warn({ inFlight: listeners.inFlight.size, graceMs }, 'stopped with questions in flight'),
        close: (until) => resources.closeAll(until),
        // A pool still waiting for a request in flight is left to the process exit.
        onCloseCutShort: (stillClosing) =>
          logger.warn({ graceMs, stillClosing }, 'stopped before every connection had closed'),
      });
    },
  };
}

/**
 * How long a delivery stays claimed while it is handled: twice the longest a robot call can take
 * (connect, headers and body timeouts) plus a minute for Slack and the user's earlier questions. A
 * delivery whose handling died with its process is answered on Slack's retry after that.
 */
function handlingLeaseSeconds(env: Env): number {
  const robotCallMs = env.CS_CONNECT_TIMEOUT_MS + env.CS_HEADERS_TIMEOUT_MS + env.CS_BODY_TIMEOUT_MS;
  return Math.min(Math.ceil((2 * robotCallMs) / 1000) + 60, env.DEDUP_TTL_SECONDS);
}
