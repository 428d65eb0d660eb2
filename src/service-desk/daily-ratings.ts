// 👍/👎 a day per workspace: the platform counts no robot ratings by day, so the gateway counts its own.
import type { Rating } from '../conversation/types.js';
import { addDays, daysBetween } from '../util/time-zone.js';
import type { Period } from './statistics.js';

export interface RatingDay {
  up: number;
  down: number;
}

/** Kept past two of the longest charts' periods (31 days each), so a month beside the one before is whole. */
export const RATING_DAYS_KEPT_SECONDS = 70 * 24 * 3600;

/** The counts, by workspace and calendar day (yyyy-MM-dd); src/stores keeps them. */
export interface DailyRatingStore {
  /** One more 👍 (1) or 👎 (2) on that day; every replica's counted, none lost to another's. */
  add(workspace: string, day: string, rating: Rating): Promise<void>;
  /** Each day's counts, in the order asked; a day without ratings is zero. */
  read(workspace: string, days: readonly string[]): Promise<RatingDay[]>;
}

export interface RatingSeries {
  period: Period;
  /** yyyy-MM-dd of each day of `period`, in order. */
  days: string[];
  counts: RatingDay[];
}

/** The period's days and their counts; rejects when the store cannot be read. */
export async function dailyRatings(
  store: Pick<DailyRatingStore, 'read'>,
  workspace: string,
  period: Period,
): Promise<RatingSeries> {
  const days = Array.from({ length: daysBetween(period.from, period.to) + 1 }, (_, index) =>
    addDays(period.from, index),
  );
  return { period, days, counts: await store.read(workspace, days) };
}
