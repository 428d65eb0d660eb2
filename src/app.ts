// The composition root: builds the platform client, the stores, the conversation core and the Slack
// app from a validated Env, and owns their start and orderly stop. It reads no process.env.
import type { Env } from './config/env.js';
import { newContextKey } from './conversation/context-key.js';
import { Conversation } from './conversation/conversation.js';
import type { Logger } from './logging/logger.js';
import { meteredContextStore, meteredNameCache } from './observability/metered-stores.js';
import { Metrics } from './observability/metrics.js';
import {
  type AccessTokenProvider,
  FetchedTokenProvider,
  PlatformClient,
  StaticTokenProvider,
} from './platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from './simulator/index.js';
import { createListenerDeps, type SlackListeners } from './slack/listeners/deps.js';
import { createSlackApp, type SlackApp } from './slack/slack-app.js';
import { UserDirectory } from './slack/user-directory.js';
import { createStores } from './stores/index.js';
import { Deadline, EXPIRED } from './util/deadline.js';

/** The sysNum the built-in simulator is run with. */
const DEMO_SYS_NUM = 'demo';

export interface GatewayOverrides {
  /** Host to bind the HTTP server to; tests use 127.0.0.1. */
  host?: string;
  /** Web API retries; tests set 0 so a failing fake does not stall them. */
  webApiRetries?: number;
  socketMode?: { clientPingTimeoutMs?: number; serverPingTimeoutMs?: number };
  /** How long stop() may take, questions in flight included; default SHUTDOWN_GRACE_SECONDS. */
  shutdownGraceMs?: number;
}

export interface Gateway {
  mode: 'http' | 'socket';
  /** The platform origin in use: the configured one, or the built-in simulator's. */
  platformUrl: string;
  demo: boolean;
  conversation: Conversation;
  start(): Promise<{ port: number | undefined }>;
  stop(): Promise<void>;
}

