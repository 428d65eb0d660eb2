// The review loop's operators' commands: read, edit and fix an entry; dismiss, link, unlink or answer a card.
import { askingEntry } from '../conversation/conversation.js';
import { isPlatformError, type PlatformFailureKind, platformFailureKind } from '../platform/errors.js';
import {
  ANSWER_TYPE_UNKNOWN,
  type RobotAnswer,
  type RobotAskRequest,
  type RobotDocUpdateRequest,
} from '../platform/schemas.js';
import { textHash } from './edit-plan.js';
import { cardIdOfEntry, linkKeyOf } from './normalise.js';
import {
  dedupeAskers,
  handled,
  type OperatorAnswer,
  type ReviewCards,
  type ReviewScope,
} from './review-cards.js';
import type { OpenCards, QuestionLinkStore } from './stores.js';
import {
  type AskerToNotify,
  type EntryEdit,
  type EntrySnapshot,
  openUnansweredCard,
  type QuestionLink,
  type ReviewCard,
} from './types.js';

/** What the robot answers from an entry, asked by its docId: `unknown` when nothing. */
export type EntryLookup =
  | { kind: 'found'; docId: string; entryTitle: string | undefined }
  | { kind: 'unknown' }
  | { kind: 'unavailable' };

export type LinkOutcome = 'linked' | 'already_handled' | 'no_card';
export type UnlinkOutcome = 'unlinked' | 'not_linked' | 'no_card';
export type DismissOutcome = 'dismissed' | 'already_handled' | 'no_card';

export type AnswerAskersOutcome =
  | { kind: 'answered'; told: number; notTold: number }
  | { kind: 'already_handled' }
  | { kind: 'no_card' };

/** A refusal is told with the platform's own code; any other failure by its kind. */
export type EditOutcome =
  | { kind: 'updated' }
  | { kind: 'refused'; platformCode: string; message: string | undefined }
  | { kind: 'unavailable'; reason: PlatformFailureKind | 'internal' };

/** A platform account's knowledge base, asked for that account's enterprise. */
export interface KnowledgeApi {
  /** Asked by an entry's docId only, to read it: the platform has no call that reads an entry. */
  askRobot(request: Omit<RobotAskRequest, 'sysNum'>, options?: ReviewScope): Promise<RobotAnswer>;
  updateRobotDoc(
    request: RobotDocUpdateRequest,
    options?: ReviewScope,
  ): Promise<{ retCode: string; retMsg: string | undefined }>;
}

/** The knowledge base of the account whose enterprise is `sysNum`, through its platform client. */
export function accountKnowledge(
  platform: Omit<KnowledgeApi, 'askRobot'> & {
    askRobot(request: RobotAskRequest, options?: ReviewScope): Promise<RobotAnswer>;
  },
  sysNum: string,
): KnowledgeApi {
  return {
    askRobot: (request, options) => platform.askRobot({ ...request, sysNum }, options),
    updateRobotDoc: (request, options) => platform.updateRobotDoc(request, options),
  };
}

interface DeskSettings {
  cardsEnabled: boolean;
  notifyAskersOnFix: boolean;
}

const AUDIT_TEXT_PREVIEW = 40;

export class ReviewDesk {
  readonly #cards: ReviewCards;
  readonly #links: QuestionLinkStore;
  readonly #platform: KnowledgeApi;
  readonly #settings: DeskSettings;

  constructor(cards: ReviewCards, links: QuestionLinkStore, platform: KnowledgeApi, settings: DeskSettings) {
    this.#cards = cards;
    this.#links = links;
    this.#platform = platform;
    this.#settings = settings;
  }

  /** Cards are kept only where there is a review channel; without one, edits still work. */
  get cardsEnabled(): boolean {
    return this.#settings.cardsEnabled;
  }

