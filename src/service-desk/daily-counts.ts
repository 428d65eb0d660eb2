// Counts a day per workspace that the platform does not keep: 👍/👎 on the robot's answers, and the
// questions the robot was asked and could not answer. The gateway counts them as they happen.
import { daysOf, type Period } from './statistics.js';

export const RATING_FIELDS = ['up', 'down'] as const;
export type RatingField = (typeof RATING_FIELDS)[number];
export const QUESTION_FIELDS = ['asked', 'unanswered'] as const;
export type QuestionField = (typeof QUESTION_FIELDS)[number];

export type DailyCount<Field extends string> = Record<Field, number>;

/** Kept past two of the longest charts' periods (31 days each), so a month beside the one before is whole. */
export const DAILY_COUNTS_KEPT_SECONDS = 70 * 24 * 3600;

/** The counts, by workspace and calendar day (yyyy-MM-dd); src/stores keeps them. */
export interface DailyCountStore<Field extends string> {
  /** One more of each field on that day; every replica's counted, none lost to another's. */
  add(workspace: string, day: string, fields: readonly Field[]): Promise<void>;
  /** Each day's counts, in the order asked; a field not counted that day is zero. */
  read(workspace: string, days: readonly string[]): Promise<DailyCount<Field>[]>;
}

export interface DailySeriesOf<Field extends string> {
  period: Period;
  /** yyyy-MM-dd of each day of `period`, in order. */
  days: string[];
  counts: DailyCount<Field>[];
}

export type RatingSeries = DailySeriesOf<RatingField>;

/** The period's days and their counts; rejects when the store cannot be read. */
export async function dailyCounts<Field extends string>(
  store: Pick<DailyCountStore<Field>, 'read'>,
  workspace: string,
  period: Period,
): Promise<DailySeriesOf<Field>> {
  const days = daysOf(period);
  return { period, days, counts: await store.read(workspace, days) };
}
