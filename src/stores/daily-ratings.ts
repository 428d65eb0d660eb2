// The 👍/👎 counts a day on any engine: one namespace, each day's count changed under a claim every replica honours.
import { z } from 'zod';
import type { Rating } from '../conversation/types.js';
import type { DailyRatingStore, RatingDay } from '../service-desk/daily-ratings.js';
import { workspaceKey } from '../slack/handling/workspace.js';
import { takeWithin } from '../util/take-within.js';
import type { Namespace } from './namespace.js';

export const ratingDaySchema = z.object({ up: z.number().int().min(0), down: z.number().int().min(0) });

/** A count is changed in milliseconds: a lock held longer is a dead replica's. */
const LOCK_TTL_SECONDS = 5;
/** A rating's count may wait this long for another's; then it is given up (and logged by the caller). */
const LOCK_WAIT = { waitMs: 3_000, pollMs: 20 };

class RatingCountBusyError extends Error {
  override readonly name = 'RatingCountBusyError';
}

export function dailyRatingStore(
  days: Namespace<RatingDay>,
): DailyRatingStore & Pick<Namespace<RatingDay>, 'deleteStartingWith'> {
  return {
    async add(workspace: string, day: string, rating: Rating) {
      const key = workspaceKey(workspace, day);
      const lock = `${key}:lock`;
      // Read, add, write under the claim: two replicas counting the same day at once both count.
      if (!(await takeWithin(() => days.claim(lock, LOCK_TTL_SECONDS), LOCK_WAIT))) {
        throw new RatingCountBusyError(`the count of ${key} stayed locked`);
      }
      try {
        const counted = (await days.get(key)) ?? { up: 0, down: 0 };
        await days.set(
          key,
          rating === 1 ? { ...counted, up: counted.up + 1 } : { ...counted, down: counted.down + 1 },
        );
      } finally {
        await days.release(lock);
      }
    },
    read: (workspace, asked) =>
      Promise.all(
        asked.map(async (day) => (await days.get(workspaceKey(workspace, day))) ?? { up: 0, down: 0 }),
      ),
    deleteStartingWith: (prefix) => days.deleteStartingWith(prefix),
  };
}
