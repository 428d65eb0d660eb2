// An unanswered card's modals submitted: an answer for its askers, or the entry that answers it.
import { errorFields } from '../../logging/error-fields.js';
import type { AnswerAskersOutcome } from '../../review/review-desk.js';
import { openUnansweredCard, type ReviewCard } from '../../review/types.js';
import { EXPIRED, within } from '../../util/deadline.js';
import { operatorRefusal } from '../access/operator-gate.js';
import type { Handling } from '../handling/handling.js';
import { type Submission, submissionListener } from '../handling/submission.js';
import type { ViewArgs } from '../handling/tracked.js';
import { partnerIdFor } from '../handling/user-directory.js';
import type { RoomKit } from '../kit/room-kit.js';
import { editModalView } from './edit-entry.js';
import {
  ANSWER_TEXT_BLOCK_ID,
  type CardModalMetadata,
  LINK_DOC_BLOCK_ID,
  readCardModalMetadata,
  readLinkedDocId,
  readOperatorAnswer,
} from './forms.js';
import { t } from './messages.js';
import { robotWord } from './words.js';

/** What a review card's clicks and its modals' submissions read of the room kit. */
export type CardDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'review' | 'access'
>;

export function answerAskersSubmitListener(deps: CardDeps): (args: ViewArgs) => Promise<void> {
  return submissionListener(
    deps,
    {
      name: 'answer-the-askers submission',
      metadata: (view) => readCardModalMetadata(view.private_metadata),
    },
    (handling, submission) => submitAnswer(deps, handling, submission),
  );
}

async function submitAnswer(
  deps: CardDeps,
  handling: Handling,
  { view, userId, metadata, ack }: Submission<CardModalMetadata>,
): Promise<void> {
  const { locale } = await handling.person(userId);
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'card_answer_submit');
  if (refusal) {
    deps.onEvent('review_answer_submit', 'refused');
    await ack({ response_action: 'errors', errors: { [ANSWER_TEXT_BLOCK_ID]: refusal } });
    return;
  }
  const text = readOperatorAnswer(view);
  if (text === undefined) {
    await ack({
      response_action: 'errors',
      errors: { [ANSWER_TEXT_BLOCK_ID]: t(locale, 'answer_askers_required') },
    });
    return;
  }
  // The modal closes at once; the askers are told after, however long Slack takes for each.
  await ack();
  const outcome = await deps.review
    .of(handling.teamId)
    .then((review) =>
      review.desk.answerAskers(
        metadata.cardId,
        { operatorId: userId, text },
        { requestId: handling.requestId },
      ),
    )
    .catch((error: unknown): 'failed' => {
      handling.logger.error({ ...errorFields(error), cardId: metadata.cardId }, 'askers not answered');
      return 'failed';
    });
  deps.onEvent('review_answer_submit', outcome === 'failed' ? 'failed' : outcome.kind);
  await deps.responder.ephemeral(handling, { channel: metadata.channel, threadTs: undefined }, userId, {
    text: outcomeText(locale, outcome),
    blocks: [],
  });
}

function outcomeText(locale: Parameters<typeof t>[0], outcome: AnswerAskersOutcome | 'failed'): string {
  if (outcome === 'failed') return t(locale, 'answer_askers_failed');
  if (outcome.kind !== 'answered') return t(locale, NOT_OPEN[outcome.kind]);
  return t(locale, 'answer_askers_sent', { told: outcome.told, notTold: outcome.notTold });
}

export function linkEntrySubmitListener(deps: CardDeps): (args: ViewArgs) => Promise<void> {
  return submissionListener(
    deps,
    { name: 'link-to-an-entry submission', metadata: (view) => readCardModalMetadata(view.private_metadata) },
    (handling, submission) => submitLink(deps, handling, submission),
  );
}

