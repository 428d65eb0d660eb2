// Bounded retries with full-jitter backoff, decided by small rule objects.
import { HttpStatusError, TransportError } from './errors.js';

/** One reason to try again. `attempt` is the 1-based number of the attempt that just failed. */
export interface RetryRule {
  shouldRetry(error: unknown, attempt: number): boolean;
}

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 2_000 };

/** The connection failed before the request was written: the platform never saw it, so any call may go again. */
export const connectionNeverMadeRule: RetryRule = {
  shouldRetry: (error) => error instanceof TransportError && error.beforeRequestSent,
};

/** Reads have no side effects: retry lost connections, timeouts, 5xx and 429. Never a caller's abort. */
export const safeReadRule: RetryRule = {
  shouldRetry: (error) => {
    if (error instanceof TransportError) return error.failure !== 'aborted';
    if (error instanceof HttpStatusError) return error.status >= 500 || error.status === 429;
    return false;
  },
};

/** Reads may retry any transport trouble; writes and the robot ask only what cannot have reached the platform. */
export function retryRulesFor(kind: 'read' | 'write'): readonly RetryRule[] {
  return kind === 'read' ? [safeReadRule, connectionNeverMadeRule] : [connectionNeverMadeRule];
}

/** Full jitter: uniformly random in [0, min(max, base * 2^(attempt-1))). */
export function fullJitterDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export interface RetryRunOptions {
  action: string;
  policy: RetryPolicy;
  rules: readonly RetryRule[];
  signal?: AbortSignal | undefined;
  random?: () => number;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/** Runs `operation` until it succeeds, no rule asks for another try, or the budget is spent. */
export async function withRetries<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryRunOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation(attempt);
    } catch (error) {
      const budgetLeft = attempt <= options.policy.attempts;
      // The platform said when to come back: never sooner, and not at all past what we would ever wait.
      const askedMs = error instanceof HttpStatusError ? error.retryAfterMs : undefined;
      if (
        !budgetLeft ||
        options.signal?.aborted ||
        (askedMs !== undefined && askedMs > options.policy.maxDelayMs) ||
        !options.rules.some((rule) => rule.shouldRetry(error, attempt))
      ) {
        throw error;
      }
      const delayMs = askedMs ?? fullJitterDelay(attempt, options.policy, options.random);
      options.onRetry?.(error, attempt, delayMs);
      await sleep(delayMs, options.action, options.signal);
    }
  }
}

/** Waits, but gives up at once with an aborted TransportError when the signal fires. */
function sleep(ms: number, action: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => new TransportError(action, 'aborted', false, { cause: signal?.reason });
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
