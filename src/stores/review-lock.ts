// The per-card lock every shared review store honours.
import { ReviewCardBusyError } from '../review/stores.js';
import { takeWithin } from '../util/take-within.js';

export interface ReviewLockOptions {
  /** If its owner dies mid-change; a change may call Slack. Whole seconds. */
  lockTtlSeconds?: number;
  /** Then ReviewCardBusyError. */
  lockWaitMs?: number;
  lockPollMs?: number;
}

export interface ReviewLockSettings {
  ttlSeconds: number;
  waitMs: number;
  pollMs: number;
}

const DEFAULT_LOCK_TTL_SECONDS = 15;
const DEFAULT_LOCK_WAIT_MS = 10_000;
const DEFAULT_LOCK_POLL_MS = 50;

/** A RangeError names the option that cannot work. */
export function reviewLockSettings(options: ReviewLockOptions): ReviewLockSettings {
  const ttlSeconds = options.lockTtlSeconds ?? DEFAULT_LOCK_TTL_SECONDS;
  const waitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  const pollMs = options.lockPollMs ?? DEFAULT_LOCK_POLL_MS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1) {
    throw new RangeError(`lockTtlSeconds must be a positive integer, got ${ttlSeconds}`);
  }
  if (!(waitMs >= 0)) throw new RangeError(`lockWaitMs must be >= 0, got ${waitMs}`);
  if (!(pollMs > 0)) throw new RangeError(`lockPollMs must be positive, got ${pollMs}`);
  return { ttlSeconds, waitMs, pollMs };
}

export async function waitForCardLock(
  cardId: string,
  settings: ReviewLockSettings,
  tryTake: () => boolean | Promise<boolean>,
): Promise<void> {
  if (await takeWithin(tryTake, settings)) return;
  throw new ReviewCardBusyError(`review card ${cardId} stayed locked for ${settings.waitMs} ms`);
}
