// The review loop as answers happen: each entry's snapshot, and the cards for a 👎, a reason or no answer.
import type { AnsweredQuestion, AnswerObserver, LinkedEntries } from '../conversation/conversation.js';
import type { AnswerContext } from '../conversation/types.js';
import { ANSWER_TYPE_UNKNOWN } from '../platform/schemas.js';
import { cardIdOfEntry, cardIdOfQuestion, isTooLittleToReview, linkKeyOf } from './normalise.js';
import { newCard, type ReviewCards, type ReviewScope, withAsker } from './review-cards.js';
import type { QuestionLinkStore } from './stores.js';
import type { AskerToNotify, EntrySnapshot, ReasonNote, ReviewCard } from './types.js';

export interface DislikeReport {
  context: AnswerContext;
  asker: { userId: string; displayName: string };
  /** The adapter's workspace of the answer, kept with the asker to tell. */
  workspace?: string | undefined;
  /** A link to the disliked answer, or `direct_message` when it is in a DM. */
  link: string | 'direct_message' | undefined;
}

/** A reason's report: as a 👎's, its link asked for only when the reason opens a new card. */
export interface ReasonReport extends Omit<DislikeReport, 'link'> {
  link(): Promise<DislikeReport['link']>;
}

const MAX_REASONS = 3;
/** Other wordings an unanswered card keeps: enough to show how people ask, bounded like its askers. */
const MAX_WORDINGS = 10;
const REASON_TEXT_MAX = 500;

export class ReviewObserver implements AnswerObserver, LinkedEntries {
  readonly #cards: ReviewCards;
  readonly #links: QuestionLinkStore;
  /** Cards are kept only where there is a review channel; without one, entries are still noted. */
  readonly #enabled: boolean;

  constructor(cards: ReviewCards, links: QuestionLinkStore, enabled: boolean) {
    this.#cards = cards;
    this.#links = links;
    this.#enabled = enabled;
  }