  /** The open cards of each kind, most reported first; undefined without a review channel. */
  async waiting(limit: number): Promise<{ disliked: OpenCards; unanswered: OpenCards } | undefined> {
    if (!this.#settings.cardsEnabled) return undefined;
    const [disliked, unanswered] = await Promise.all([
      this.#cards.store.openCards('disliked', limit),
      this.#cards.store.openCards('unanswered', limit),
    ]);
    return { disliked, unanswered };
  }

  /** A card as it is now (an operator's click opens a modal for it). */
  card(cardId: string): Promise<ReviewCard | undefined> {
    return this.#cards.store.get(cardId);
  }

  snapshot(docId: string): Promise<EntrySnapshot | undefined> {
    return this.#cards.snapshots.get(docId);
  }

  /** Reads an entry the only way there is, asking by its docId as the operator; noted for its edit form. */
  async lookUpEntry(
    input: {
      docId: string;
      robotFlag: number | undefined;
      question: string;
      asker: { partnerId: string; displayName: string };
    },
    scope: ReviewScope = {},
  ): Promise<EntryLookup> {
    const { docId, robotFlag } = input;
    const { logger } = this.#cards;
    let answer: RobotAnswer;
    try {
      const asked = {
        partnerId: input.asker.partnerId,
        uname: input.asker.displayName,
        question: input.question,
        ...(robotFlag === undefined ? {} : { robotFlag }),
      };
      answer = await this.#platform.askRobot(askingEntry(asked, docId), scope);
    } catch (error) {
      logger.warn({ ...scope, err: error, docId }, 'entry not read: the robot failed');
      return { kind: 'unavailable' };
    }
    // The robot answers an unknown docId as it answers a question it does not know.
    if (answer.answerType === ANSWER_TYPE_UNKNOWN || answer.docId !== docId) return { kind: 'unknown' };
    const entryTitle = answer.question?.trim() || undefined;
    await this.#cards
      .noteSnapshot({
        docId,
        questionTitle: entryTitle ?? input.question,
        answerHtml: answer.answer,
        answerType: answer.answerType,
        robotFlag: answer.robotFlag,
        seenAt: this.#cards.now(),
      })
      .catch((error: unknown) => {
        logger.warn({ ...scope, err: error, docId }, 'entry snapshot not written');
      });
    return { kind: 'found', docId, entryTitle };
  }

  /** Links an unanswered question to the entry that answers it, for its robot; its askers are told. */
  async link(
    cardId: string,
    entry: { docId: string; entryTitle: string | undefined },
    operatorId: string,
    scope: ReviewScope = {},
  ): Promise<LinkOutcome> {
    const cards = this.#cards;
    const linked = await cards.update<
      { link: QuestionLink; askers: AskerToNotify[] } | 'already_handled' | 'no_card'
    >(cardId, scope, async (found, now) => {
      const card = openUnansweredCard(found);
      if (typeof card === 'string') return { result: card };
      const { question, robotFlag } = card;
      const { docId, entryTitle } = entry;
      const link: QuestionLink = {
        question,
        docId,
        robotFlag,
        entryTitle,
        linkedBy: operatorId,
        linkedAt: now,
      };
      // Stored before the card says so: a card that says "linked" always has its link.
      await this.#links.put(linkKeyOf(question, robotFlag), link);
      const shown = {
        ...handled(card, 'linked', operatorId, now),
        linked: { docId, entryTitle, robotFlag },
        notify: [],
      };
      return { card: shown, result: { link, askers: card.notify } };
    });
    if (linked === 'no_card' || linked === 'already_handled') return linked;
    cards.logger.info(
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
    const tell = (asker: AskerToNotify) => cards.board.tellAskerLinked(asker, linked.link, scope);
    if (this.#settings.notifyAskersOnFix)
      cards.beside(this.#tellEach(linked.askers, tell, 'asker not told of the link', scope));
    return 'linked';
  }

  /** Tells each asker once, in turn; a failure is logged and the rest are still told. Returns how many were. */
  async #tellEach(
    askers: AskerToNotify[],
    tell: (asker: AskerToNotify) => Promise<void>,
    failure: string,
    scope: ReviewScope,
    fields: object = {},
  ): Promise<{ told: number; notTold: number }> {
    let told = 0;
    const toTell = dedupeAskers(askers);
    for (const asker of toTell) {
      try {
        await tell(asker);
        told += 1;
      } catch (error) {
        this.#cards.logger.warn({ ...scope, err: error, ...fields, userId: asker.userId }, failure);
      }
    }
    return { told, notTold: toTell.length - told };
  }

  /** Removes a question's link: the robot's "no match" stands again, and the card is open (again). */
  unlink(cardId: string, operatorId: string, scope: ReviewScope = {}): Promise<UnlinkOutcome> {
    return this.#cards.update<UnlinkOutcome>(cardId, scope, async (card, now) => {
      if (!card) return { result: 'no_card' };
      const linked = card.status === 'linked' || card.status === 'open' ? card.linked : undefined;
      if (!linked) return { result: 'not_linked' };
      await this.#links.delete(linkKeyOf(card.question, linked.robotFlag));
      this.#cards.logger.info(
        { ...scope, audit: 'review_question_unlinked', operator: operatorId, cardId, docId: linked.docId },
        'link of an unanswered question removed',
      );
      const reopened: ReviewCard = {
        ...card,
        status: 'open',
        linked: undefined,
        ...(card.status === 'linked' ? { handledBy: undefined, handledAt: undefined } : {}),
        updatedAt: now,
      };
      return { card: reopened, result: 'unlinked' };
    });
  }

