// What the review observer and the operators' commands share: cards under their lock, snapshots, side work.
import { LRUCache } from 'lru-cache';
import { CardRefreshes } from './card-refreshes.js';
import type { EntrySnapshotStore, ReviewStore } from './stores.js';
import type { AskerToNotify, EntrySnapshot, MessageLocation, QuestionLink, ReviewCard } from './types.js';

/** Names the Slack event or click being handled, on every log line written for it. */
export interface ReviewScope {
  requestId?: string;
}

/** Where cards are shown and askers told: the adapter's side of the loop. */
export interface ReviewBoard {
  /** Posts the card, or updates it where it is posted; returns where it is now. */
  show(card: ReviewCard, scope: ReviewScope): Promise<MessageLocation>;
  tellAskerFixed(asker: AskerToNotify, scope: ReviewScope): Promise<void>;
  /** Gives an asker an operator's own answer to their question, where they asked it, as from that person. */
  tellAskerAnswered(asker: AskerToNotify, answer: OperatorAnswer, scope: ReviewScope): Promise<void>;
  /** A link to where a question was asked; `direct_message` and `assistant_panel` operators cannot open. */
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

export interface ReviewLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ReviewMetrics {
  card?(action: 'posted' | 'updated' | 'failed'): void;
  edit?(outcome: string): void;
}

type Changed<T> = { card?: ReviewCard | undefined; result: T };

const MAX_NOTIFY = 20;
/** An unchanged snapshot is written again only after this long: one write per entry, not per answer. */
const SNAPSHOT_REWRITE_MS = 10 * 60 * 1000;
/** Characters of last-written snapshots kept (a few MB); one forgotten is merely written again. */
const WRITTEN_SNAPSHOT_CHARACTERS = 2_000_000;

/**
 * What every workspace's cards share in one process: the work run beside callers (an answer's note,
 * askers told after a modal), tracked so that a stop waits for it, and the snapshots last written.
 */
export class ProcessWork {
  readonly #pending = new Set<Promise<unknown>>();
  /** `<scope>\0<docId>` → the snapshot last written by this process (title, answer and type, joined), and when. */
  readonly written = new LRUCache<string, { seen: string; at: number }>({
    // Compared as they are, not hashed: a hash of every answer cost more than comparing the strings.
    maxSize: WRITTEN_SNAPSHOT_CHARACTERS,
    sizeCalculation: (written, key) => key.length + written.seen.length,
  });

  beside(work: Promise<unknown>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  /** Resolves when the work beside callers is done, work it started included. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }
}

export class ReviewCards {
  readonly store: ReviewStore;
  readonly snapshots: EntrySnapshotStore;
  readonly board: ReviewBoard;
  readonly logger: ReviewLogger;
  readonly metrics: ReviewMetrics;
  readonly now: () => number;
  readonly #work: ProcessWork;
  /** Whose snapshots these cards write among the process's: the workspace's, or '' for a single one. */
  readonly #scope: string;
  readonly #refreshes: CardRefreshes<ReviewScope>;

  constructor(dependencies: {
    cards: ReviewStore;
    snapshots: EntrySnapshotStore;
    board: ReviewBoard;
    logger: ReviewLogger;
    metrics: ReviewMetrics;
    settings: { cardRefreshMs: number };
    now: () => number;
    /** Shared by every workspace's cards, so that one stop waits for all of it, and one bound holds. */
    work: ProcessWork;
    /** The workspace whose cards these are; undefined for the one set of a single workspace. */
    workspace?: string | undefined;
  }) {
    this.store = dependencies.cards;
    this.snapshots = dependencies.snapshots;
    this.board = dependencies.board;
    this.logger = dependencies.logger;
    this.metrics = dependencies.metrics;
    this.now = dependencies.now;
    this.#work = dependencies.work;
    this.#scope = dependencies.workspace ?? '';
    this.#refreshes = new CardRefreshes({
      everyMs: dependencies.settings.cardRefreshMs,
      now: this.now,
      refresh: (cardId, scope) => this.#refreshCard(cardId, scope),
    });
  }

  /** Runs work beside the caller, tracked so that a stop waits for it. */
  beside(work: Promise<unknown>): void {
    this.#work.beside(work);
  }

  /** Shows every card whose refresh is due, now (a stop: no card is left showing less than was counted). */
  flushRefreshes(): Promise<void> {
    return this.#refreshes.flush();
  }

