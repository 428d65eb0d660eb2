// The platform-neutral core composed: the knowledge-base review loop (shown on a board the Slack
// side provides) and the conversation, which reports every answer to the review loop.
import type { Env } from '../config/env.js';
import { newContextKey } from '../conversation/context-key.js';
import { Conversation, type PlatformAccounts } from '../conversation/conversation.js';
import type { Logger } from '../logging/logger.js';
import { meteredContextStore } from '../observability/metered-stores.js';
import type { Metrics } from '../observability/metrics.js';
import type { PlatformClient } from '../platform/index.js';
import type { ReviewBoard } from '../review/review-cards.js';
import { type ReviewLoop, reviewLoop } from '../review/review-loop.js';
import type { Stores } from '../stores/stores.js';
import type { PlatformChoice } from './platform.js';

export interface Core {
  conversation: Conversation;
  review: ReviewLoop;
}

export function composeCore(
  env: Env,
  deps: {
    platform: PlatformClient;
    platformChoice: Pick<PlatformChoice, 'sysNum' | 'demo'>;
    /** Each workspace's platform account (one for all when installed in one workspace). */
    accounts: PlatformAccounts;
    stores: Stores;
    board: ReviewBoard;
    metrics: Metrics;
    logger: Logger;
  },
): Core {
  const { platform, stores, metrics, logger } = deps;
  const review = reviewLoop({
    cards: stores.reviewCards,
    snapshots: stores.entrySnapshots,
    links: stores.questionLinks,
    board: deps.board,
    platform,
    logger: logger.child({ component: 'review' }),
    metrics: {
      card: (action) => metrics.reviewCard(action),
      edit: (outcome) => metrics.knowledgeEdit(outcome),
    },
    settings: {
      sysNum: deps.platformChoice.sysNum,
      cardsEnabled: env.REVIEW_CHANNEL_ID !== undefined,
      notifyAskersOnFix: env.NOTIFY_ASKERS_ON_FIX,
      cardRefreshMs: env.REVIEW_CARD_REFRESH_SECONDS * 1000,
    },
  });

  const conversation = new Conversation({
    accounts: deps.accounts,
    contexts: meteredContextStore(stores.contexts, (store, result) => metrics.storeLookup(store, result)),
    ratings: stores.ratings,
    settings: {
      maxQuestionLength: env.MAX_QUESTION_LENGTH,
      contextTtlSeconds: env.CONTEXT_TTL_SECONDS,
    },
    logger: logger.child({ component: 'conversation' }),
    newKey: newContextKey,
    observer: review.observer,
    // A question an operator linked to an entry is answered from it when the robot matches nothing.
    links: review.observer,
  });
  // The platform client reports to the metrics and the conversation asks through that client, so the
  // gauge that reads the conversation is registered now that it exists.
  metrics.countQuestionsInFlight(conversation);
  return { conversation, review };
}
