// Counts a day on any engine: one namespace each, a day's counts changed under a claim every replica honours.
import { z } from 'zod';
import type { DailyCount, DailyCountStore } from '../service-desk/daily-counts.js';
import { workspaceKey } from '../slack/handling/workspace.js';
import { takeWithin } from '../util/take-within.js';
import type { Namespace } from './namespace.js';

/** A day's counts by field; a field the day has not seen is absent. */
export const dailyCountSchema = z.record(z.string(), z.number().int().min(0));

/** A count is changed in milliseconds: a lock held longer is a dead replica's. */
const LOCK_TTL_SECONDS = 5;
/** A count may wait this long for another's; then it is given up (and logged by the caller). */
const LOCK_WAIT = { waitMs: 3_000, pollMs: 20 };

class DailyCountBusyError extends Error {
  override readonly name = 'DailyCountBusyError';
}

export function dailyCountStore<Field extends string>(
  days: Namespace<Record<string, number>>,
  fields: readonly Field[],
): DailyCountStore<Field> & Pick<Namespace<never>, 'deleteStartingWith'> {
  const counted = (stored: Record<string, number> | undefined) =>
    Object.fromEntries(fields.map((field) => [field, stored?.[field] ?? 0])) as DailyCount<Field>;
  return {
    async add(workspace, day, added) {
      const key = workspaceKey(workspace, day);
      const lock = `${key}:lock`;
      // Read, add, write under the claim: two replicas counting the same day at once both count.
      if (!(await takeWithin(() => days.claim(lock, LOCK_TTL_SECONDS), LOCK_WAIT))) {
        throw new DailyCountBusyError(`the count of ${key} stayed locked`);
      }
      try {
        const next: Record<string, number> = counted(await days.get(key));
        for (const field of added) next[field] = (next[field] ?? 0) + 1;
        await days.set(key, next);
      } finally {
        await days.release(lock);
      }
    },
    read: (workspace, asked) =>
      Promise.all(asked.map(async (day) => counted(await days.get(workspaceKey(workspace, day))))),
    deleteStartingWith: (prefix) => days.deleteStartingWith(prefix),
  };
}