async function submitLink(
  deps: CardDeps,
  handling: Handling,
  { view, userId, metadata, ack }: Submission<CardModalMetadata>,
): Promise<void> {
  const { locale, timeZone, displayName } = await handling.person(userId);
  const refuse = async (outcome: string, text: string) => {
    deps.onEvent('review_link_submit', outcome);
    await ack({ response_action: 'errors', errors: { [LINK_DOC_BLOCK_ID]: text } });
  };
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'card_link_submit');
  if (refusal) return refuse('refused', refusal);
  const docId = readLinkedDocId(view);
  if (docId === undefined) {
    await ack({
      response_action: 'errors',
      errors: { [LINK_DOC_BLOCK_ID]: t(locale, 'link_entry_invalid') },
    });
    return;
  }
  // The card, and the entry it is linked to, are the submitting workspace's own.
  const workspaceReview = deps.review.of(handling.teamId);
  const card = await openUnanswered(
    workspaceReview.then((review) => review.desk.card(metadata.cardId)),
    handling,
    metadata.cardId,
  );
  if (typeof card === 'string') return refuse(card, t(locale, NOT_OPEN[card]));
  const review = await workspaceReview;

  // Checked with the robot before anything is linked: a mistyped id would answer nobody.
  const lookup = await within(
    review.desk.lookUpEntry(
      {
        docId,
        robotFlag: card.robotFlag,
        question: card.question,
        asker: { partnerId: partnerIdFor(handling.teamId, userId), displayName },
      },
      { requestId: handling.requestId },
    ),
    LOOKUP_BUDGET_MS,
  );
  if (lookup === EXPIRED || lookup.kind === 'unavailable') {
    return refuse('unchecked', t(locale, 'link_entry_unchecked'));
  }
  if (lookup.kind === 'unknown') {
    const robot = robotWord(card.robotFlag);
    return refuse('unknown_entry', t(locale, 'link_entry_unknown', { robot, docId }));
  }

  const entry = { docId, entryTitle: lookup.entryTitle };
  const linking = review.desk
    .link(metadata.cardId, entry, userId, { requestId: handling.requestId })
    .catch((error: unknown): 'failed' => {
      handling.logger.error({ ...errorFields(error), cardId: metadata.cardId }, 'question not linked');
      return 'failed';
    });
  const early = await within(linking, LINK_BUDGET_MS);
  if (early !== EXPIRED && early !== 'linked') {
    return refuse(early, t(locale, NOT_OPEN[early]));
  }
  const editForm = (banner: { kind: 'linked' | 'failed'; text: string }) =>
    editModalView(review, handling, { docId, cardId: undefined, locale, timeZone, banner });
  // The entry's edit form replaces this modal, filled from the answer just read, within Slack's 3 s even
  // when the card's lock or Slack is slow: a link not made then says so there.
  const linkedText = t(locale, 'link_entry_linked', { question: card.question });
  await ack({ response_action: 'update', view: await editForm({ kind: 'linked', text: linkedText }) });
  const outcome = await linking;
  deps.onEvent('review_link_submit', outcome);
  if (outcome === 'linked') return;
  const failure = outcome === 'failed' ? 'link_entry_not_linked' : NOT_OPEN[outcome];
  await deps.responder.updateModal(
    handling,
    view.id,
    await editForm({ kind: 'failed', text: t(locale, failure) }),
  );
}

/** The unanswered card a modal is for, while it is open; otherwise why not (NOT_OPEN says it). */
export async function openUnanswered(
  read: Promise<ReviewCard | undefined>,
  handling: Handling,
  cardId: string,
): Promise<ReviewCard | keyof typeof NOT_OPEN> {
  const card = await read.catch((error: unknown) => {
    handling.logger.error({ ...errorFields(error), cardId }, 'review card unavailable');
    return 'failed' as const;
  });
  return card === 'failed' ? card : openUnansweredCard(card);
}

/** What an operator is told of a card that could not be read, or is no longer open to link or answer. */
export const NOT_OPEN = {
  failed: 'card_unavailable',
  no_card: 'card_unknown',
  already_handled: 'card_already_handled',
} as const;

/** Budgets for reading the entry, then linking: Slack closes a submission after 3 s, the form comes last. */
const LOOKUP_BUDGET_MS = 1_500;
const LINK_BUDGET_MS = 800;