export async function createGateway(
  env: Env,
  logger: Logger,
  overrides: GatewayOverrides = {},
): Promise<Gateway> {
  // Stores first: with Redis, the platform token is shared through them as well.
  const stores = await createStores({
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    keyPrefix: env.REDIS_KEY_PREFIX,
    maxEntries: env.CONTEXT_MAX_ENTRIES,
    ttlSeconds: env.CONTEXT_TTL_SECONDS,
    logger: logger.child({ component: 'store' }),
  });

  let simulator: Simulator | undefined;
  let openUrl: string;
  let baseUrl: string;
  let tokenProvider: AccessTokenProvider;
  let sysNum: string;

  const platformTimeouts = {
    connectMs: env.CS_CONNECT_TIMEOUT_MS,
    headersMs: env.CS_HEADERS_TIMEOUT_MS,
    bodyMs: env.CS_BODY_TIMEOUT_MS,
  };
  const { platform: platformEnv } = env;
  if (platformEnv.kind === 'configured') {
    ({ openUrl, baseUrl, sysNum } = platformEnv);
    const { credential } = platformEnv;
    tokenProvider =
      credential.kind === 'fetched'
        ? new FetchedTokenProvider({
            openUrl,
            appId: credential.appId,
            appKey: credential.appKey,
            expireHours: credential.expireHours,
            timeouts: platformTimeouts,
            ...(stores.tokenCache ? { cache: stores.tokenCache } : {}),
          })
        : new StaticTokenProvider(credential.accessToken);
  } else {
    simulator = await startSimulator({
      accessToken: DEFAULT_SIMULATOR_TOKEN,
      host: '127.0.0.1',
      port: 0,
    }).catch(async (error: unknown) => {
      await stores.close();
      throw error;
    });
    openUrl = simulator.url;
    baseUrl = simulator.url;
    sysNum = DEMO_SYS_NUM;
    tokenProvider = new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN);
    logger.warn(
      { platformUrl: simulator.url },
      '*** DEMO MODE: CS_OPEN_URL is not set, so answers come from the built-in platform simulator and its demo knowledge base. Set CS_OPEN_URL to use your platform. ***',
    );
  }

  // The gauge reads the conversation, which is built below; the closure defers the read to scrape time.
  let conversationRef: Conversation | undefined;
  const metrics = new Metrics({ inFlightQuestions: () => conversationRef?.inFlight ?? 0 });

  const platform = new PlatformClient({
    openUrl,
    baseUrl,
    tokenProvider,
    timeouts: platformTimeouts,
    retry: { attempts: env.CS_RETRY_ATTEMPTS },
    ...(env.CS_TICKET_LIST_PATH ? { ticketListPath: env.CS_TICKET_LIST_PATH } : {}),
    logger: logger.child({ component: 'platform' }),
    observer: metrics,
  });

  const conversation = new Conversation({
    robot: platform,
    contexts: meteredContextStore(stores.contexts, (store, result) => metrics.storeLookup(store, result)),
    ratings: stores.ratings,
    settings: {
      sysNum,
      robotFlag: env.CS_ROBOT_FLAG,
      source: env.CS_SOURCE,
      maxQuestionLength: env.MAX_QUESTION_LENGTH,
      contextTtlSeconds: env.CONTEXT_TTL_SECONDS,
      demo: simulator !== undefined,
    },
    logger: logger.child({ component: 'conversation' }),
    newKey: newContextKey,
  });
  conversationRef = conversation;

  let stopping = false;
  // Side by side: a pool that waits for a request still in flight must not keep the others open.
  const closeAll = async () => {
    await Promise.all([
      platform
        .close()
        .catch((error: unknown) => logger.warn({ err: error }, 'platform client did not close')),
      stores.close().catch((error: unknown) => logger.warn({ err: error }, 'stores did not close')),
      simulator?.close(),
    ]);
  };

  let listeners: SlackListeners;
  let slack: SlackApp;
  try {
    // Built here so that a setting it refuses closes what is already open.
    listeners = createListenerDeps({
      conversation,
      deliveries: stores.deliveries,
      threads: stores.threads,
      users: new UserDirectory(
        meteredNameCache(stores.names, (store, result) => metrics.storeLookup(store, result)),
        env.DEFAULT_LOCALE,
      ),
      settings: {
        defaultLocale: env.DEFAULT_LOCALE,
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
      },
    });
    slack = await createSlackApp({
      connection: env.slack,
      slackApiUrl: env.slack.apiUrl,
      port: env.PORT,
      ...(overrides.host ? { host: overrides.host } : {}),
      ...(overrides.webApiRetries === undefined ? {} : { webApiRetries: overrides.webApiRetries }),
      ...(overrides.socketMode ? { socketMode: overrides.socketMode } : {}),
      listeners,
      logger,
      metrics,
      health: {
        alive: () => !stopping,
        ready: async () => !stopping && (await stores.ping()),
      },
    });
  } catch (error) {
    await closeAll();
    throw error;
  }

  return {
    mode: slack.mode,
    platformUrl: openUrl,
    demo: simulator !== undefined,
    conversation,
    start: () => slack.start(),
    async stop() {
      if (stopping) return;
      stopping = true;
      // The grace counts from here, as a supervisor's kill deadline counts from its signal, and
      // covers everything below; its last part is kept for closing.
      const graceMs = overrides.shutdownGraceMs ?? env.SHUTDOWN_GRACE_SECONDS * 1000;
      const end = Date.now() + graceMs;
      const drainEnd = end - Math.min(CLOSE_RESERVE_MS, graceMs / 10);
      // Answers in flight are still posted: the listeners' drain covers asking and posting.
      const drained = await raceUntil(
        slack
          .stop()
          .catch((error: unknown) => logger.warn({ err: error }, 'Slack app did not stop cleanly'))
          .then(() => listeners.inFlight.drain()),
        drainEnd,
      );
      if (drained === EXPIRED)
        logger.warn({ inFlight: listeners.inFlight.size, graceMs }, 'stopped with questions in flight');
      const closed = await raceUntil(
        Promise.all([
          slack.close().catch((error: unknown) => logger.warn({ err: error }, 'Slack app did not close')),
          closeAll(),
        ]),
        end,
      );
      // A pool still waiting for a request in flight is left to the process exit.
      if (closed === EXPIRED) logger.warn({ graceMs }, 'stopped before every connection had closed');
    },
  };
}

/** At most this much of the grace is kept for closing: with nothing in flight, it takes milliseconds. */
const CLOSE_RESERVE_MS = 1_000;

/**
 * How long a delivery stays claimed while it is handled: twice the longest a robot call can take
 * (connect, headers and body timeouts) plus a minute for Slack and the user's earlier questions. A
 * delivery whose handling died with its process is answered on Slack's retry after that.
 */
function handlingLeaseSeconds(env: Env): number {
  const robotCallMs = env.CS_CONNECT_TIMEOUT_MS + env.CS_HEADERS_TIMEOUT_MS + env.CS_BODY_TIMEOUT_MS;
  return Math.min(Math.ceil((2 * robotCallMs) / 1000) + 60, env.DEDUP_TTL_SECONDS);
}

/** What `work` gives, or EXPIRED once the clock reaches `end` (epoch milliseconds). */
async function raceUntil<T>(work: Promise<T>, end: number): Promise<T | typeof EXPIRED> {
  const deadline = new Deadline(Math.max(0, end - Date.now()));
  try {
    return await deadline.race(work);
  } finally {
    deadline.clear();
  }
}
