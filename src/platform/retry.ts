import { setTimeout as wait } from 'node:timers/promises';
import { HttpStatusError, TransportError } from './errors.js';

/** Whether the failed attempt may go again. */
type RetryRule = (error: unknown) => boolean;

export interface RetryPolicy {
  /** 0 disables retrying. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 2_000 };

/** The platform never saw the request, so any call may go again. */
export const connectionNeverMadeRule: RetryRule = (error) =>
  error instanceof TransportError && error.beforeRequestSent;

/** Reads have no side effects. Never a caller's abort. */
export const safeReadRule: RetryRule = (error) => {
  if (error instanceof TransportError) return error.failure !== 'aborted';
  if (error instanceof HttpStatusError) return error.status >= 500 || error.status === 429;
  return false;
};

/** Writes and the robot ask retry only what cannot have reached the platform. */
export function retryRulesFor(kind: 'read' | 'write'): readonly RetryRule[] {
  return kind === 'read' ? [safeReadRule, connectionNeverMadeRule] : [connectionNeverMadeRule];
}

/** Uniformly random in [0, min(max, base * 2^(attempt-1))). */
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

export async function withRetries<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryRunOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation(attempt);
    } catch (error) {
      const budgetLeft = attempt <= options.policy.attempts;
      // The platform said when to come back: never sooner, and not past what we would ever wait.
      const askedMs = error instanceof HttpStatusError ? error.retryAfterMs : undefined;
      if (
        !budgetLeft ||
        options.signal?.aborted ||
        (askedMs !== undefined && askedMs > options.policy.maxDelayMs) ||
        !options.rules.some((rule) => rule(error))
      ) {
        throw error;
      }
      const delayMs = askedMs ?? fullJitterDelay(attempt, options.policy, options.random);
      options.onRetry?.(error, attempt, delayMs);
      // Node's timer; its abort is a caller's abort, told as one.
      await wait(delayMs, undefined, { signal: options.signal }).catch(() => {
        throw new TransportError(options.action, 'aborted', false, { cause: options.signal?.reason });
      });
    }
  }
}
