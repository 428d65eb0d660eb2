// The review loop's core: what the robot answered from each entry, the cards that tell the entry's
// owners about a 👎 or an unanswered question (one card per entry or per question, counted), and the
// edit that fixes the entry. It knows the platform client and its stores; the adapter shows the cards
// (ReviewBoard) and decides who is an operator.
import { LRUCache } from 'lru-cache';
import type { AnsweredQuestion } from '../conversation/conversation.js';
import type { AnswerContext } from '../conversation/types.js';
import { isPlatformError, type PlatformFailureKind, platformFailureKind } from '../platform/errors.js';
import type { RobotAnswer, RobotAskRequest, RobotDocUpdateRequest } from '../platform/schemas.js';
import { CardRefreshes } from './card-refreshes.js';
import { textHash } from './edit-plan.js';
import { cardIdOfEntry, cardIdOfQuestion, isTooLittleToReview, linkKeyOf } from './normalise.js';
import type { EntrySnapshotStore, OpenCards, QuestionLinkStore, ReviewStore } from './stores.js';
import type {
  AskerToNotify,
  EntryEdit,
  EntrySnapshot,
  MessageLocation,
  QuestionLink,
  ReasonNote,
  ReviewCard,
} from './types.js';

/** Names the Slack event or click being handled, on every log line written for it. */
export interface ReviewScope {
  requestId?: string;
}

/** Where cards are shown and askers told: the adapter's side of the loop. */
export interface ReviewBoard {
  /** Posts the card, or updates it where it is posted; returns where it is now. */
  show(card: ReviewCard, scope: ReviewScope): Promise<MessageLocation>;
  /** Tells an asker that the entry behind their answer was updated. */
  tellAskerFixed(asker: AskerToNotify, scope: ReviewScope): Promise<void>;
  /** Gives an asker an operator's own answer to their question, where they asked it, as from that person. */
  tellAskerAnswered(asker: AskerToNotify, answer: OperatorAnswer, scope: ReviewScope): Promise<void>;
  /**
   * A link to a message where a question was asked (Slack: a permalink); `direct_message` in a DM and
   * `assistant_panel` in the panel, which operators cannot open.
   */
  linkTo(
    where: { conversationId: string; messageId: string | undefined },
    scope: ReviewScope,
  ): Promise<string | 'direct_message' | 'assistant_panel' | undefined>;
  /** Tells an asker that their question was linked to the entry that answers it, with Ask again. */
  tellAskerLinked(asker: AskerToNotify, link: QuestionLink, scope: ReviewScope): Promise<void>;
}

/** An operator's answer to the askers of an unanswered question, in their own words. */
export interface OperatorAnswer {
  operatorId: string;
  text: string;
}

/** What the robot answers from an entry, asked by its docId: `unknown` when nothing. */
export type EntryLookup =
  | { kind: 'found'; docId: string; entryTitle: string | undefined }
  | { kind: 'unknown' }
  | { kind: 'unavailable' };

export type LinkOutcome = 'linked' | 'already_handled' | 'no_card';
export type UnlinkOutcome = 'unlinked' | 'not_linked' | 'no_card';

export type AnswerAskersOutcome =
  | { kind: 'answered'; told: number; notTold: number }
  | { kind: 'already_handled' }
  | { kind: 'no_card' };

/** The part of the platform client the loop needs. */
export interface KnowledgeApi {
  /** Asked by an entry's docId only, to read it: the platform has no call that reads an entry. */
  askRobot(request: RobotAskRequest, options?: ReviewScope): Promise<RobotAnswer>;
  updateRobotDoc(
    request: RobotDocUpdateRequest,
    options?: ReviewScope,
  ): Promise<{ retCode: string; retMsg: string | undefined }>;
}

export interface ReviewLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ReviewMetrics {
  card?(action: 'posted' | 'updated' | 'failed'): void;
  edit?(outcome: string): void;
}

export interface ReviewSettings {
  /** The enterprise the robot is asked for (an entry is read by asking it). */
  sysNum: string;
  /** Cards are posted only where there is a review channel; without one, edits still work. */
  cardsEnabled: boolean;
  notifyAskersOnFix: boolean;
  /** A card's message is refreshed for new reports at most this often (0: at every report). */
  cardRefreshMs: number;
}

