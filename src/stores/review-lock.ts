// The per-card lock every shared review store honours: taken with an owner token of its own, a change
// written only while the lock is still its owner's, released by its owner only.
import { randomUUID } from 'node:crypto';
import { ReviewCardBusyError } from '../review/stores.js';
import type { ReviewCard } from '../review/types.js';
import { positive, positiveInteger } from '../util/positive.js';
import { takeWithin } from '../util/take-within.js';
import type { KeptStrings } from './namespace.js';
import type { CardChange } from './review-workspaces.js';

export interface ReviewLockOptions {
  /** If its owner dies mid-change; a change may call Slack. Whole seconds. */
  lockTtlSeconds?: number;
  /** Then ReviewCardBusyError. */
  lockWaitMs?: number;
  lockPollMs?: number;
}

interface ReviewLockSettings {
  ttlSeconds: number;
  waitMs: number;
  pollMs: number;
}

const DEFAULT_LOCK_TTL_SECONDS = 15;
const DEFAULT_LOCK_WAIT_MS = 10_000;
const DEFAULT_LOCK_POLL_MS = 50;

/** A RangeError names the option that cannot work. */
export function reviewLockSettings(options: ReviewLockOptions): ReviewLockSettings {
  const ttlSeconds = positiveInteger('lockTtlSeconds', options.lockTtlSeconds ?? DEFAULT_LOCK_TTL_SECONDS);
  const waitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  const pollMs = positive('lockPollMs', options.lockPollMs ?? DEFAULT_LOCK_POLL_MS);
  if (!(waitMs >= 0)) throw new RangeError(`lockWaitMs must be >= 0, got ${waitMs}`);
  return { ttlSeconds, waitMs, pollMs };
}

export class CardLocks<Strings extends KeptStrings = KeptStrings> {
  /** Each lock's owner, under the lock's key. */
  readonly strings: Strings;
  readonly #settings: ReviewLockSettings;

  constructor(strings: Strings, options: ReviewLockOptions) {
    this.strings = strings;
    this.#settings = reviewLockSettings(options);
  }

  /**
   * Runs `change` on what `read` finds, under the lock at `lockKey`; `write` is given the changed card
   * and the owner, and says false when the lock is no longer the owner's (a change that outlived it
   * must not overwrite what the change that took the lapsed lock wrote since).
   */
  async change<T>(
    cardId: string,
    lockKey: string,
    read: () => Promise<ReviewCard | undefined>,
    change: CardChange<T>,
    write: (card: ReviewCard, owner: string) => boolean | Promise<boolean>,
  ): Promise<T> {
    const locks = this.strings;
    const { ttlSeconds, waitMs } = this.#settings;
    // Random, so no other replica, and no later run of this one, holds the same token.
    const owner = randomUUID();
    const take = () => locks.setRaw(lockKey, owner, ttlSeconds, { onlyIfAbsent: true });
    if (!(await takeWithin(take, this.#settings))) {
      throw new ReviewCardBusyError(`review card ${cardId} stayed locked for ${waitMs} ms`);
    }
    try {
      const { card, result } = await change(await read());
      if (card && !(await write(card, owner))) {
        throw new ReviewCardBusyError(`review card ${cardId}: the lock lapsed before the change was written`);
      }
      return result;
    } finally {
      try {
        await locks.deleteIfEquals(lockKey, owner);
      } catch {
        // A failed release only delays the next change until the lock lapses: the outcome stands.
      }
    }
  }
}
