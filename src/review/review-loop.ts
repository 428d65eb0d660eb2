// The review loop: one over one set of cards, or, installed in many workspaces, one per workspace over
// its own cards, board and platform account; each is the observer of answers and the operators' desk.
import { LRUCache } from 'lru-cache';
import type {
  AnsweredQuestion,
  AnswerObserver,
  LinkedEntries,
  RequestScope,
} from '../conversation/conversation.js';
import {
  ProcessWork,
  type ReviewBoard,
  ReviewCards,
  type ReviewLogger,
  type ReviewMetrics,
} from './review-cards.js';
import { type KnowledgeApi, ReviewDesk } from './review-desk.js';
import { ReviewObserver } from './review-observer.js';
import type { EntrySnapshotStore, QuestionLinkStore, ReviewStore } from './stores.js';

export interface ReviewSettings {
  /** Cards are posted only where there is a review channel; without one, edits still work. */
  cardsEnabled: boolean;
  notifyAskersOnFix: boolean;
  /** A card's message is refreshed for new reports at most this often (0: at every report). */
  cardRefreshMs: number;
}

/** One workspace's loop (or the one loop of a gateway installed in one). */
export interface WorkspaceLoop {
  observer: ReviewObserver;
  desk: ReviewDesk;
}

export interface ReviewLoop extends WorkspaceLoop {
  /** Resolves when every answer noted and every asker told so far is done (a stop waits for it). */
  settled(): Promise<void>;
}

interface LoopDependencies {
  logger: ReviewLogger;
  metrics?: ReviewMetrics;
  now?: () => number;
}

export function reviewLoop(
  dependencies: LoopDependencies &
    WorkspaceParts & {
      platform: KnowledgeApi;
      settings: ReviewSettings;
    },
): ReviewLoop {
  const { settings } = dependencies;
  const work = new ProcessWork();
  const cards = new ReviewCards({ metrics: {}, now: Date.now, ...dependencies, work });
  return {
    observer: new ReviewObserver(cards, dependencies.links, settings.cardsEnabled),
    desk: new ReviewDesk(cards, dependencies.links, dependencies.platform, settings),
    settled: async () => {
      await work.settled();
      await cards.flushRefreshes();
    },
  };
}

/** What a workspace's loop keeps: its own cards, entries and links, and its board (its channel, its token). */
export interface WorkspaceParts {
  cards: ReviewStore;
  snapshots: EntrySnapshotStore;
  links: QuestionLinkStore;
  board: ReviewBoard;
}

/** Workspaces whose cards are kept in process at once (their refreshes due, their snapshots written). */
const WORKSPACES_KEPT = 1_000;

/** How the loops of many workspaces find each one's parts and set-up. */
interface ManyWorkspaces {
  partsOf: (workspace: string) => WorkspaceParts;
  /** Its set-up now: whether it has a review channel, and its platform account. */
  settingsOf: (
    workspace: string,
  ) => Promise<Pick<ReviewSettings, 'cardsEnabled'> & { platform: KnowledgeApi }>;
  settings: Pick<ReviewSettings, 'notifyAskersOnFix' | 'cardRefreshMs'>;
}

/** Installed in many workspaces: each workspace's loop, found by the workspace an answer or a click is from. */
export class ReviewLoops implements AnswerObserver, LinkedEntries {
  readonly #dependencies: Required<LoopDependencies> & ManyWorkspaces;
  readonly #work = new ProcessWork();
  /** Each workspace's cards (their refreshes due, their snapshots written) and links, kept while used. */
  readonly #kept = new LRUCache<string, { cards: ReviewCards; links: QuestionLinkStore }>({
    max: WORKSPACES_KEPT,
    // A workspace pushed out shows what it counted before it goes.
    dispose: ({ cards }) => this.#work.beside(cards.flushRefreshes()),
  });

  constructor(dependencies: LoopDependencies & ManyWorkspaces) {
    this.#dependencies = { metrics: {}, now: Date.now, ...dependencies };
  }

  /** The workspace's loop as its set-up is now; throws when the set-up cannot be read. */
  async of(workspace: string): Promise<WorkspaceLoop> {
    const { cards, links } = this.#kept.get(workspace) ?? this.#keep(workspace);
    const settings = await this.#dependencies.settingsOf(workspace);
    return {
      observer: new ReviewObserver(cards, links, settings.cardsEnabled),
      desk: new ReviewDesk(cards, links, settings.platform, { ...this.#dependencies.settings, ...settings }),
    };
  }

  #keep(workspace: string): { cards: ReviewCards; links: QuestionLinkStore } {
    const parts = this.#dependencies.partsOf(workspace);
    const kept = {
      cards: new ReviewCards({
        ...this.#dependencies,
        ...parts,
        work: this.#work,
        workspace,
      }),
      links: parts.links,
    };
    this.#kept.set(workspace, kept);
    return kept;
  }

  /** Told of every answer: noted in its workspace's loop, beside the answer; never throws. */
  answered(answered: AnsweredQuestion, scope: RequestScope): void {
    const { workspace } = answered;
    // Every answer the adapter gives names its workspace; one that does not has no cards to go to.
    if (workspace === undefined) return;
    this.#work.beside(
      this.of(workspace)
        .then((loop) => loop.observer.answered(answered, scope))
        .catch((error: unknown) => {
          this.#dependencies.logger.error(
            { ...scope, err: error, workspace },
            'answer not noted for review: the workspace was not read',
          );
        }),
    );
  }

  /** The entry an operator of the asking workspace linked these words to. */
  async entryFor(
    question: string,
    robotFlag: number | undefined,
    workspace?: string,
  ): Promise<string | undefined> {
    if (workspace === undefined) return undefined;
    return (await this.of(workspace)).observer.entryFor(question, robotFlag);
  }

  async settled(): Promise<void> {
    await this.#work.settled();
    await Promise.all([...this.#kept.values()].map(({ cards }) => cards.flushRefreshes()));
    await this.#work.settled();
  }
}
