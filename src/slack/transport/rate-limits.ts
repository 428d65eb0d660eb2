// Slack limits each method per channel: a 429 holds back that method and channel alone, for its
// Retry-After, with the key's later calls queued behind it in order; other keys go at once
// (docs/decisions/021).
import { webApi } from '@slack/bolt';
import { z } from 'zod';
import type { Logger } from '../../logging/logger.js';
import { CodedError } from '../../util/coded-error.js';
import { retryAfterMs } from '../../util/retry-after.js';
import { KeyedQueue } from '../handling/keyed-queue.js';

type RateLimitOutcome = 'waited' | 'gave_up';

export interface SlackRateLimitOptions {
  /** How long after it was made a call may still go out: QUESTION_DEADLINE_SECONDS (an answer later helps nobody). */
  giveUpAfterMs: number;
  onOutcome?: (method: string, outcome: RateLimitOutcome) => void;
}

/** A call dropped because its key's Retry-After ends past its deadline; already logged and counted. */
export class SlackRateLimitGaveUp extends CodedError<'SLACK_RATE_LIMITED'> {
  readonly code = 'SLACK_RATE_LIMITED' as const;
}

/** What the SDK rejects with when `rejectRateLimitedCalls` is set: its own retry policy never sees it. */
const rateLimitedSchema = z.object({
  code: z.literal(webApi.ErrorCode.RateLimitedError),
  retryAfter: z.number().nonnegative(),
});

export class SlackRateLimits {
  readonly #waiting = new KeyedQueue();
  /** Epoch ms before which a rate-limited key sends nothing. */
  readonly #heldUntil = new Map<string, number>();
  readonly #options: SlackRateLimitOptions;

  constructor(options: SlackRateLimitOptions) {
    this.#options = options;
  }

  /** Sends at once unless `method` in `channel` is held back; retried after each 429 until the deadline. */
  async send<T>(
    out: { logger: Logger },
    method: string,
    channel: string,
    call: () => Promise<T>,
  ): Promise<T> {
    const key = `${method} ${channel}`;
    const held = { key, method, channel, giveUpAt: Date.now() + this.#options.giveUpAfterMs };
    if (!this.#waiting.has(key) && !this.#isHeld(key)) {
      try {
        return await call();
      } catch (error) {
        const retryAfter = retryAfterOf(error);
        if (retryAfter === undefined) throw error;
        this.#holdBack(key, retryAfter);
      }
    }
    return this.#waiting.run(key, () => this.#sendWhenOpen(out.logger, held, call));
  }

  async #sendWhenOpen<T>(
    logger: Logger,
    { key, method, channel, giveUpAt }: { key: string; method: string; channel: string; giveUpAt: number },
    call: () => Promise<T>,
  ): Promise<T> {
    for (;;) {
      const heldUntil = this.#heldUntil.get(key) ?? 0;
      // Its turn may come past the deadline too, behind calls that took long.
      if (Math.max(heldUntil, Date.now()) > giveUpAt) {
        this.#options.onOutcome?.(method, 'gave_up');
        // Method and channel only: the text and the token stay out of the log.
        logger.warn(
          { method, channel, retryAfterMs: Math.max(0, heldUntil - Date.now()) },
          "Slack's rate limit outlasts the question's deadline; the call is dropped",
        );
        throw new SlackRateLimitGaveUp(`${method} in ${channel} is rate-limited past the deadline`);
      }
      await sleepUntil(heldUntil);
      try {
        const result = await call();
        this.#options.onOutcome?.(method, 'waited');
        return result;
      } catch (error) {
        const retryAfter = retryAfterOf(error);
        if (retryAfter === undefined) throw error;
        this.#holdBack(key, retryAfter);
      }
    }
  }

  #isHeld(key: string): boolean {
    return (this.#heldUntil.get(key) ?? 0) > Date.now();
  }

  #holdBack(key: string, retryAfterSeconds: number): void {
    const now = Date.now();
    // Forget windows that have passed, so the map holds only keys limited now.
    for (const [heldKey, until] of this.#heldUntil) if (until <= now) this.#heldUntil.delete(heldKey);
    this.#heldUntil.set(key, Math.max(this.#heldUntil.get(key) ?? 0, now + retryAfterSeconds * 1000));
  }
}

function retryAfterOf(error: unknown): number | undefined {
  const parsed = rateLimitedSchema.safeParse(error);
  return parsed.success ? parsed.data.retryAfter : undefined;
}

function sleepUntil(epochMs: number): Promise<void> {
  const ms = epochMs - Date.now();
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Slack's pace for posts, about one a second per channel: the wait when a 429 names none we can read. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** Whole seconds to wait from a Retry-After header, else the default. */
export function retryAfterSeconds(header: string | null, nowMs: number): number {
  const ms = retryAfterMs(header, nowMs);
  return ms === undefined ? DEFAULT_RETRY_AFTER_SECONDS : Math.ceil(ms / 1000);
}

/**
 * Every 429 given a Retry-After the SDK can read: without one the SDK fails the call with a bare error
 * the gate cannot tell from any other.
 */
export function withReadableRetryAfter(fetch: webApi.FetchFunction): webApi.FetchFunction {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.status !== 429) return response;
    const raw = response.headers.get('retry-after');
    const seconds = String(retryAfterSeconds(raw, Date.now()));
    if (raw === seconds) return response;
    return {
      ok: response.ok,
      status: response.status,
      statusText: response.statusText,
      url: response.url,
      headers: {
        get: (name) => (name.toLowerCase() === 'retry-after' ? seconds : response.headers.get(name)),
        entries: () => response.headers.entries(),
      },
      arrayBuffer: () => response.arrayBuffer(),
      json: () => response.json(),
      text: () => response.text(),
    };
  };
}
