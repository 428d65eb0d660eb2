// The composition root: builds everything from a validated Env, each registered with the resource stack.
import { composeCore } from './composition/core.js';
import { choosePlatform } from './composition/platform.js';
import { composeAccounts } from './composition/platform-accounts.js';
import { platformPacing } from './composition/platform-pacing.js';
import { createQuestionLimits } from './composition/question-limits.js';
import { drainWithin } from './composition/shutdown.js';
import { composeSlack, slackAuth, slackRateLimits, slackServices } from './composition/slack.js';
import type { Env } from './config/env.js';
import type { ChannelSettings } from './conversation/channel-settings.js';
import { errorFields } from './logging/error-fields.js';
import type { Logger } from './logging/logger.js';
import { Metrics } from './observability/metrics.js';
import { PlatformClient } from './platform/index.js';
import type { DigestPosting } from './slack/handling/surface.js';
import { connectSlackWebApi } from './slack/transport/web-api.js';
import { createStores } from './stores/index.js';
import type { Stores } from './stores/stores.js';
import { ResourceStack } from './util/resource-stack.js';

export interface Gateway {
  mode: 'http' | 'socket';
  /** The configured origin, or the built-in simulator's. */
  platformUrl: string;
  demo: boolean;
  /** For the start-up line. */
  store: { kind: Stores['kind']; location: string };
  /** As its settings say now, for the playground's hints. */
  answersOnItsOwn(
    workspace: string,
    channelId: string,
  ): {
    answer: NonNullable<ChannelSettings['answer']>;
    askers: NonNullable<ChannelSettings['askers']>;
  };
  /**
   * The statistics digest, one tick now, to `workspace`'s channel: for the playground's control only,
   * reachable from no request. Undefined when no digest is scheduled.
   */
  postDigestNow(workspace: string): Promise<DigestPosting[] | undefined>;
  start(): Promise<{ port: number | undefined }>;
  /** Within SHUTDOWN_GRACE_SECONDS, whatever is still open then. */
  stop(): Promise<void>;
}

export async function createGateway(env: Env, logger: Logger): Promise<Gateway> {
  const resources = new ResourceStack(logger);
  try {
    return await composeGateway(env, logger, resources);
  } catch (error) {
    // A refused setting leaves no pool or socket behind.
    await resources.closeAll();
    throw error;
  }
}

async function composeGateway(env: Env, logger: Logger, resources: ResourceStack): Promise<Gateway> {
  // Stores first: with Redis, the platform token is shared through them as well.
  const stores = await createStores({
    state: env.state,
    maxEntries: env.CONTEXT_MAX_ENTRIES,
    ttlSeconds: env.CONTEXT_TTL_SECONDS,
    logger: logger.child({ component: 'store' }),
  });
  resources.defer('stores', () => stores.close());
  const questionLimits = await createQuestionLimits(env, logger.child({ component: 'limits' }));
  resources.defer('question limits', () => questionLimits.close());

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
  const pacingFor = platformPacing(env, {
    store: questionLimits.store,
    logger: logger.child({ component: 'platform' }),
    onBusy: () => metrics.throttled('platform'),
  });
  // What every platform client shares, the environment's and each workspace's own.
  const platformClientOptions = {
    timeouts: platformTimeouts,
    retry: { attempts: env.CS_RETRY_ATTEMPTS },
    ...(env.CS_TICKET_LIST_PATH ? { ticketListPath: env.CS_TICKET_LIST_PATH } : {}),
    logger: logger.child({ component: 'platform' }),
    observer: metrics,
  };
  const platform = new PlatformClient({
    ...platformChoice.client,
    questionPacing: pacingFor({ openUrl: platformChoice.client.openUrl, sysNum: platformChoice.sysNum }),
    ...platformClientOptions,
  });
  resources.defer('platform client', () => platform.close());

  const rateLimits = slackRateLimits(env, { metrics, logger });
  const webApi = await connectSlackWebApi({
    botToken: env.slack.install.kind === 'workspace' ? env.slack.install.botToken : undefined,
    slackApiUrl: env.slack.apiUrl,
    webApiRetries: env.SLACK_WEB_API_RETRIES,
    rateLimits,
  });
  resources.defer('Slack Web API', () => webApi.close());

  const authorized = await slackAuth(env.slack.install, { webApi, stores, metrics, logger });
  const services = slackServices(env, { webApi, rateLimits, stores, metrics, logger, authorized });
  const workspaces = composeAccounts(env, {
    platform,
    platformChoice,
    authorized,
    client: platformClientOptions,
    stores,
    pacingFor,
  });
  resources.defer("workspaces' platform clients", () => workspaces.close());
  const { accounts } = workspaces;
  const core = composeCore(env, {
    platform,
    platformChoice,
    accounts,
    stores,
    places: services.review,
    metrics,
    logger,
  });
  let stopping = false;
  const { slack, kit, channels } = await composeSlack(env, {
    core,
    services,
    webApi,
    platform,
    agentGroups: platformChoice.agentGroups,
    stores,
    metrics,
    limits: questionLimits.limits,
    platformOf: workspaces.platformOf,
    authorized,
    setups: workspaces.setups,
    logger,
    running: () => !stopping,
  });
  resources.defer('channel settings', () => channels.stop());
  resources.defer('Slack app', () => slack.close());
  const { review } = core;

  return {
    mode: slack.mode,
    platformUrl: platformChoice.client.openUrl,
    demo: platformChoice.demo,
    store: { kind: stores.kind, location: stores.location },
    answersOnItsOwn: (workspace, channelId) => {
      const { answer, askers } = channels.policyOf(workspace, channelId);
      return { answer, askers };
    },
    postDigestNow: (workspace) => slack.postDigestNow(workspace),
    start: () => slack.start(),
    async stop() {
      if (stopping) return;
      stopping = true;
      const graceMs = env.SHUTDOWN_GRACE_SECONDS * 1000;
      await drainWithin(graceMs, {
        drain: () =>
          slack
            .stop()
            .catch((error: unknown) => logger.warn(errorFields(error), 'Slack app did not stop cleanly'))
            .then(() => kit.inFlight.drain())
            .then(() => review.settled()),
        onDrainCutShort: () =>
          logger.warn({ inFlight: kit.inFlight.size, graceMs }, 'stopped with questions in flight'),
        close: (until) => resources.closeAll(until),
        onCloseCutShort: (stillClosing) =>
          logger.warn({ graceMs, stillClosing }, 'stopped before every connection had closed'),
      });
    },
  };
}
