// The review loop over one set of cards: the observer of answers and the operators' commands.
import { type ReviewBoard, ReviewCards, type ReviewLogger, type ReviewMetrics } from './review-cards.js';
import { type KnowledgeApi, ReviewDesk } from './review-desk.js';
import { ReviewObserver } from './review-observer.js';
import type { EntrySnapshotStore, QuestionLinkStore, ReviewStore } from './stores.js';

export interface ReviewSettings {
  /** The enterprise the robot is asked for (an entry is read by asking it). */
  sysNum: string;
  /** Cards are posted only where there is a review channel; without one, edits still work. */
  cardsEnabled: boolean;
  notifyAskersOnFix: boolean;
  /** A card's message is refreshed for new reports at most this often (0: at every report). */
  cardRefreshMs: number;
}

export interface ReviewLoop {
  observer: ReviewObserver;
  desk: ReviewDesk;
  /** Resolves when every answer noted and every asker told so far is done (a stop waits for it). */
  settled(): Promise<void>;
}

export function reviewLoop(dependencies: {
  cards: ReviewStore;
  snapshots: EntrySnapshotStore;
  links: QuestionLinkStore;
  board: ReviewBoard;
  platform: KnowledgeApi;
  logger: ReviewLogger;
  metrics?: ReviewMetrics;
  settings: ReviewSettings;
  now?: () => number;
}): ReviewLoop {
  const { settings } = dependencies;
  const cards = new ReviewCards({
    ...dependencies,
    metrics: dependencies.metrics ?? {},
    now: dependencies.now ?? Date.now,
  });
  return {
    observer: new ReviewObserver(cards, dependencies.links),
    desk: new ReviewDesk(cards, dependencies.links, dependencies.platform, settings),
    settled: () => cards.settled(),
  };
}
