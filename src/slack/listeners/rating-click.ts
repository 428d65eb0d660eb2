// 👍 or 👎: rates once, only for the person the answer was for, then shows how it was rated.
import type { RateOutcome, RequestScope } from '../../conversation/conversation.js';
import type { Locale } from '../../conversation/locale.js';
import type { Rating } from '../../conversation/types.js';
import { tell } from '../answerer.js';
import { beginHandling, type Handling } from '../handling.js';
import type { BlockActionPayload } from '../incoming.js';
import { renderRatedLine, replaceRatingButtons } from '../render/blocks.js';
import { decodeRatingValue } from '../render/button-values.js';
import { type Click, type ClickArgs, clickedTarget, clickOf } from './click.js';
import type { ListenerDeps } from './deps.js';

/** The core's rating: sends it to the platform once, for the asker only. */
export type Rate = (
  input: { contextKey: string; rating: Rating; userId: string; locale: Locale },
  scope: RequestScope,
) => Promise<RateOutcome>;

type RatingDeps = Pick<ListenerDeps, 'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'rate'>;

export function ratingClickListener(deps: RatingDeps): (args: ClickArgs) => Promise<void> {
  return async (args) => {
    const click = clickOf(args, deps.logger);
    if (!click) return;
    const handling = beginHandling(args.client, deps.logger);
    // Not in the asker's turn: a rating asks no question, and need not wait for one.
    await deps.inFlight.track(handling, rate(deps, handling, click), 'rating click handling failed');
  };
}

async function rate(deps: RatingDeps, handling: Handling, click: Click): Promise<void> {
  const { logger } = handling;
  const { payload, userId } = click;
  const target = clickedTarget(payload);
  const { locale } = await deps.users.lookup(handling.client, click.teamId, userId, logger);
  const value = decodeRatingValue(click.value ?? '');
  if (!target) return;
  if (!value) {
    logger.warn({}, 'ignored a rating click with a malformed value');
    await tell(deps.responder, handling, target, userId, {
      kind: 'notice',
      notice: 'context_expired',
      locale,
    });
    return;
  }
  const outcome = await deps.rate(
    { contextKey: value.k, rating: value.r, userId, locale },
    { requestId: handling.requestId },
  );
  deps.onEvent('rating', outcome.kind);
  if (outcome.kind === 'rated') {
    logger.info({ contextKey: value.k, rating: outcome.rating }, 'answer rated');
    await showRated(deps, handling, payload, locale, userId, outcome.rating);
    return;
  }
  if (outcome.kind === 'notice') {
    await tell(deps.responder, handling, target, userId, outcome.reply);
    // A second click on an answer already rated: make sure the message shows the rating.
    if (outcome.reply.notice === 'already_rated' && outcome.rating) {
      await showRated(deps, handling, payload, locale, userId, outcome.rating);
    }
    return;
  }
  await tell(deps.responder, handling, target, userId, {
    kind: 'failure',
    reason: outcome.reason,
    retryQuestion: '',
    retryDocId: undefined,
    locale,
  });
}

async function showRated(
  deps: RatingDeps,
  handling: Handling,
  payload: BlockActionPayload,
  locale: Locale,
  userId: string,
  rating: Rating,
): Promise<void> {
  const channel = payload.channel?.id ?? payload.container?.channel_id;
  const message = payload.message;
  // Without the message's blocks an update would replace the whole answer with the rated line.
  if (!channel || !message?.blocks || message.blocks.length === 0) return;
  const blocks = replaceRatingButtons(message.blocks, renderRatedLine(locale, userId, rating));
  await deps.responder.update(handling, channel, message.ts, { text: message.text ?? '', blocks });
}
