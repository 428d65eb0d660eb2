// "Get a person": calls the people the place names, once per answer, then shows who called whom in
// place of the button. Anyone who sees the answer may click it; the first click calls, later ones are told.
import type { Locale } from '../../conversation/locale.js';
import type { AnswerContext } from '../../conversation/types.js';
import { errorFields } from '../../logging/error-fields.js';
import { type Click, type ClickArgs, clickedTarget, trackedClickListener } from '../handling/click.js';
import type { ListenerDeps } from '../handling/deps.js';
import type { Handling } from '../handling/handling.js';
import { decodeEscalateValue } from '../kit/button-values.js';
import { section } from '../kit/elements.js';
import type { ReplyTarget } from '../transport/responder.js';
import { tell } from './answerer.js';
import { ESCALATE_BLOCK_ID, replaceBlock } from './blocks.js';
import { type EscalationRoute, renderCall, renderEscalatedLine } from './escalation.js';
import { type MessageKey, t } from './messages.js';

type EscalateDeps = Pick<
  ListenerDeps,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'review' | 'escalation'
>;

export function escalateClickListener(deps: EscalateDeps): (args: ClickArgs) => Promise<void> {
  // Not in the clicker's turn: calling a person asks the robot nothing.
  return trackedClickListener(deps, 'escalation click handling failed', (handling, click) =>
    escalate(deps, handling, click),
  );
}

async function escalate(deps: EscalateDeps, handling: Handling, click: Click): Promise<void> {
  const { logger } = handling;
  const { payload, userId } = click;
  const target = clickedTarget(payload);
  if (!target) return;
  const person = await handling.person(userId);
  const say = (locale: Locale, key: MessageKey) => {
    const text = t(locale, key);
    return deps.responder.ephemeral(handling, target, userId, { text, blocks: [section(text)] });
  };

  const contextKey = decodeEscalateValue(click.value);
  if (contextKey === undefined) {
    logger.warn({}, 'ignored an escalation click with a malformed value');
    deps.onEvent('escalation', 'malformed');
    await say(person.locale, 'context_expired');
    return;
  }
  let context: AnswerContext | undefined;
  try {
    context = await deps.review.context(contextKey);
  } catch (error) {
    logger.error({ ...errorFields(error), contextKey }, 'answer context lookup failed; no one called');
    deps.onEvent('escalation', 'failed');
    await tell(deps.responder, handling, target, userId, {
      kind: 'failure',
      reason: 'store_unavailable',
      retry: undefined,
      locale: person.locale,
    });
    return;
  }
  // Only an answer the gateway gave, clicked where it was given: a value naming another place's answer calls no one.
  if (context === undefined || context.conversationId !== target.channel) {
    logger.warn(
      { contextKey, known: context !== undefined, channel: target.channel },
      'escalation click for an answer not given here, or expired; no one called',
    );
    deps.onEvent('escalation', 'stale');
    await say(person.locale, 'context_expired');
    return;
  }
  const language = context.placement?.language ?? 'auto';
  const locale = language === 'auto' ? person.locale : language;
  // Who is called is read now: a channel whose escalate was turned off since the answer calls no one.
  const route = deps.escalation.routes(context.conversationId);
  if (route === undefined) {
    deps.onEvent('escalation', 'off');
    await say(locale, 'escalation_off');
    return;
  }

  let claimed: boolean;
  try {
    claimed = await deps.escalation.claims.claim(contextKey);
  } catch (error) {
    logger.error({ ...errorFields(error), contextKey }, 'escalation claim unavailable; no one called');
    deps.onEvent('escalation', 'failed');
    await say(locale, 'escalation_failed');
    return;
  }
  if (!claimed) {
    deps.onEvent('escalation', 'already');
    await say(locale, 'escalation_already');
    return;
  }

  const posted = await postCall(deps, handling, {
    contextKey,
    context,
    route,
    locale,
    userId,
    target,
    payload,
  });
  if (!posted) {
    // Nobody was reached: the next click may try again.
    await deps.escalation.claims.release(contextKey).catch((error: unknown) => {
      logger.error({ ...errorFields(error), contextKey }, 'escalation claim not released');
    });
    deps.onEvent('escalation', 'failed');
    await say(locale, 'escalation_failed');
    return;
  }
  deps.onEvent('escalation', 'called');
  logger.info(
    { contextKey, channel: posted.channel, ts: posted.ts, targets: route.targets },
    'a person was called about an answer',
  );

  const message = payload.message;
  const line = renderEscalatedLine(locale, userId, new Date(), route.targets);
  if (payload.container?.is_ephemeral) {
    // An ephemeral answer comes without its blocks and cannot be redrawn: the clicker is told below it.
    await deps.responder.ephemeral(handling, target, userId, {
      text: t(locale, 'escalation_called'),
      blocks: [line],
    });
    return;
  }
  // Without the message's blocks an update would replace the whole answer with the line.
  if (!message?.blocks || message.blocks.length === 0) return;
  await deps.responder.update(handling, target.channel, message.ts, {
    text: message.text ?? '',
    blocks: replaceBlock(message.blocks, ESCALATE_BLOCK_ID, line),
  });
}

/** Posts the call where the route says; where it went, or undefined (logged) when Slack refused it. */
async function postCall(
  deps: EscalateDeps,
  handling: Handling,
  input: {
    contextKey: string;
    context: AnswerContext;
    route: EscalationRoute;
    locale: Locale;
    userId: string;
    target: ReplyTarget;
    payload: Click['payload'];
  },
): Promise<{ channel: string; ts: string } | undefined> {
  const { contextKey, context, route, locale, userId, target, payload } = input;
  const where: ReplyTarget =
    route.channelId === undefined
      ? { channel: context.conversationId, threadTs: context.threadId ?? target.threadTs }
      : { channel: route.channelId, threadTs: undefined };
  const call = renderCall({
    locale,
    targets: route.targets,
    askerUserId: context.askerUserId,
    clickerUserId: userId,
    question: context.question,
    // Away from the DM the people called cannot see the answer: the call carries it.
    ...(route.channelId === undefined ? {} : { awayFromDm: { answerText: payload.message?.text } }),
  });
  const sent = await deps.responder.post(handling, where, call);
  if (sent.ok) return { channel: where.channel, ts: sent.ts };
  handling.logger.error(
    { contextKey, channel: where.channel, threadTs: where.threadTs, slackError: sent.error },
    'the call for a person was not posted',
  );
  return undefined;
}