  dismiss(cardId: string, operatorId: string, scope: ReviewScope = {}): Promise<DismissOutcome> {
    return this.#cards.update<DismissOutcome>(cardId, scope, (card, now) => {
      if (!card) return { result: 'no_card' };
      if (card.status !== 'open') return { result: 'already_handled' };
      this.#cards.logger.info(
        { ...scope, audit: 'review_card_dismissed', operator: operatorId, cardId },
        'review card dismissed',
      );
      return { card: handled(card, 'dismissed', operatorId, now), result: 'dismissed' };
    });
  }

  /** Marks the card answered under its lock (one operator answers), then gives each asker the answer. */
  async answerAskers(
    cardId: string,
    answer: OperatorAnswer,
    scope: ReviewScope = {},
  ): Promise<AnswerAskersOutcome> {
    const cards = this.#cards;
    const askers = await cards.update<AskerToNotify[] | 'no_card' | 'already_handled'>(
      cardId,
      scope,
      (found, now) => {
        const card = openUnansweredCard(found);
        if (typeof card === 'string') return { result: card };
        return {
          card: { ...handled(card, 'answered', answer.operatorId, now), notify: [] },
          result: card.notify,
        };
      },
    );
    if (askers === 'no_card' || askers === 'already_handled') return { kind: askers };
    cards.logger.info(
      { ...scope, audit: 'review_card_answered', operator: answer.operatorId, cardId, askers: askers.length },
      'unanswered question answered by an operator',
    );
    const tell = (asker: AskerToNotify) => cards.board.tellAskerAnswered(asker, answer, scope);
    const told = await this.#tellEach(askers, tell, "asker not given the operator's answer", scope, {
      cardId,
    });
    return { kind: 'answered', ...told };
  }

  /** Sends an edit to the platform; logs the audit line. The card and askers follow in `markFixed`. */
  async applyEdit(
    edit: EntryEdit,
    changedFields: string[],
    operatorId: string,
    scope: ReviewScope = {},
  ): Promise<EditOutcome> {
    const { logger, metrics } = this.#cards;
    const outcome = await this.#send(edit, scope);
    metrics.edit?.(outcome.kind === 'unavailable' ? `unavailable_${outcome.reason}` : outcome.kind);
    // A warning, so the demo's warn level shows it; a known refusal needs no stack; #send logged the rest.
    const log = outcome.kind === 'updated' ? logger.info : logger.warn;
    log.call(
      logger,
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
        this.#cards.logger.error(
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

  /** After an update: the open cards marked fixed, their askers told, the snapshot given the new texts. */
  async markFixed(
    edit: EntryEdit,
    changedFields: string[],
    operatorId: string,
    options: { cardId?: string | undefined } = {},
    scope: ReviewScope = {},
  ): Promise<void> {
    const cards = this.#cards;
    await this.#refreshSnapshot(edit, scope);
    const cardIds = new Set([cardIdOfEntry(edit.docId), ...(options.cardId ? [options.cardId] : [])]);
    const toNotify: AskerToNotify[] = [];
    for (const cardId of cardIds) {
      await cards
        .update(cardId, scope, (card, now) => {
          if (card?.status !== 'open') return { result: undefined };
          toNotify.push(...card.notify);
          return {
            card: { ...handled(card, 'fixed', operatorId, now), changedFields, notify: [] },
            result: undefined,
          };
        })
        .catch((error: unknown) => {
          cards.logger.error({ ...scope, err: error, cardId }, 'review card not marked fixed');
        });
    }
    if (!this.#settings.notifyAskersOnFix) return;
    const tell = (asker: AskerToNotify) => cards.board.tellAskerFixed(asker, scope);
    await this.#tellEach(toNotify, tell, 'asker not told of the fix', scope);
  }

  async #refreshSnapshot(edit: EntryEdit, scope: ReviewScope): Promise<void> {
    if (edit.questionTitle === undefined && edit.answerDesc === undefined) return;
    const cards = this.#cards;
    try {
      const known = await cards.snapshots.get(edit.docId);
      if (!known) return;
      await cards.snapshots.put({
        ...known,
        questionTitle: edit.questionTitle ?? known.questionTitle,
        answerHtml: edit.answerDesc ?? known.answerHtml,
        seenAt: cards.now(),
      });
      cards.snapshotRewritten(edit.docId);
    } catch (error) {
      cards.logger.warn(
        { ...scope, err: error, docId: edit.docId },
        'entry snapshot not refreshed after the edit',
      );
    }
  }
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
