// The threads the app is answering in: a plain message there (no mention) is a follow-up question.

import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import type { OnceStore } from '../handling/stores.js';
import type { ReplyTarget } from '../transport/responder.js';

export interface ThreadRegistry {
  /** False when the registry is unavailable: the follow-up goes unheard rather than the event failing. */
  isAnswering(teamId: string, channel: string, threadTs: string, logger: Logger): Promise<boolean>;
  /** Keeps listening in the target's thread; a failure is logged, the question answered anyway. */
  remember(teamId: string, target: ReplyTarget, logger: Logger): Promise<void>;
}

export function threadRegistry(store: OnceStore, ttlSeconds: number): ThreadRegistry {
  return {
    isAnswering: (teamId, channel, threadTs, logger) =>
      store.has(threadKey(teamId, channel, threadTs)).catch((error: unknown) => {
        logger.warn(errorFields(error), 'thread registry unavailable; thread follow-up not recognised');
        return false;
      }),
    async remember(teamId, target, logger) {
      if (!target.threadTs) return;
      await store
        .claim(threadKey(teamId, target.channel, target.threadTs), ttlSeconds)
        .catch((error: unknown) => logger.warn(errorFields(error), 'thread not remembered'));
    },
  };
}

function threadKey(teamId: string, channel: string, threadTs: string): string {
  return `thread:${teamId}:${channel}:${threadTs}`;
}
