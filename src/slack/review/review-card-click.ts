// A review card's buttons, for operators only: anyone else is told why, and nothing changes.
import { errorFields } from '../../logging/error-fields.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type Click, type ClickArgs, clickedTarget, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { decodeReviewCardValue } from '../kit/button-values.js';
import { type CardDeps, NOT_OPEN, openUnanswered } from './card-answers.js';
import { renderAnswerAskersModal, renderLinkEntryModal } from './card-modals.js';
import { openEditModal } from './edit-entry.js';
import {
  ACTION_REVIEW_ANSWER,
  ACTION_REVIEW_DISMISS,
  ACTION_REVIEW_EDIT,
  ACTION_REVIEW_LINK,
  ACTION_REVIEW_UNLINK,
} from './ids.js';
import { t } from './messages.js';

/** Each card button by its action id (which also names its events), and the label its refusals are counted by. */
const REFUSAL_LABELS = {
  [ACTION_REVIEW_EDIT]: 'card_edit',
  [ACTION_REVIEW_DISMISS]: 'card_dismiss',
  [ACTION_REVIEW_ANSWER]: 'card_answer',
  [ACTION_REVIEW_LINK]: 'card_link',
  [ACTION_REVIEW_UNLINK]: 'card_unlink',
} as const;
type CardAction = keyof typeof REFUSAL_LABELS;

export function reviewCardClickListener(
  deps: CardDeps,
  action: CardAction,
): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'review card click failed', (handling, click) =>
    handleCardClick(deps, handling, click, action),
  );
}

async function handleCardClick(
  deps: CardDeps,
  handling: Handling,
  click: Click,
  action: CardAction,
): Promise<void> {
  const { payload, userId } = click;
  const target = clickedTarget(payload);
  const value = decodeReviewCardValue(click.value);
  if (!target || !value) {
    handling.logger.warn({ action }, 'ignored a review card click with a malformed value');
    return;
  }
  const { locale, timeZone } = await handling.person(userId);
  const say = (text: string) =>
    deps.responder.ephemeral(handling, { channel: target.channel, threadTs: undefined }, userId, {
      text,
      blocks: [],
    });
  const refuse = async (outcome: string, text: string) => {
    deps.onEvent(action, outcome);
    await say(text);
  };
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, REFUSAL_LABELS[action]);
  if (refusal) return refuse('refused', refusal);

  // The clicking workspace's cards only: a card of another workspace is not known here.
  const review = await deps.review.of(handling.teamId).catch((error: unknown) => {
    handling.logger.error({ ...errorFields(error), cardId: value.cardId }, 'review unavailable');
    return undefined;
  });
  if (!review) return refuse('failed', t(locale, 'card_unavailable'));

  if (action === ACTION_REVIEW_EDIT) {
    if (!value.docId || !payload.trigger_id) {
      handling.logger.warn({ cardId: value.cardId }, 'edit click without an entry or a trigger');
      return;
    }
    // A card unreadable just now still opens its form; one this workspace does not have does not.
    const card = await review.desk.card(value.cardId).catch(() => 'unavailable' as const);
    if (card === undefined) return refuse('no_card', t(locale, 'card_unknown'));
    return openEditModal(deps, review, handling, {
      event: action,
      triggerId: payload.trigger_id,
      docId: value.docId,
      cardId: value.cardId,
      locale,
      timeZone,
    });
  }

  if (action === ACTION_REVIEW_ANSWER || action === ACTION_REVIEW_LINK) {
    if (!payload.trigger_id) {
      handling.logger.warn({ cardId: value.cardId, action }, 'card click without a trigger');
      return;
    }
    const card = await openUnanswered(review.desk.card(value.cardId), handling, value.cardId);
    if (typeof card === 'string') {
      if (card === 'already_handled') deps.onEvent(action, card);
      await say(t(locale, NOT_OPEN[card]));
      return;
    }
    const input = { locale, cardId: card.id, channel: target.channel, question: card.question };
    const view =
      action === ACTION_REVIEW_ANSWER ? renderAnswerAskersModal(input) : renderLinkEntryModal(input);
    const opened = await deps.responder.openModal(handling, payload.trigger_id, view);
    deps.onEvent(action, opened === undefined ? 'failed' : 'opened');
    return;
  }

  const scope = { requestId: handling.requestId };
  if (action === ACTION_REVIEW_UNLINK) {
    const outcome = await review.desk
      .unlink(value.cardId, userId, scope)
      .catch((error: unknown): 'failed' => {
        handling.logger.error({ ...errorFields(error), cardId: value.cardId }, 'question link not removed');
        return 'failed';
      });
    deps.onEvent(action, outcome);
    if (outcome === 'failed') await say(t(locale, 'card_not_unlinked'));
    if (outcome === 'not_linked') await say(t(locale, 'card_not_linked'));
    if (outcome === 'no_card') await say(t(locale, 'card_unknown'));
    return;
  }
  const outcome = await review.desk.dismiss(value.cardId, userId, scope).catch((error: unknown): 'failed' => {
    handling.logger.error({ ...errorFields(error), cardId: value.cardId }, 'review card not dismissed');
    return 'failed';
  });
  deps.onEvent(action, outcome);
  if (outcome === 'failed') await say(t(locale, 'card_not_dismissed'));
  if (outcome === 'already_handled') await say(t(locale, 'card_already_handled'));
  if (outcome === 'no_card') await say(t(locale, 'card_unknown'));
}
