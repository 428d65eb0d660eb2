// PLATFORM_QUESTION_RATE: one platform account is sent at most N robot asks a second, in the order
// asked; past it they wait in a bounded queue, and one whose turn would come past its deadline is
// refused as busy without being sent. One pacing per account, handed to that account's client.
import { setTimeout as sleep } from 'node:timers/promises';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { EXPIRED, within } from '../util/deadline.js';
import { type BusyReason, PlatformBusyError } from './errors.js';

/** Structural, so the platform folder does not depend on pino. */
interface PacingLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** One account's count for the current second: 0 when one more question fits, else ms until the next second. */
interface RateWindow {
  take(): Promise<number>;
}

const WINDOW_MS = 1_000;
/** After a failure the shared count is left alone a moment: a frozen Redis costs one timeout a second. */
const SKIP_AFTER_FAILURE_MS = 1_000;

/**
 * The count on the Redis the replicas share, or in this process. While Redis does not answer, this
 * process counts alone (`fallback`): each replica keeps to the rate, rather than none.
 */
export class CountedWindow implements RateWindow {
  readonly #limiter: RateLimiterAbstract;
  readonly #fallback: RateLimiterAbstract | undefined;
  readonly #key: string;
  readonly #timeoutMs: number | undefined;
  readonly #logger: PacingLogger;
  #unavailable = false;
  #skipUntil = 0;

  constructor(settings: {
    /** `points` a `duration` of 1 s, keyed by `key`. */
    limiter: RateLimiterAbstract;
    /** The same count in this process, used while `limiter` (on Redis) fails. */
    fallback?: RateLimiterAbstract | undefined;
    key: string;
    timeoutMs?: number | undefined;
    logger: PacingLogger;
  }) {
    this.#limiter = settings.limiter;
    this.#fallback = settings.fallback;
    this.#key = settings.key;
    this.#timeoutMs = settings.timeoutMs;
    this.#logger = settings.logger;
  }

  async take(): Promise<number> {
    const fallback = this.#fallback;
    if (!fallback) return consumed(this.#limiter.consume(this.#key));
    if (this.#unavailable && Date.now() < this.#skipUntil) return consumed(fallback.consume(this.#key));
    try {
      const counting = consumed(this.#limiter.consume(this.#key));
      const waitMs = this.#timeoutMs === undefined ? await counting : await within(counting, this.#timeoutMs);
      if (waitMs === EXPIRED) throw new Error(`no answer within ${this.#timeoutMs} ms`);
      if (this.#unavailable) {
        this.#unavailable = false;
        this.#logger.info({}, 'platform question rate counted on Redis again');
      }
      return waitMs;
    } catch (error) {
      this.#skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS;
      if (!this.#unavailable) {
        this.#unavailable = true;
        this.#logger.warn(
          { err: error },
          'platform question rate unavailable on Redis; each replica keeps to it alone',
        );
      }
      return consumed(fallback.consume(this.#key));
    }
  }
}

/** The limiter rejects with its result when over, and with an error when its store failed. */
async function consumed(consuming: Promise<RateLimiterRes>): Promise<number> {
  try {
    await consuming;
    return 0;
  } catch (error) {
    if (error instanceof RateLimiterRes) return Math.max(1, error.msBeforeNext);
    throw error;
  }
}

interface Waiter {
  sendBy: number;
  requestId: string | undefined;
  resolve(): void;
  reject(error: PlatformBusyError): void;
}

export interface QuestionPacingSettings {
  /** Questions a second to this account. */
  rate: number;
  window: RateWindow;
  /** The longest a question waits for its turn when its caller names no deadline: QUESTION_DEADLINE_SECONDS. */
  maxWaitMs: number;
  /** Questions waiting at most; one more is refused at once. */
  maxQueued: number;
  logger: PacingLogger;
  /** Told of each question refused as busy; must not throw. */
  onBusy(reason: BusyReason): void;
}

export class QuestionPacing {
  readonly #settings: QuestionPacingSettings;
  readonly #queue: Waiter[] = [];
  #pumping = false;
  /** Epoch ms when the next second opens, while the queue waits for it. */
  #opensAt = 0;
  /** So that refusals are logged once a second, not once a question. */
  #quietUntil = 0;

  constructor(settings: QuestionPacingSettings) {
    this.#settings = settings;
  }

  /** Resolves when the question may be sent; rejects with PlatformBusyError when it cannot be before `sendBy`. */
  turn(
    action: string,
    options: { sendBy?: number | undefined; requestId?: string | undefined },
  ): Promise<void> {
    const now = Date.now();
    const sendBy = Math.min(options.sendBy ?? Number.POSITIVE_INFINITY, now + this.#settings.maxWaitMs);
    const { requestId } = options;
    if (this.#queue.length >= this.#settings.maxQueued) {
      return Promise.reject(this.#refuse(action, 'queue_full', requestId));
    }
    // Behind a queue that waits for the next second, a turn past the deadline is known at once.
    if (this.#pumping && this.#earliest(this.#queue.length, Math.max(now, this.#opensAt)) > sendBy) {
      return Promise.reject(this.#refuse(action, 'deadline', requestId));
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ sendBy, requestId, resolve, reject });
      if (!this.#pumping) void this.#pump(action);
    });
  }

  /** Hands out turns in order, one second's worth at a time; one loop per account, so the order holds. */
  async #pump(action: string): Promise<void> {
    this.#pumping = true;
    try {
      while (this.#queue.length > 0) {
        this.#refuseLate(action, Date.now());
        const head = this.#queue[0];
        if (!head) break;
        let waitMs: number;
        try {
          waitMs = await this.#settings.window.take();
        } catch (error) {
          // Only a bug reaches here (the count falls back to this process); the question goes rather than hangs.
          this.#settings.logger.warn({ err: error }, 'platform question rate not counted');
          waitMs = 0;
        }
        if (waitMs === 0) {
          this.#queue.shift()?.resolve();
          continue;
        }
        this.#opensAt = Date.now() + waitMs;
        this.#refuseLate(action, this.#opensAt);
        if (this.#queue.length === 0) break;
        await sleep(waitMs);
      }
    } finally {
      this.#pumping = false;
      this.#opensAt = 0;
    }
  }

  /** The soonest the question at `position` can go when the next second opens at `opensAt`. */
  #earliest(position: number, opensAt: number): number {
    return opensAt + Math.floor(position / this.#settings.rate) * WINDOW_MS;
  }

  /** Refuses now every question that cannot go before its deadline, counting seconds from `opensAt`. */
  #refuseLate(action: string, opensAt: number): void {
    let position = 0;
    for (const waiter of [...this.#queue]) {
      if (this.#earliest(position, opensAt) > waiter.sendBy) {
        this.#queue.splice(this.#queue.indexOf(waiter), 1);
        waiter.reject(this.#refuse(action, 'deadline', waiter.requestId));
      } else {
        position += 1;
      }
    }
  }

  #refuse(action: string, reason: BusyReason, requestId: string | undefined): PlatformBusyError {
    this.#settings.onBusy(reason);
    const now = Date.now();
    if (now >= this.#quietUntil) {
      this.#quietUntil = now + WINDOW_MS;
      this.#settings.logger.warn(
        {
          reason,
          rate: this.#settings.rate,
          queued: this.#queue.length,
          ...(requestId !== undefined && { requestId }),
        },
        'platform question rate reached; questions refused as busy',
      );
    }
    return new PlatformBusyError(action, reason);
  }
}
