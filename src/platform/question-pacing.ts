// PLATFORM_QUESTION_RATE: one platform account is sent at most N robot asks a second, in the order
// asked; past it they wait in a bounded queue, and one whose turn would come past its deadline is
// refused as busy without being sent. One pacing per account, handed to that account's client.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { EXPIRED, within } from '../util/deadline.js';
import { type BusyReason, PlatformBusyError } from './errors.js';

/** Structural, so the platform folder does not depend on pino. */
interface PacingLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * One account's sends in the last second: up to `wanted` more counted at once (`granted`), and when none
 * fits, the ms until one would (`waitMs`).
 */
interface RateWindow {
  take(wanted: number): Promise<Taken>;
}

interface Taken {
  granted: number;
  waitMs: number;
}

/** A busy pump takes a batch of turns in one count, so a shared count costs one call per batch. */
const MOST_TAKEN_AT_ONCE = 500;

const WINDOW_MS = 1_000;

/**
 * The last second's sends in this process, as a sliding window: never more than `rate` in any one
 * second, where fixed windows would let twice the rate through across a boundary.
 */
export class MemoryWindow implements RateWindow {
  readonly #rate: number;
  /** Send times, oldest first; never more than `rate`. */
  readonly #sent: number[] = [];

  constructor(rate: number) {
    this.#rate = rate;
  }

  async take(wanted: number): Promise<Taken> {
    const now = Date.now();
    while (this.#sent.length > 0 && (this.#sent[0] ?? 0) <= now - WINDOW_MS) this.#sent.shift();
    const oldest = this.#sent[0];
    if (this.#sent.length >= this.#rate && oldest !== undefined) {
      return { granted: 0, waitMs: oldest + WINDOW_MS - now };
    }
    const granted = Math.min(wanted, this.#rate - this.#sent.length);
    for (let index = 0; index < granted; index += 1) this.#sent.push(now);
    return { granted, waitMs: 0 };
  }
}

/**
 * The same sliding window on the Redis the replicas share: one sorted set of send times per account,
 * kept by one script on Redis's own clock, so replicas' clocks need not agree.
 */
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local free = tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1])
if free > 0 then
  local granted = math.min(free, tonumber(ARGV[4]))
  for index = 1, granted do
    redis.call('ZADD', KEYS[1], now, ARGV[3] .. ':' .. index)
  end
  redis.call('PEXPIRE', KEYS[1], window)
  return {granted, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, math.max(1, tonumber(oldest[2]) + window - now)}
`;

/** Runs a Lua script on the shared Redis; rejects at once while disconnected. */
type EvalScript = (script: string, keys: string[], args: string[]) => Promise<unknown>;

/** After a failure Redis is left alone a moment: a frozen server costs one timeout a second. */
const SKIP_AFTER_FAILURE_MS = 1_000;

/**
 * Counted on Redis; while Redis does not answer, this process counts alone (`fallback`): each
 * replica keeps to the rate, rather than none.
 */
interface SharedWindowSettings {
  evalScript: EvalScript;
  /** The account's sorted set. */
  key: string;
  rate: number;
  fallback: MemoryWindow;
  /** A frozen Redis costs a question this long, then this process counts alone. */
  timeoutMs: number;
  logger: PacingLogger;
}

export class SharedWindow implements RateWindow {
  readonly #settings: SharedWindowSettings;
  #unavailable = false;
  #skipUntil = 0;

  constructor(settings: SharedWindowSettings) {
    this.#settings = settings;
  }

  async take(wanted: number): Promise<Taken> {
    const { evalScript, key, rate, fallback, timeoutMs, logger } = this.#settings;
    if (this.#unavailable && Date.now() < this.#skipUntil) return fallback.take(wanted);
    try {
      const counting = evalScript(
        TAKE_SCRIPT,
        [key],
        [String(rate), String(WINDOW_MS), randomUUID(), String(wanted)],
      );
      const reply = await within(counting, timeoutMs);
      if (reply === EXPIRED) throw new Error(`no answer within ${timeoutMs} ms`);
      const [granted, waitMs] = Array.isArray(reply) ? reply : [];
      if (typeof granted !== 'number' || typeof waitMs !== 'number') {
        throw new Error('the rate script answered no counts');
      }
      if (this.#unavailable) {
        this.#unavailable = false;
        logger.info({}, 'platform question rate counted on Redis again');
      }
      return { granted, waitMs };
    } catch (error) {
      this.#skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS;
      if (!this.#unavailable) {
        this.#unavailable = true;
        logger.warn(
          { err: error },
          'platform question rate unavailable on Redis; each replica keeps to it alone',
        );
      }
      return fallback.take(wanted);
    }
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
      for (;;) {
        // A question whose deadline passed while the count was on its way (a slow Redis) is not sent late.
        this.#refuseExpired(action, Date.now());
        if (this.#queue.length === 0) break;
        const wanted = Math.min(this.#queue.length, this.#settings.rate, MOST_TAKEN_AT_ONCE);
        let taken: Taken;
        try {
          taken = await this.#settings.window.take(wanted);
        } catch (error) {
          // Only a bug reaches here (the count falls back to this process); the questions go rather than hang.
          this.#settings.logger.warn({ err: error }, 'platform question rate not counted');
          taken = { granted: wanted, waitMs: 0 };
        }
        if (taken.granted > 0) {
          for (const waiter of this.#queue.splice(0, taken.granted)) waiter.resolve();
          continue;
        }
        const { waitMs } = taken;
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

  #refuseExpired(action: string, now: number): void {
    if (!this.#queue.some((waiter) => waiter.sendBy < now)) return;
    for (const waiter of this.#queue.splice(0)) {
      if (waiter.sendBy < now) waiter.reject(this.#refuse(action, 'deadline', waiter.requestId));
      else this.#queue.push(waiter);
    }
  }

  /** The soonest the question at `position` can go when the next second opens at `opensAt`. */
  #earliest(position: number, opensAt: number): number {
    return opensAt + Math.floor(position / this.#settings.rate) * WINDOW_MS;
  }

  /** Refuses now every question that cannot go before its deadline, counting seconds from `opensAt`. */
  #refuseLate(action: string, opensAt: number): void {
    const late: Waiter[] = [];
    let position = 0;
    for (const waiter of this.#queue.splice(0)) {
      if (this.#earliest(position, opensAt) > waiter.sendBy) {
        late.push(waiter);
      } else {
        this.#queue.push(waiter);
        position += 1;
      }
    }
    for (const waiter of late) waiter.reject(this.#refuse(action, 'deadline', waiter.requestId));
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