  /** Notes an answer's entry snapshot, or an unanswered question's card, beside the answer; never throws. */
  answered(answered: AnsweredQuestion, scope: ReviewScope = {}): void {
    this.#cards.beside(
      this.#noteAnswer(answered, scope).catch((error: unknown) => {
        this.#cards.logger.error(
          { ...scope, err: error, docId: answered.docId },
          'answer not noted for review',
        );
      }),
    );
  }

  async #noteAnswer(answered: AnsweredQuestion, scope: ReviewScope): Promise<void> {
    const cards = this.#cards;
    if (answered.docId && answered.answerType !== ANSWER_TYPE_UNKNOWN) {
      await cards.noteSnapshot({
        docId: answered.docId,
        questionTitle: answered.matchedQuestion?.trim() || answered.question,
        answerHtml: answered.answerHtml,
        answerType: answered.answerType,
        robotFlag: answered.robotFlag,
        seenAt: cards.now(),
      });
    }
    if (
      answered.answerType !== ANSWER_TYPE_UNKNOWN ||
      !this.#enabled ||
      isTooLittleToReview(answered.question)
    )
      return;
    // Where it was asked, as a 👎 card says it: asked before the card's lock is taken (a Slack call).
    const link = await cards.board
      .linkTo({ conversationId: answered.conversationId, messageId: answered.threadId }, scope)
      .catch((error: unknown) => {
        cards.logger.warn({ ...scope, err: error }, 'no link to an unanswered question');
        return undefined;
      });
    const opened = {
      cardId: cardIdOfQuestion(answered.question),
      kind: 'unanswered' as const,
      question: answered.question,
    };
    await cards.report(opened, scope, (base, now) => ({
      ...base,
      ...withWording(base, answered.question),
      ...reported(base, now, { ...answered, link }),
    }));
  }

  /** A 👎 on an answer from an entry: its card counts one more, and the asker is remembered. */
  async disliked(report: DislikeReport, scope: ReviewScope = {}): Promise<void> {
    const { context } = report;
    if (!this.#enabled || !context.docId) return;
    const docId = context.docId;
    const snapshot = await this.#entrySnapshot(docId, scope);
    const opened = { cardId: cardIdOfEntry(docId), kind: 'disliked' as const, question: context.question };
    await this.#cards.report(opened, scope, (base, now) => dislikedCard(base, now, report, docId, snapshot));
  }

  async #entrySnapshot(docId: string, scope: ReviewScope): Promise<EntrySnapshot | undefined> {
    return this.#cards.snapshots.get(docId).catch((error: unknown) => {
      this.#cards.logger.warn(
        { ...scope, err: error, docId },
        'entry snapshot unavailable; card without the answer',
      );
      return undefined;
    });
  }

  /** A 👎's reason: on the open card, or on a new one, counted, when the card was handled since or is gone. */
  async reasonGiven(
    report: ReasonReport,
    note: ReasonNote,
    scope: ReviewScope = {},
  ): Promise<'noted' | 'reopened' | 'no_card'> {
    const cards = this.#cards;
    const docId = report.context.docId;
    if (!this.#enabled || !docId) return 'no_card';
    const text = note.text?.trim().slice(0, REASON_TEXT_MAX) || undefined;
    const reason: ReasonNote = { reason: note.reason, text, at: note.at };
    const cardId = cardIdOfEntry(docId);
    const snapshot = await this.#entrySnapshot(docId, scope);
    return cards.update(cardId, scope, async (card, now) => {
      if (card?.status === 'open') {
        return {
          card: { ...card, reasons: withReason(card.reasons, reason), updatedAt: now },
          result: 'noted',
        };
      }
      // Only a new card needs the link (an adapter call): an open one already has its report's.
      const link = await report.link();
      // Fixed after the asker saw the answer: the new card shows the answer they disliked, not the fix.
      const fixedSince =
        card?.status === 'fixed' && card.handledAt !== undefined && report.context.createdAt < card.handledAt
          ? card
          : undefined;
      const seen = fixedSince
        ? {
            questionTitle: fixedSince.entryTitle,
            answerHtml: fixedSince.answerHtml,
            answerType: fixedSince.answerType,
          }
        : snapshot;
      const counted = dislikedCard(
        newCard(cardId, 'disliked', report.context.question, now),
        now,
        { ...report, link },
        docId,
        seen,
      );
      const note = fixedSince ? { ...reason, afterChangeAt: fixedSince.handledAt } : reason;
      cards.logger.info(
        { ...scope, cardId, handled: card?.status ?? 'none' },
        'a reason given after its card was handled opened a new card',
      );
      return { card: { ...counted, reasons: withReason(counted.reasons, note) }, result: 'reopened' };
    });
  }

  /** The entry an operator linked these words to, for this robot, among this loop's links. */
  async entryFor(question: string, robotFlag: number | undefined): Promise<string | undefined> {
    return (await this.#links.get(linkKeyOf(question, robotFlag)))?.docId;
  }
}

/** A disliked card with one more 👎: the entry as seen, the asker's question, remembered to tell. */
function dislikedCard(
  base: ReviewCard,
  now: number,
  report: DislikeReport,
  docId: string,
  seen:
    | { questionTitle: string | undefined; answerHtml?: string | undefined; answerType?: number | undefined }
    | undefined,
): ReviewCard {
  const { context } = report;
  return {
    ...base,
    docId,
    entryTitle: seen?.questionTitle ?? context.docName,
    answerHtml: seen?.answerHtml ?? base.answerHtml,
    answerType: seen?.answerType ?? base.answerType,
    question: context.question,
    ...reported(base, now, {
      ...context,
      asker: report.asker,
      workspace: report.workspace,
      link: report.link,
    }),
  };
}

/** One more report on a card: counted, shown as the latest, its asker remembered to tell. */
function reported(
  base: ReviewCard,
  now: number,
  report: Omit<AskerToNotify, 'userId'> & Pick<DislikeReport, 'asker' | 'link'>,
): Partial<ReviewCard> {
  return {
    robotFlag: report.robotFlag,
    count: base.count + 1,
    latestAsker: report.asker,
    latestLink: report.link,
    latestConversation: report.conversationId,
    notify: withAsker(base.notify, {
      userId: report.asker.userId,
      ...(report.workspace !== undefined && { workspace: report.workspace }),
      conversationId: report.conversationId,
      threadId: report.threadId,
      question: report.question,
      robotFlag: report.robotFlag,
    }),
    updatedAt: now,
  };
}

function withReason(reasons: ReasonNote[], reason: ReasonNote): ReasonNote[] {
  return [reason, ...reasons].slice(0, MAX_REASONS);
}

/** An unanswered card keeps its first wording; every other one is listed once (differing beyond spaces). */
function withWording(card: ReviewCard, question: string): Pick<ReviewCard, 'question' | 'otherWordings'> {
  const known = [card.question, ...card.otherWordings];
  const sameText = (wording: string) =>
    wording.trim().replace(/\s+/g, ' ') === question.trim().replace(/\s+/g, ' ');
  if (known.some(sameText)) return { question: card.question, otherWordings: card.otherWordings };
  return { question: card.question, otherWordings: [...card.otherWordings, question].slice(-MAX_WORDINGS) };
}