  /** Writes an entry's snapshot, unless this process wrote it unchanged a moment ago. */
  async noteSnapshot(snapshot: EntrySnapshot): Promise<void> {
    const seen = `${snapshot.questionTitle}\0${snapshot.answerHtml}\0${snapshot.answerType}`;
    const written = this.#work.written;
    const key = this.#writtenKey(snapshot.docId);
    const last = written.get(key);
    if (last && last.seen === seen && snapshot.seenAt - last.at < SNAPSHOT_REWRITE_MS) return;
    // Noted before the write: answers from one entry arriving together write it once, not each.
    const noted = { seen, at: snapshot.seenAt };
    written.set(key, noted);
    try {
      await this.snapshots.put(snapshot);
    } catch (error) {
      if (written.get(key) === noted) written.delete(key);
      throw error;
    }
  }

  /** The snapshot was written otherwise (after an edit): the next answer from the entry writes it again. */
  snapshotRewritten(docId: string): void {
    this.#work.written.delete(this.#writtenKey(docId));
  }

  #writtenKey(docId: string): string {
    return `${this.#scope}\u0000${docId}`;
  }

  /** Counts a report under the card's lock and shows it; a handled card starts again as a new post. */
  async report(
    opened: { cardId: string; kind: ReviewCard['kind']; question: string },
    scope: ReviewScope,
    next: (open: ReviewCard, now: number) => ReviewCard,
  ): Promise<void> {
    const { cardId, kind, question } = opened;
    await this.store.change(cardId, async (card) => {
      const now = this.now();
      // A linked question asked again without an answer: the new card says its link did not answer.
      const linked = card?.status === 'linked' ? card.linked : undefined;
      const open = card?.status === 'open' ? card : { ...newCard(cardId, kind, question, now), linked };
      const counted = next(open, now);
      // A card already in the channel shows the new count at its next refresh, a new one at once.
      if (counted.posted && !this.#refreshes.mayShowNow(cardId, scope))
        return { card: counted, result: undefined };
      return { card: await this.show(counted, scope), result: undefined };
    });
  }

  /** Changes a card under its lock; a card `next` returns is shown, then stored as shown. */
  update<T>(
    cardId: string,
    scope: ReviewScope,
    next: (card: ReviewCard | undefined, now: number) => Promise<Changed<T>> | Changed<T>,
  ): Promise<T> {
    return this.store.change(cardId, async (card) => {
      const { card: changed, result } = await next(card, this.now());
      return changed ? { card: await this.show(changed, scope), result } : { result };
    });
  }

  /** Shows a card as stored now, for the reports counted since it was last shown. */
  async #refreshCard(cardId: string, scope: ReviewScope): Promise<void> {
    try {
      await this.update(cardId, scope, (card) => ({ card, result: undefined }));
    } catch (error) {
      this.logger.error({ ...scope, err: error, cardId }, 'review card not refreshed');
    }
  }

  /** Shows the card; on failure the card is kept unshown (or as shown before) and the count is not lost. */
  async show(card: ReviewCard, scope: ReviewScope): Promise<ReviewCard> {
    try {
      const posted = await this.board.show(card, scope);
      this.#refreshes.shown(card.id);
      this.metrics.card?.(card.posted ? 'updated' : 'posted');
      return { ...card, posted };
    } catch (error) {
      this.metrics.card?.('failed');
      this.logger.error({ ...scope, err: error, cardId: card.id }, 'review card not shown');
      return card;
    }
  }
}

export function handled(
  card: ReviewCard,
  status: ReviewCard['status'],
  operatorId: string,
  now: number,
): ReviewCard {
  return { ...card, status, handledBy: operatorId, handledAt: now, updatedAt: now };
}

/** A card before its first report is counted, opened with the question that report asks. */
export function newCard(id: string, kind: ReviewCard['kind'], question: string, now: number): ReviewCard {
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

/** The asker added once per user and thread, newest last, the oldest dropped past the cap. */
export function withAsker(notify: AskerToNotify[], asker: AskerToNotify): AskerToNotify[] {
  const others = notify.filter(
    (known) =>
      known.userId !== asker.userId ||
      known.conversationId !== asker.conversationId ||
      known.threadId !== asker.threadId,
  );
  return [...others, asker].slice(-MAX_NOTIFY);
}

export function dedupeAskers(askers: AskerToNotify[]): AskerToNotify[] {
  return askers.reduce<AskerToNotify[]>((kept, asker) => withAsker(kept, asker), []);
}
