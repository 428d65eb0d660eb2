// The rooms' shared kit built from the core and the stores; each room builds the rest itself.
import type { Env } from '../config/env.js';
import type { Conversation } from '../conversation/conversation.js';
import type { Logger } from '../logging/logger.js';
import { tracedOnceStore } from '../observability/metered-stores.js';
import type { Metrics } from '../observability/metrics.js';
import { traceHooks } from '../observability/tracing-hooks.js';
import { OperatorDirectory } from '../slack/access/operators.js';
import { Answerer, type OnEvent } from '../slack/answers/answerer.js';
import { escalationRoutes } from '../slack/answers/escalation.js';
import { QuestionTurns } from '../slack/answers/question-turns.js';
import { threadRegistry } from '../slack/answers/thread-registry.js';
import { placeholderMessages } from '../slack/answers/working-signal.js';
import { assistantPanel } from '../slack/assistant/panel.js';
import type { ChannelDirectory } from '../slack/channels/directory.js';
import { GatewayConfigurationError } from '../slack/handling/configuration-error.js';
import { deliveryClaims } from '../slack/handling/delivery-claims.js';
import { InFlight } from '../slack/handling/in-flight.js';
import { type QuestionLimits, questionGate } from '../slack/handling/question-limits.js';
import type { UserLookup } from '../slack/handling/user-directory.js';
import { TRY_AGAIN_QUESTION_MAX } from '../slack/kit/button-values.js';
import type { ReviewDeps, RoomKit, RoomSettings, RoomSources } from '../slack/kit/room-kit.js';
import type { Responder } from '../slack/transport/responder.js';
import type { Stores } from '../stores/stores.js';

/** The kit, with the handlings in flight that a stop drains. */
export type SlackRoomKit = RoomKit & { inFlight: InFlight };

export function createRoomKit(
  env: Env,
  parts: {
    conversation: Pick<Conversation, 'ask' | 'rate' | 'context'>;
    review: Pick<ReviewDeps, 'of'>;
    responder: Responder;
    users: UserLookup;
    channels: ChannelDirectory;
    stores: Pick<Stores, 'deliveries' | 'threads' | 'assistantContexts' | 'operators' | 'panelTitles'>;
    sources: Omit<RoomSources, 'env'>;
    settings: RoomSettings;
    metrics: Pick<Metrics, 'slackEvent' | 'operatorRefusal' | 'throttled'>;
    limits: Pick<QuestionLimits, 'admit'>;
    logger: Logger;
  },
): SlackRoomKit {
  // A failed question is offered again whole from its Try again button, so it must fit in one.
  if (env.MAX_QUESTION_LENGTH > TRY_AGAIN_QUESTION_MAX) {
    throw new GatewayConfigurationError(`MAX_QUESTION_LENGTH: must be at most ${TRY_AGAIN_QUESTION_MAX}`);
  }
  const { conversation, responder, users, channels, stores, metrics } = parts;
  const tracing = traceHooks();
  const onEvent: OnEvent = tracing
    ? (kind, outcome) => {
        metrics.slackEvent(kind, outcome);
        tracing.outcome(kind, outcome);
      }
    : (kind, outcome) => metrics.slackEvent(kind, outcome);
  const escalations = escalationRoutes(channels, env.directEscalation);
  const { installations, setups } = parts.sources;
  const operators = new OperatorDirectory(
    {
      userIds: env.OPERATOR_USER_IDS,
      usergroupId: env.OPERATOR_USERGROUP_ID,
      ...(installations && {
        workspaceOperators: async (workspace: string) => ({
          installer: await installations.installerOf(workspace),
          // Unreadable set-up: the installer and the gateway's own operators still are.
          usergroupId: (await setups?.store.get(workspace).catch(() => undefined))?.operatorGroupId,
        }),
      }),
    },
    stores.operators,
  );
  return {
    logger: parts.logger,
    onEvent,
    inFlight: new InFlight(),
    responder,
    users,
    turns: new QuestionTurns(env.QUESTION_DEADLINE_SECONDS * 1000),
    answerer: new Answerer({
      ask: (input, options) => conversation.ask(input, options),
      responder,
      onEvent,
      working: placeholderMessages(responder),
      escalations,
      gate: questionGate(parts.limits, { operators, onThrottled: (scope) => metrics.throttled(scope) }),
      settings: {
        defaultLocale: env.DEFAULT_LOCALE,
        placeholderDelayMs: env.PLACEHOLDER_DELAY_MS,
        ratingButtons: env.RATING_BUTTONS,
      },
    }),
    rate: (input, scope) => conversation.rate(input, scope),
    deliveries: deliveryClaims(tracedOnceStore('deliveries', stores.deliveries), {
      handlingLeaseSeconds: handlingLeaseSeconds(env),
      rememberSeconds: env.DEDUP_TTL_SECONDS,
    }),
    threads: threadRegistry(tracedOnceStore('threads', stores.threads), env.CONTEXT_TTL_SECONDS),
    assistant: assistantPanel({
      contexts: stores.assistantContexts,
      titles: stores.panelTitles,
      placements: channels,
      responder,
      settings: {
        ttlSeconds: env.CONTEXT_TTL_SECONDS,
        prompts: env.ASSISTANT_PROMPTS ?? env.HOME_EXAMPLE_QUESTIONS,
      },
    }),
    escalations,
    channels,
    review: {
      of: (workspace) => parts.review.of(workspace),
      context: (contextKey) => conversation.context(contextKey),
    },
    access: {
      operators,
      contact: env.OPERATOR_CONTACT,
      onRefusal: (action) => metrics.operatorRefusal(action),
    },
    settings: parts.settings,
    sources: { env, ...parts.sources },
  };
}

/** Twice the longest robot call plus a minute: a delivery whose process died is answered on Slack's retry. */
function handlingLeaseSeconds(env: Env): number {
  const robotCallMs = env.CS_CONNECT_TIMEOUT_MS + env.CS_HEADERS_TIMEOUT_MS + env.CS_BODY_TIMEOUT_MS;
  return Math.min(Math.ceil((2 * robotCallMs) / 1000) + 60, env.DEDUP_TTL_SECONDS);
}
