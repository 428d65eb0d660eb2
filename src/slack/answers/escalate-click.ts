// "Get a person": the first click calls, once per answer; later clicks are told who already did.
import type { Locale } from '../../conversation/locale.js';
import type { AnswerContext } from '../../conversation/types.js';
import { errorFields } from '../../logging/error-fields.js';
import { type Click, type ClickArgs, clickedTarget, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { decodeAnswerValue } from '../kit/button-values.js';
import { section } from '../kit/elements.js';
import { failureText } from '../kit/failure-wording.js';
import { placeLocale } from '../kit/i18n.js';
import type { RoomKit } from '../kit/room-kit.js';
import type { ReplyTarget } from '../transport/responder.js';
import { showOnClicked } from './answerer.js';
import { ESCALATE_BLOCK_ID } from './blocks.js';
import { type EscalationRoute, renderCall, renderEscalatedLine } from './escalation.js';
import { type MessageKey, t } from './messages.js';
import type { AnswersPieces } from './pieces.js';

type EscalateDeps = Pick<
  RoomKit & AnswersPieces,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'review' | 'escalations' | 'escalationClaims'
>;

/** What a click came to, counted by its kind; `failed` on `context` could not read the answer at all. */
type Escalation =
  | { kind: 'malformed' | 'stale' | 'off' | 'already'; locale: Locale }
  | { kind: 'failed'; locale: Locale; on: 'context' | 'call' }
  | { kind: 'called'; locale: Locale; route: EscalationRoute };

const TOLD: Record<Exclude<Escalation['kind'], 'called'>, MessageKey> = {
  malformed: 'context_expired',
  stale: 'context_expired',
  off: 'escalation_off',
  already: 'escalation_already',
  failed: 'escalation_failed',
};

export function escalateClickListener(deps: EscalateDeps): (args: ClickArgs) => Promise<void> {
  // Not in the clicker's turn: calling a person asks the robot nothing.
  return trackedClickListener(deps, 'escalation click handling failed', async (handling, click) => {
    const target = clickedTarget(click.payload);
    if (!target) return;
    const outcome = await escalate(deps, handling, click, target);
    deps.onEvent('escalation', outcome.kind);
    await show(deps, handling, click, target, outcome);
  });
}

async function escalate(
  deps: EscalateDeps,
  handling: Handling,
  click: Click,
  target: ReplyTarget,
): Promise<Escalation> {
  const { logger } = handling;
  const { locale: own } = await handling.person(click.userId);
  const contextKey = decodeAnswerValue(click.value);
  if (contextKey === undefined) {
    logger.warn({}, 'ignored an escalation click with a malformed value');
    return { kind: 'malformed', locale: own };
  }
  let context: AnswerContext | undefined;
  try {
    context = await deps.review.context(contextKey);
  } catch (error) {
    logger.error({ ...errorFields(error), contextKey }, 'answer context lookup failed; no one called');
    return { kind: 'failed', locale: own, on: 'context' };
  }
  // Only an answer the gateway gave, clicked where it was given: a value naming another place's answer calls no one.
  if (context === undefined || context.conversationId !== target.channel) {
    logger.warn(
      { contextKey, known: context !== undefined, channel: target.channel },
      'escalation click for an answer not given here, or expired; no one called',
    );
    return { kind: 'stale', locale: own };
  }
  const locale = placeLocale(context.placement?.language ?? 'auto') ?? own;
  // Who is called is read now: a channel whose escalate was turned off since the answer calls no one.
  const route = deps.escalations(handling.teamId, context.conversationId);
  if (route === undefined) return { kind: 'off', locale };
  try {
    if (!(await deps.escalationClaims.claim(contextKey))) return { kind: 'already', locale };
  } catch (error) {
    logger.error({ ...errorFields(error), contextKey }, 'escalation claim unavailable; no one called');
    return { kind: 'failed', locale, on: 'call' };
  }
  const posted = await postCall(deps, handling, { contextKey, context, route, locale, click, target });
  if (!posted) {
    // Nobody was reached: the next click may try again.
    await deps.escalationClaims.release(contextKey).catch((error: unknown) => {
      logger.error({ ...errorFields(error), contextKey }, 'escalation claim not released');
    });
    return { kind: 'failed', locale, on: 'call' };
  }
  logger.info(
    { contextKey, channel: posted.channel, ts: posted.ts, targets: route.targets },
    'a person was called about an answer',
  );
  return { kind: 'called', locale, route };
}

/** Tells the clicker what came of it; a call replaces the button with who called whom. */
async function show(
  deps: EscalateDeps,
  handling: Handling,
  click: Click,
  target: ReplyTarget,
  outcome: Escalation,
): Promise<void> {
  const { locale } = outcome;
  if (outcome.kind !== 'called') {
    const text =
      outcome.kind === 'failed' && outcome.on === 'context'
        ? failureText(locale, 'store_unavailable')
        : t(locale, TOLD[outcome.kind]);
    await deps.responder.ephemeral(handling, target, click.userId, { text, blocks: [section(text)] });
    return;
  }
  await showOnClicked(deps.responder, handling, click, target, {
    blockId: ESCALATE_BLOCK_ID,
    block: renderEscalatedLine(locale, click.userId, new Date(), outcome.route.targets),
    text: t(locale, 'escalation_called'),
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
    click: Click;
    target: ReplyTarget;
  },
): Promise<{ channel: string; ts: string } | undefined> {
  const { contextKey, context, route, locale, click, target } = input;
  const where: ReplyTarget =
    route.channelId === undefined
      ? { channel: context.conversationId, threadTs: context.threadId ?? target.threadTs }
      : { channel: route.channelId, threadTs: undefined };
  const call = renderCall({
    locale,
    targets: route.targets,
    askerUserId: context.askerUserId,
    clickerUserId: click.userId,
    question: context.question,
    // Away from the DM the people called cannot see the answer: the call carries it.
    ...(route.channelId === undefined ? {} : { awayFromDm: { answerText: click.payload.message?.text } }),
  });
  const sent = await deps.responder.post(handling, where, call);
  if (sent.ok) return { channel: where.channel, ts: sent.ts };
  handling.logger.error(
    { contextKey, channel: where.channel, threadTs: where.threadTs, slackError: sent.error },
    'the call for a person was not posted',
  );
  return undefined;
}