export interface DislikeReport {
  context: AnswerContext;
  asker: { userId: string; displayName: string };
  /** A link to the disliked answer, or `direct_message` when it is in a DM. */
  link: string | 'direct_message' | undefined;
}

/** A reason's report: as a 👎's, its link asked for only when the reason opens a new card. */
export interface ReasonReport extends Omit<DislikeReport, 'link'> {
  link(): Promise<DislikeReport['link']>;
}

export type EditOutcome =
  | { kind: 'updated' }
  | { kind: 'refused'; platformCode: string; message: string | undefined }
  | { kind: 'unavailable'; reason: PlatformFailureKind | 'internal' };

export type DismissOutcome = 'dismissed' | 'already_handled' | 'no_card';

const MAX_REASONS = 3;
const MAX_NOTIFY = 20;
/** Other wordings an unanswered card keeps: enough to show how people ask, bounded like its askers. */
const MAX_WORDINGS = 10;
const REASON_TEXT_MAX = 500;
/** A snapshot seen again unchanged within this time is not written again (one write per entry, not per answer). */
const SNAPSHOT_REWRITE_MS = 10 * 60 * 1000;
/** What each entry was last seen as, kept up to this many characters (a few MB): one too many is written again. */
const WRITTEN_SNAPSHOT_CHARACTERS = 2_000_000;
const AUDIT_TEXT_PREVIEW = 40;
/** The robot answer type public clients read as "unknown question". */
const ANSWER_TYPE_UNANSWERED = 3;

