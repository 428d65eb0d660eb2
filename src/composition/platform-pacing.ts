// PLATFORM_QUESTION_RATE: one pacing per platform account (its open URL and sysNum), counted on the
// question limits' store, so replicas on one Redis share each account's rate (docs/decisions/022).
import type { Env } from '../config/env.js';
import type { Logger } from '../logging/logger.js';
import { MemoryWindow, QuestionPacing, SharedWindow } from '../platform/index.js';
import type { LimitStore } from '../slack/handling/question-limits.js';

/** Who the platform counts questions against. */
interface PlatformAccount {
  openUrl: string;
  sysNum: string;
}

/** Makes each account's pacing; undefined when PLATFORM_QUESTION_RATE is off. */
type PacingFor = (account: PlatformAccount) => QuestionPacing | undefined;

export function platformPacing(
  env: Pick<Env, 'PLATFORM_QUESTION_RATE' | 'QUESTION_DEADLINE_SECONDS' | 'REDIS_COMMAND_TIMEOUT_MS'>,
  deps: { store: LimitStore; logger: Logger; onBusy(): void },
): PacingFor {
  const rate = env.PLATFORM_QUESTION_RATE;
  return (account) => {
    if (rate === 'off') return undefined;
    const { store } = deps;
    const name = `${account.sysNum}@${account.openUrl}`;
    const logger = deps.logger.child({ platformAccount: name });
    const window =
      store.kind === 'memory'
        ? new MemoryWindow(rate)
        : new SharedWindow({
            evalScript: (script, keys, args) => store.client.eval(script, { keys, arguments: args }),
            key: `${store.keyPrefix}limits:platform:${name}`,
            rate,
            fallback: new MemoryWindow(rate),
            timeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
            logger,
          });
    const deadlineSeconds = env.QUESTION_DEADLINE_SECONDS;
    return new QuestionPacing({
      rate,
      window,
      maxWaitMs: deadlineSeconds * 1000,
      // More than a deadline's worth could not be sent in time by this process anyway.
      maxQueued: rate * deadlineSeconds,
      logger,
      onBusy: () => deps.onBusy(),
    });
  };
}
