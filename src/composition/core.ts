// The platform-neutral core composed: the knowledge-base review loop (shown on a board the Slack
// side provides) and the conversation, which reports every answer to the review loop and the day's counts.
import type { Env } from '../config/env.js';
import { newContextKey } from '../conversation/context-key.js';
import {
  type AnswerObserver,
  Conversation,
  type LinkedEntries,
  type PlatformAccounts,
} from '../conversation/conversation.js';
import type { Logger } from '../logging/logger.js';
import { meteredContextStore } from '../observability/metered-stores.js';
import type { Metrics } from '../observability/metrics.js';
import type { PlatformClient } from '../platform/index.js';
import { accountKnowledge, type KnowledgeApi } from '../review/review-desk.js';
import { ReviewLoops, reviewLoop, type WorkspaceLoop } from '../review/review-loop.js';
import { NotSetUpError } from '../service-desk/platform-failure.js';
import { questionTally } from '../service-desk/question-tally.js';
import type { ReviewPlaces } from '../slack/review/review-board.js';
import type { Stores } from '../stores/stores.js';
import type { PlatformChoice } from './platform.js';

export interface Core {
  conversation: Conversation;
  review: CoreReview;
}

/** The review loop, one or one per workspace: what the conversation tells it, and what the rooms use. */
interface CoreReview {
  of(workspace: string): Promise<WorkspaceLoop>;
  observer: AnswerObserver & LinkedEntries;
  /** Resolves when every answer noted and every asker told so far is done (a stop waits for it). */
  settled(): Promise<void>;
}

interface CoreDeps {
  platform: PlatformClient;
  platformChoice: Pick<PlatformChoice, 'sysNum'>;
  /** Each workspace's platform account (one for all when installed in one workspace). */
  accounts: PlatformAccounts<PlatformClient>;
  stores: Stores;
  /** Where review cards go: one board, or each workspace's. */
  places: ReviewPlaces;
  metrics: Metrics;
  logger: Logger;
}

export function composeCore(env: Env, deps: CoreDeps): Core {
  const { stores, metrics, logger } = deps;
  const review = composeReview(env, deps);

  const tally = questionTally(
    stores.dailyQuestions,
    env.DIGEST_TIME_ZONE,
    logger.child({ component: 'tally' }),
  );
  const conversation = new Conversation({
    accounts: deps.accounts,
    contexts: meteredContextStore(stores.contexts, metrics),
    ratings: stores.ratings,
    settings: {
      maxQuestionLength: env.MAX_QUESTION_LENGTH,
      contextTtlSeconds: env.CONTEXT_TTL_SECONDS,
    },
    logger: logger.child({ component: 'conversation' }),
    newKey: newContextKey,
    observer: {
      answered: (answered, scope) => {
        review.observer.answered(answered, scope);
        tally.answered(answered, scope);
      },
    },
    // A question an operator linked to an entry is answered from it when the robot matches nothing.
    links: review.observer,
  });
  // The platform client reports to the metrics and the conversation asks through that client, so the
  // gauge that reads the conversation is registered now that it exists.
  metrics.countQuestionsInFlight(conversation);
  return { conversation, review };
}

/** Installed in one workspace, one loop over the cards as always kept; in many, one per workspace. */
function composeReview(env: Env, deps: CoreDeps): CoreReview {
  const { stores, places, metrics, accounts } = deps;
  const shared = {
    logger: deps.logger.child({ component: 'review' }),
    metrics: {
      card: (action: 'posted' | 'updated' | 'failed') => metrics.reviewCard(action),
      edit: (outcome: string) => metrics.knowledgeEdit(outcome),
    },
  };
  const settings = {
    notifyAskersOnFix: env.NOTIFY_ASKERS_ON_FIX,
    cardRefreshMs: env.REVIEW_CARD_REFRESH_SECONDS * 1000,
  };
  if (places.kind === 'one') {
    const loop = reviewLoop({
      ...shared,
      cards: stores.reviewCards,
      snapshots: stores.entrySnapshots,
      links: stores.questionLinks,
      board: places.board,
      platform: accountKnowledge(deps.platform, deps.platformChoice.sysNum),
      settings: { ...settings, cardsEnabled: places.cardsEnabled },
    });
    return { of: async () => loop, observer: loop.observer, settled: () => loop.settled() };
  }
  const loops = new ReviewLoops({
    ...shared,
    settings,
    partsOf: (workspace) => ({
      cards: stores.reviewCards.of(workspace),
      snapshots: stores.entrySnapshots.of(workspace),
      links: stores.questionLinks.of(workspace),
      board: places.boardOf(workspace),
    }),
    // Its entries are read and edited through its own platform account, as its questions are asked.
    settingsOf: async (workspace) => {
      const [channelId, found] = await Promise.all([
        places.channelOf(workspace),
        accounts.accountOf(workspace),
      ]);
      const cardsEnabled = channelId !== undefined;
      if (found.kind === 'account') {
        return { cardsEnabled, platform: accountKnowledge(found.account.robot, found.account.sysNum) };
      }
      return { cardsEnabled, platform: notSetUp(workspace) };
    },
  });
  return { of: (workspace) => loops.of(workspace), observer: loops, settled: () => loops.settled() };
}

/** A workspace with no platform account: no entry is read or changed. */
function notSetUp(workspace: string): KnowledgeApi {
  const refuse = () => Promise.reject(new NotSetUpError(`no platform account is set up for ${workspace}`));
  return { askRobot: refuse, updateRobotDoc: refuse };
}
