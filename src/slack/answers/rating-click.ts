// 👍 or 👎, either shape: rated once, only by the person the answer was for, then shown as rated.
import type { Locale } from '../../conversation/locale.js';
import type { AnswerContext, Rating } from '../../conversation/types.js';
import { errorFields } from '../../logging/error-fields.js';
import { todayIn } from '../../util/time-zone.js';
import { type Click, type ClickArgs, clickedTarget, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { answerWorkspace } from '../handling/workspace.js';
import { decodeRatingValue } from '../kit/button-values.js';
import { isDirectMessageChannel } from '../kit/conversations.js';
import type { RoomKit, WorkspaceReview } from '../kit/room-kit.js';
import type { BlockActionPayload } from '../transport/incoming.js';
import type { ReplyTarget, Responder } from '../transport/responder.js';
import { showOnClicked, tell } from './answerer.js';
import { RATING_BLOCK_ID, ratedText, renderRatedLine, renderRatingNotRecorded } from './blocks.js';
import type { AnswersPieces } from './pieces.js';

type RatingDeps = Pick<
  RoomKit & AnswersPieces,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'rate' | 'review' | 'ratingTally'
>;

export function ratingClickListener(deps: RatingDeps): (args: ClickArgs) => Promise<void> {
  // Not in the asker's turn: a rating asks no question, and need not wait for one.
  return trackedClickListener(deps, 'rating click handling failed', (handling, click) =>
    rate(deps, handling, click),
  );
}

async function rate(deps: RatingDeps, handling: Handling, click: Click): Promise<void> {
  const { logger } = handling;
  const { payload, userId } = click;
  const target = clickedTarget(payload);
  const { locale, displayName } = await handling.person(userId);
  const value = decodeRatingValue(click.value);
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
    // The workspace that gave the answer (a shared channel's), else the clicking one's.
    const workspace = answerWorkspace(outcome.context, handling);
    // A 👎 reaches the entry's owners, and the asker may say what was wrong.
    const review =
      outcome.rating === 2
        ? await deps.review.of(workspace).catch((error: unknown) => {
            logger.error({ ...errorFields(error), workspace }, 'the 👎 did not reach its review card');
            return undefined;
          })
        : undefined;
    const reviewing = review?.desk.cardsEnabled === true;
    await showRated(deps, handling, click, target, locale, outcome.rating, reviewing ? value.k : undefined);
    if (review && reviewing) {
      await reportDislike(review, deps, handling, payload, { userId, displayName }, outcome.context);
    }
    await countRating(deps, handling, outcome.rating, workspace);
    return;
  }
  if (outcome.kind === 'notice') {
    await tell(deps.responder, handling, target, userId, outcome.reply);
    // Rated already: the message must show it; a private answer's rated line is already under it.
    if (outcome.reply.notice === 'already_rated' && outcome.rating && !payload.container?.is_ephemeral) {
      await showRated(deps, handling, click, target, locale, outcome.rating);
    }
    return;
  }
  logger.warn({ contextKey: value.k, reason: outcome.reason }, 'rating not recorded');
  await deps.responder.ephemeral(handling, target, userId, renderRatingNotRecorded(locale, outcome.reason));
}

/**
 * Once the rater sees the rating: the statistics' count, whose failure the rater never sees. Counted
 * under the workspace that gave the answer, as its questions were, not the rater's.
 */
async function countRating(
  deps: RatingDeps,
  handling: Handling,
  rating: Rating,
  workspace: string,
): Promise<void> {
  const { store, timeZone } = deps.ratingTally;
  try {
    await store.add(workspace, todayIn(timeZone, new Date()), [rating === 1 ? 'up' : 'down']);
  } catch (error) {
    handling.logger.warn({ ...errorFields(error), rating }, 'rating not counted for the statistics');
  }
}

async function showRated(
  deps: RatingDeps,
  handling: Handling,
  click: Click,
  target: ReplyTarget,
  locale: Locale,
  rating: Rating,
  reasonContextKey?: string,
): Promise<void> {
  const { userId } = click;
  await showOnClicked(deps.responder, handling, click, target, {
    blockId: RATING_BLOCK_ID,
    block: renderRatedLine(locale, userId, rating, reasonContextKey ? { reasonContextKey } : {}),
    text: ratedText(locale, userId, rating),
  });
}

/** Puts the 👎 on the entry's review card, with a link to the answer. */
async function reportDislike(
  review: WorkspaceReview,
  deps: RatingDeps,
  handling: Handling,
  payload: BlockActionPayload,
  asker: { userId: string; displayName: string },
  context: AnswerContext,
): Promise<void> {
  const channel = payload.channel?.id ?? payload.container?.channel_id;
  // An ephemeral answer has no link of its own: the question it answers in the thread has one.
  const messageTs = payload.container?.is_ephemeral
    ? payload.container.thread_ts
    : (payload.message?.ts ?? payload.container?.message_ts);
  const link = await answerLink(deps.responder, handling, channel, messageTs);
  try {
    await review.observer.disliked(
      { context, asker, workspace: handling.teamId, link },
      { requestId: handling.requestId },
    );
  } catch (error) {
    handling.logger.error(
      { ...errorFields(error), docId: context.docId },
      'the 👎 did not reach its review card',
    );
  }
}

/** A link to the rated answer for its review card; none in a DM, which operators cannot open. */
export async function answerLink(
  responder: Pick<Responder, 'permalink'>,
  handling: Handling,
  channel: string | undefined,
  messageTs: string | undefined,
): Promise<string | 'direct_message' | undefined> {
  if (channel !== undefined && isDirectMessageChannel(channel)) return 'direct_message';
  return channel && messageTs ? responder.permalink(handling, channel, messageTs) : undefined;
}