export class KnowledgeReview {
  readonly #cards: ReviewStore;
  readonly #snapshots: EntrySnapshotStore;
  readonly #links: QuestionLinkStore;
  readonly #board: ReviewBoard;
  readonly #platform: KnowledgeApi;
  readonly #logger: ReviewLogger;
  readonly #metrics: ReviewMetrics;
  readonly #settings: ReviewSettings;
  readonly #now: () => number;
  /** docId → the snapshot last written by this process (title, answer and type, joined), and when. */
  readonly #written = new LRUCache<string, { seen: string; at: number }>({
    // Compared as they are, not hashed: a hash of every answer cost more than comparing the strings.
    maxSize: WRITTEN_SNAPSHOT_CHARACTERS,
    sizeCalculation: (written, docId) => docId.length + written.seen.length,
  });
  readonly #pending = new Set<Promise<void>>();
  readonly #refreshes: CardRefreshes<ReviewScope>;

  constructor(dependencies: {
    cards: ReviewStore;
    snapshots: EntrySnapshotStore;
    links: QuestionLinkStore;
    board: ReviewBoard;
    platform: KnowledgeApi;
    logger: ReviewLogger;
    metrics?: ReviewMetrics;
    settings: ReviewSettings;
    now?: () => number;
  }) {
    this.#cards = dependencies.cards;
    this.#snapshots = dependencies.snapshots;
    this.#links = dependencies.links;
    this.#board = dependencies.board;
    this.#platform = dependencies.platform;
    this.#logger = dependencies.logger;
    this.#metrics = dependencies.metrics ?? {};
    this.#settings = dependencies.settings;
    this.#now = dependencies.now ?? Date.now;
    this.#refreshes = new CardRefreshes({
      everyMs: this.#settings.cardRefreshMs,
      now: this.#now,
      refresh: (cardId, scope) => this.#refreshCard(cardId, scope),
    });
  }

  get cardsEnabled(): boolean {
    return this.#settings.cardsEnabled;
  }

  /**
   * Notes what the robot answered: the entry's snapshot (what an edit is prefilled from) and, for an
   * unanswered question, its card. Runs beside the answer, never delaying it; failures are logged.
   */
  answered(answered: AnsweredQuestion, scope: ReviewScope = {}): void {
    this.#beside(
      this.#noteAnswer(answered, scope).catch((error: unknown) => {
        this.#logger.error({ ...scope, err: error, docId: answered.docId }, 'answer not noted for review');
      }),
    );
  }

  /** Resolves when every answer noted so far is stored (a stop waits for it). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    await this.#refreshes.flush();
  }

  async #noteAnswer(answered: AnsweredQuestion, scope: ReviewScope): Promise<void> {
    if (answered.docId && answered.answerType !== ANSWER_TYPE_UNANSWERED) {
      await this.#noteSnapshot({
        docId: answered.docId,
        questionTitle: answered.matchedQuestion?.trim() || answered.question,
        answerHtml: answered.answerHtml,
        answerType: answered.answerType,
        robotFlag: answered.robotFlag,
        seenAt: this.#now(),
      });
    }
    if (
      answered.answerType === ANSWER_TYPE_UNANSWERED &&
      this.#settings.cardsEnabled &&
      !isTooLittleToReview(answered.question)
    ) {
      // Where it was asked, as a 👎 card says it: asked before the card's lock is taken (a Slack call).
      const link = await this.#board
        .linkTo({ conversationId: answered.conversationId, messageId: answered.threadId }, scope)
        .catch((error: unknown) => {
          this.#logger.warn({ ...scope, err: error }, 'no link to an unanswered question');
          return undefined;
        });
      const opened = {
        cardId: cardIdOfQuestion(answered.question),
        kind: 'unanswered' as const,
        question: answered.question,
      };
      await this.#report(opened, scope, (base, now) => {
        return {
          ...base,
          ...withWording(base, answered.question),
          robotFlag: answered.robotFlag,
          count: base.count + 1,
          latestAsker: answered.asker,
          latestLink: link,
          latestConversation: answered.conversationId,
          notify: withAsker(base.notify, {
            userId: answered.asker.userId,
            conversationId: answered.conversationId,
            threadId: answered.threadId,
            question: answered.question,
            robotFlag: answered.robotFlag,
          }),
          updatedAt: now,
        };
      });
    }
  }

  async #noteSnapshot(snapshot: EntrySnapshot): Promise<void> {
    const seen = `${snapshot.questionTitle}\0${snapshot.answerHtml}\0${snapshot.answerType}`;
    const last = this.#written.get(snapshot.docId);
    if (last && last.seen === seen && snapshot.seenAt - last.at < SNAPSHOT_REWRITE_MS) return;
    // Noted before the write: answers from one entry arriving together write it once, not each.
    const noted = { seen, at: snapshot.seenAt };
    this.#written.set(snapshot.docId, noted);
    try {
      await this.#snapshots.put(snapshot);
    } catch (error) {
      if (this.#written.get(snapshot.docId) === noted) this.#written.delete(snapshot.docId);
      throw error;
    }
  }

  /**
   * What waits for the operators: the open cards of each kind, most reported first, at most `limit`
   * of each; undefined when there are no cards (no review channel).
   */
  async waiting(limit: number): Promise<{ disliked: OpenCards; unanswered: OpenCards } | undefined> {
    if (!this.#settings.cardsEnabled) return undefined;
    const [disliked, unanswered] = await Promise.all([
      this.#cards.openCards('disliked', limit),
      this.#cards.openCards('unanswered', limit),
    ]);
    return { disliked, unanswered };
  }

  /** A card as it is now (an operator's click opens a modal for it). */
  card(cardId: string): Promise<ReviewCard | undefined> {
    return this.#cards.get(cardId);
  }

  /** What the gateway last saw of an entry. */
  snapshot(docId: string): Promise<EntrySnapshot | undefined> {
    return this.#snapshots.get(docId);
  }

  /** A 👎 on an answer from an entry: its card counts one more, and the asker is remembered. */
  async disliked(report: DislikeReport, scope: ReviewScope = {}): Promise<void> {
    const { context } = report;
    if (!this.#settings.cardsEnabled || !context.docId) return;
    const docId = context.docId;
    const snapshot = await this.#entrySnapshot(docId, scope);
    const opened = { cardId: cardIdOfEntry(docId), kind: 'disliked' as const, question: context.question };
    await this.#report(opened, scope, (base, now) => dislikedCard(base, now, report, docId, snapshot));
  }

  async #entrySnapshot(docId: string, scope: ReviewScope): Promise<EntrySnapshot | undefined> {
    return this.#snapshots.get(docId).catch((error: unknown) => {
      this.#logger.warn(
        { ...scope, err: error, docId },
        'entry snapshot unavailable; card without the answer',
      );
      return undefined;
    });
  }

  /**
   * The asker said what was wrong with a 👎. An open card shows it among the latest reasons. A card
   * handled since (fixed, dismissed) or gone is not where the reason ends: the report opens a new card
   * with it, counted, as a new 👎 would, since the asker still finds the answer wrong.
   */
  async reasonGiven(
    report: ReasonReport,
    note: ReasonNote,
    scope: ReviewScope = {},
  ): Promise<'noted' | 'reopened' | 'no_card'> {
    const docId = report.context.docId;
    if (!this.#settings.cardsEnabled || !docId) return 'no_card';
    const text = note.text?.trim().slice(0, REASON_TEXT_MAX) || undefined;
    const reason: ReasonNote = { reason: note.reason, text, at: note.at };
    const cardId = cardIdOfEntry(docId);
    const snapshot = await this.#entrySnapshot(docId, scope);
    return this.#cards.change(cardId, async (card) => {
      const now = this.#now();
      if (card?.status === 'open') {
        const updated = { ...card, reasons: withReason(card.reasons, reason), updatedAt: now };
        return { card: await this.#show(updated, scope), result: 'noted' as const };
      }
      // Only a new card needs the link (an adapter call): an open one already has its report's.
      const link = await report.link();
      // Fixed after the asker saw the answer: the new card shows the answer they disliked, not the fix.
      const fixedSince =
        card?.status === 'fixed' && card.handledAt !== undefined && report.context.createdAt < card.handledAt
          ? card
          : undefined;
      const counted = dislikedCard(
        newCard(cardId, 'disliked', report.context.question, now),
        now,
        { ...report, link },
        docId,
        fixedSince ? undefined : snapshot,
      );
      const seen = fixedSince
        ? {
            ...counted,
            entryTitle: fixedSince.entryTitle ?? counted.entryTitle,
            answerHtml: fixedSince.answerHtml,
            answerType: fixedSince.answerType,
          }
        : counted;
      const note = fixedSince ? { ...reason, afterChangeAt: fixedSince.handledAt } : reason;
      const reopened = { ...seen, reasons: withReason(counted.reasons, note) };
      this.#logger.info(
        { ...scope, cardId, handled: card?.status ?? 'none' },
        'a reason given after its card was handled opened a new card',
      );
      return { card: await this.#show(reopened, scope), result: 'reopened' as const };
    });
  }

  /** The entry an operator linked these words to, for this robot (the conversation's LinkedEntries). */
  async entryFor(question: string, robotFlag: number | undefined): Promise<string | undefined> {
    return (await this.#links.get(linkKeyOf(question, robotFlag)))?.docId;
  }

  /**
   * Reads an entry the only way the platform allows: the robot is asked the question by the entry's
   * docId (questionFlag 1), as the operator. An entry it answers from is noted as its snapshot, so its
   * edit form is filled from it.
   */
  async lookUpEntry(
    input: {
      docId: string;
      robotFlag: number | undefined;
      question: string;
      asker: { partnerId: string; displayName: string };
    },
    scope: ReviewScope = {},
  ): Promise<EntryLookup> {
    let answer: RobotAnswer;
    try {
      answer = await this.#platform.askRobot(
        {
          sysNum: this.#settings.sysNum,
          partnerId: input.asker.partnerId,
          uname: input.asker.displayName,
          question: input.question,
          questionFlag: 1,
          requestText: input.docId,
          ...(input.robotFlag === undefined ? {} : { robotFlag: input.robotFlag }),
        },
        scope,
      );
    } catch (error) {
      this.#logger.warn({ ...scope, err: error, docId: input.docId }, 'entry not read: the robot failed');
      return { kind: 'unavailable' };
    }
    // The robot answers an unknown docId as it answers a question it does not know.
    if (answer.answerType === ANSWER_TYPE_UNANSWERED || answer.docId !== input.docId)
      return { kind: 'unknown' };
    const entryTitle = answer.question?.trim() || undefined;
    await this.#noteSnapshot({
      docId: input.docId,
      questionTitle: entryTitle ?? input.question,
      answerHtml: answer.answer,
      answerType: answer.answerType,
      robotFlag: answer.robotFlag,
      seenAt: this.#now(),
    }).catch((error: unknown) => {
      this.#logger.warn({ ...scope, err: error, docId: input.docId }, 'entry snapshot not written');
    });
    return { kind: 'found', docId: input.docId, entryTitle };
  }

  /**
   * Links an unanswered question to the entry that answers it, for the robot it was asked of: a later
   * "no match" to the same words is answered from the entry. The card says so and offers to remove
   * the link; its askers are told, with Ask again (when the loop tells askers of fixes).
   */
  async link(
    cardId: string,
    entry: { docId: string; entryTitle: string | undefined },
    operatorId: string,
    scope: ReviewScope = {},
  ): Promise<LinkOutcome> {
    const linked = await this.#cards.change<
      { link: QuestionLink; askers: AskerToNotify[] } | 'already_handled' | 'no_card'
    >(cardId, async (card) => {
      if (!card) return { result: 'no_card' };
      if (card.kind !== 'unanswered' || card.status !== 'open') return { result: 'already_handled' };
      const now = this.#now();
      const link: QuestionLink = {
        question: card.question,
        docId: entry.docId,
        robotFlag: card.robotFlag,
        entryTitle: entry.entryTitle,
        linkedBy: operatorId,
        linkedAt: now,
      };
      // Stored before the card says so: a card that says "linked" always has its link.
      await this.#links.put(linkKeyOf(card.question, card.robotFlag), link);
      const shown: ReviewCard = {
        ...card,
        status: 'linked',
        linked: { docId: entry.docId, entryTitle: entry.entryTitle, robotFlag: card.robotFlag },
        handledBy: operatorId,
        handledAt: now,
        notify: [],
        updatedAt: now,
      };
      return { card: await this.#show(shown, scope), result: { link, askers: card.notify } };
    });
    if (linked === 'no_card' || linked === 'already_handled') return linked;
    this.#logger.info(
      {
        ...scope,
        audit: 'review_question_linked',
        operator: operatorId,
        cardId,
        docId: entry.docId,
        robotFlag: linked.link.robotFlag,
      },
      'unanswered question linked to an entry',
    );
    // Told beside the operator's modal, which must be answered within Slack's 3 s; a stop waits for it.
    if (this.#settings.notifyAskersOnFix) this.#beside(this.#tellLinked(linked.askers, linked.link, scope));
    return 'linked';
  }

  async #tellLinked(askers: AskerToNotify[], link: QuestionLink, scope: ReviewScope): Promise<void> {
    for (const asker of dedupeAskers(askers)) {
      await this.#board.tellAskerLinked(asker, link, scope).catch((error: unknown) => {
        this.#logger.warn({ ...scope, err: error, userId: asker.userId }, 'asker not told of the link');
      });
    }
  }

  /** Runs work beside the caller, tracked so that `settled` waits for it. */
  #beside(work: Promise<void>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  /** Removes a question's link: the robot's "no match" stands again, and the card is open (again). */
  async unlink(cardId: string, operatorId: string, scope: ReviewScope = {}): Promise<UnlinkOutcome> {
    return this.#cards.change(cardId, async (card) => {
      if (!card) return { result: 'no_card' as const };
      const linked = card.status === 'linked' || card.status === 'open' ? card.linked : undefined;
      if (!linked) return { result: 'not_linked' as const };
      await this.#links.delete(linkKeyOf(card.question, linked.robotFlag));
      const now = this.#now();
      const reopened: ReviewCard = {
        ...card,
        status: 'open',
        linked: undefined,
        ...(card.status === 'linked' ? { handledBy: undefined, handledAt: undefined } : {}),
        updatedAt: now,
      };
      this.#logger.info(
        {
          ...scope,
          audit: 'review_question_unlinked',
          operator: operatorId,
          cardId,
          docId: card.linked?.docId,
        },
        'link of an unanswered question removed',
      );
      return { card: await this.#show(reopened, scope), result: 'unlinked' as const };
    });
  }

  async dismiss(cardId: string, operatorId: string, scope: ReviewScope = {}): Promise<DismissOutcome> {
    return this.#cards.change(cardId, async (card) => {
      if (!card) return { result: 'no_card' as const };
      if (card.status !== 'open') return { result: 'already_handled' as const };
      const now = this.#now();
      const dismissed: ReviewCard = {
        ...card,
        status: 'dismissed',
        handledBy: operatorId,
        handledAt: now,
        updatedAt: now,
      };
      this.#logger.info(
        { ...scope, audit: 'review_card_dismissed', operator: operatorId, cardId },
        'review card dismissed',
      );
      return { card: await this.#show(dismissed, scope), result: 'dismissed' as const };
    });
  }

  /**
   * An operator answered an unanswered question's askers from its card: the card is marked answered
   * (under its lock, so two operators cannot both answer), then each asker is given the answer where
   * they asked. An asker who could not be told is logged and counted.
   */
  async answerAskers(
    cardId: string,
    answer: OperatorAnswer,
    scope: ReviewScope = {},
  ): Promise<AnswerAskersOutcome> {
    const askers = await this.#cards.change<AskerToNotify[] | 'no_card' | 'already_handled'>(
      cardId,
      async (card) => {
        if (!card) return { result: 'no_card' };
        if (card.status !== 'open' || card.kind !== 'unanswered') return { result: 'already_handled' };
        const now = this.#now();
        const answered: ReviewCard = {
          ...card,
          status: 'answered',
          handledBy: answer.operatorId,
          handledAt: now,
          notify: [],
          updatedAt: now,
        };
        return { card: await this.#show(answered, scope), result: card.notify };
      },
    );
    if (askers === 'no_card' || askers === 'already_handled') return { kind: askers };
    this.#logger.info(
      { ...scope, audit: 'review_card_answered', operator: answer.operatorId, cardId, askers: askers.length },
      'unanswered question answered by an operator',
    );
    let told = 0;
    const toTell = dedupeAskers(askers);
    for (const asker of toTell) {
      try {
        await this.#board.tellAskerAnswered(asker, answer, scope);
        told += 1;
      } catch (error) {
        this.#logger.warn(
          { ...scope, err: error, cardId, userId: asker.userId },
          "asker not given the operator's answer",
        );
      }
    }
    return { kind: 'answered', told, notTold: toTell.length - told };
  }

  /** Sends an edit to the platform; logs the audit line. The card and askers follow in `markFixed`. */
  async applyEdit(
    edit: EntryEdit,
    changedFields: string[],
    operatorId: string,
    scope: ReviewScope = {},
  ): Promise<EditOutcome> {
    const outcome = await this.#send(edit, scope);
    this.#metrics.edit?.(outcome.kind === 'unavailable' ? `unavailable_${outcome.reason}` : outcome.kind);
    // A failed update is a warning, so a log at warn (the demo's) shows it; a platform that answered
    // with a known code needs no stack, and an unexpected error was logged with its own in #send.
    const log = outcome.kind === 'updated' ? this.#logger.info : this.#logger.warn;
    log.call(
      this.#logger,
      {
        ...scope,
        audit: 'knowledge_entry_update',
        operator: operatorId,
        docId: edit.docId,
        robotFlag: edit.robotFlag,
        changed: auditedChanges(edit, changedFields),
        result: outcome.kind,
        ...(outcome.kind === 'refused' ? { platformCode: outcome.platformCode } : {}),
        ...(outcome.kind === 'unavailable' ? { failure: outcome.reason } : {}),
        ...(outcome.kind === 'refused' && outcome.message ? { platformMessage: outcome.message } : {}),
      },
      outcome.kind === 'updated' ? 'knowledge entry updated' : 'knowledge entry update failed',
    );
    return outcome;
  }

  async #send(edit: EntryEdit, scope: ReviewScope): Promise<EditOutcome> {
    try {
      await this.#platform.updateRobotDoc(edit, scope);
      return { kind: 'updated' };
    } catch (error) {
      if (!isPlatformError(error)) {
        this.#logger.error(
          { ...scope, err: error, docId: edit.docId },
          'knowledge update failed unexpectedly',
        );
        return { kind: 'unavailable', reason: 'internal' };
      }
      if (error.code === 'PLATFORM_CODE') {
        return { kind: 'refused', platformCode: error.platformCode, message: error.platformMessage };
      }
      if (error.code === 'PLATFORM_REQUEST_INVALID') {
        return { kind: 'refused', platformCode: 'invalid_request', message: error.message };
      }
      return { kind: 'unavailable', reason: platformFailureKind(error) };
    }
  }

  /**
   * After an update: the entry's open card shows who fixed it and what changed, and the askers behind
   * it are told (when set to). The snapshot takes the new texts, so the next edit starts from them.
   */
  async markFixed(
    edit: EntryEdit,
    changedFields: string[],
    operatorId: string,
    options: { cardId?: string | undefined } = {},
    scope: ReviewScope = {},
  ): Promise<void> {
    await this.#refreshSnapshot(edit, scope);
    const cardIds = new Set([cardIdOfEntry(edit.docId), ...(options.cardId ? [options.cardId] : [])]);
    const toNotify: AskerToNotify[] = [];
    for (const cardId of cardIds) {
      await this.#cards
        .change(cardId, async (card) => {
          if (card?.status !== 'open') return { result: undefined };
          const now = this.#now();
          const fixed: ReviewCard = {
            ...card,
            status: 'fixed',
            handledBy: operatorId,
            handledAt: now,
            changedFields,
            notify: [],
            updatedAt: now,
          };
          toNotify.push(...card.notify);
          return { card: await this.#show(fixed, scope), result: undefined };
        })
        .catch((error: unknown) => {
          this.#logger.error({ ...scope, err: error, cardId }, 'review card not marked fixed');
        });
    }
    if (!this.#settings.notifyAskersOnFix) return;
    for (const asker of dedupeAskers(toNotify)) {
      await this.#board.tellAskerFixed(asker, scope).catch((error: unknown) => {
        this.#logger.warn({ ...scope, err: error, userId: asker.userId }, 'asker not told of the fix');
      });
    }
  }

  async #refreshSnapshot(edit: EntryEdit, scope: ReviewScope): Promise<void> {
    if (edit.questionTitle === undefined && edit.answerDesc === undefined) return;
    try {
      const known = await this.#snapshots.get(edit.docId);
      if (!known) return;
      await this.#snapshots.put({
        ...known,
        questionTitle: edit.questionTitle ?? known.questionTitle,
        answerHtml: edit.answerDesc ?? known.answerHtml,
        seenAt: this.#now(),
      });
      this.#written.delete(edit.docId);
    } catch (error) {
      this.#logger.warn(
        { ...scope, err: error, docId: edit.docId },
        'entry snapshot not refreshed after the edit',
      );
    }
  }

  /**
   * Counts a report on a card under its lock, then posts or updates the card. `next` gets the open
   * card, or a new one opened with the report's question: a card handled before starts again as a new
   * post, the old one keeping its record.
   */
  async #report(
    opened: { cardId: string; kind: ReviewCard['kind']; question: string },
    scope: ReviewScope,
    next: (open: ReviewCard, now: number) => ReviewCard,
  ): Promise<void> {
    const { cardId, kind, question } = opened;
    await this.#cards.change(cardId, async (card) => {
      const now = this.#now();
      // A linked question asked again without an answer: the new card says its link did not answer.
      const linked = card?.status === 'linked' ? card.linked : undefined;
      const open = card?.status === 'open' ? card : { ...newCard(cardId, kind, question, now), linked };
      const counted = next(open, now);
      // A card already in the channel shows the new count at its next refresh, a new one at once.
      if (counted.posted && !this.#refreshes.mayShowNow(cardId, scope))
        return { card: counted, result: undefined };
      return { card: await this.#show(counted, scope), result: undefined };
    });
  }

  /** Shows a card as stored now, for the reports counted since it was last shown. */
  async #refreshCard(cardId: string, scope: ReviewScope): Promise<void> {
    try {
      await this.#cards.change(cardId, async (card) =>
        card ? { card: await this.#show(card, scope), result: undefined } : { result: undefined },
      );
    } catch (error) {
      this.#logger.error({ ...scope, err: error, cardId }, 'review card not refreshed');
    }
  }

  /** Shows the card; on failure the card is kept unshown (or as shown before) and the count is not lost. */
  async #show(card: ReviewCard, scope: ReviewScope): Promise<ReviewCard> {
    try {
      const posted = await this.#board.show(card, scope);
      this.#refreshes.shown(card.id);
      this.#metrics.card?.(card.posted ? 'updated' : 'posted');
      return { ...card, posted };
    } catch (error) {
      this.#metrics.card?.('failed');
      this.#logger.error({ ...scope, err: error, cardId: card.id }, 'review card not shown');
      return card;
    }
  }
}

/** A disliked card with one more 👎: the entry as last seen, the asker's question, remembered to tell. */
function dislikedCard(
  base: ReviewCard,
  now: number,
  report: DislikeReport,
  docId: string,
  snapshot: EntrySnapshot | undefined,
): ReviewCard {
  const { context } = report;
  return {
    ...base,
    docId,
    entryTitle: snapshot?.questionTitle ?? context.docName,
    answerHtml: snapshot?.answerHtml ?? base.answerHtml,
    answerType: snapshot?.answerType ?? base.answerType,
    question: context.question,
    robotFlag: context.robotFlag,
    count: base.count + 1,
    latestAsker: report.asker,
    latestLink: report.link,
    latestConversation: context.conversationId,
    notify: withAsker(base.notify, {
      userId: report.asker.userId,
      conversationId: context.conversationId,
      threadId: context.threadId,
      question: context.question,
      robotFlag: context.robotFlag,
    }),
    updatedAt: now,
  };
}

function withReason(reasons: ReasonNote[], reason: ReasonNote): ReasonNote[] {
  return [reason, ...reasons].slice(0, MAX_REASONS);
}

/** A card before its first report is counted, opened with the question that report asks. */
function newCard(id: string, kind: ReviewCard['kind'], question: string, now: number): ReviewCard {
  return {
    id,
    kind,
    docId: undefined,
    entryTitle: undefined,
    answerHtml: undefined,
    answerType: undefined,
    question,
    otherWordings: [],
    robotFlag: undefined,
    linked: undefined,
    count: 0,
    reasons: [],
    latestAsker: undefined,
    latestLink: undefined,
    latestConversation: undefined,
    notify: [],
    status: 'open',
    handledBy: undefined,
    handledAt: undefined,
    changedFields: [],
    posted: undefined,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * An unanswered card keeps the wording it was opened with, which is whole and was seen first; each
 * other wording is listed once (as typed, differing from the first and each other by more than spaces).
 */
function withWording(card: ReviewCard, question: string): Pick<ReviewCard, 'question' | 'otherWordings'> {
  const known = [card.question, ...card.otherWordings];
  const sameText = (wording: string) =>
    wording.trim().replace(/\s+/g, ' ') === question.trim().replace(/\s+/g, ' ');
  if (known.some(sameText)) return { question: card.question, otherWordings: card.otherWordings };
  return { question: card.question, otherWordings: [...card.otherWordings, question].slice(-MAX_WORDINGS) };
}

/** The asker added once per user and thread, newest last, the oldest dropped past the cap. */
function withAsker(notify: AskerToNotify[], asker: AskerToNotify): AskerToNotify[] {
  const others = notify.filter(
    (known) =>
      known.userId !== asker.userId ||
      known.conversationId !== asker.conversationId ||
      known.threadId !== asker.threadId,
  );
  return [...others, asker].slice(-MAX_NOTIFY);
}

function dedupeAskers(askers: AskerToNotify[]): AskerToNotify[] {
  return askers.reduce<AskerToNotify[]>((kept, asker) => withAsker(kept, asker), []);
}

/** The audit line's view of a change: flags as they are, texts shortened and hashed, never whole. */
function auditedChanges(edit: EntryEdit, changedFields: string[]): Record<string, unknown> {
  const audited: Record<string, unknown> = {};
  for (const field of changedFields) {
    const value: unknown = Reflect.get(edit, field);
    if (typeof value === 'string' && (field === 'questionTitle' || field === 'answerDesc')) {
      audited[field] = {
        chars: [...value].length,
        sha256: textHash(value).slice(0, 16),
        ...(field === 'questionTitle' ? { preview: [...value].slice(0, AUDIT_TEXT_PREVIEW).join('') } : {}),
      };
    } else {
      audited[field] = value;
    }
  }
  return audited;
}
