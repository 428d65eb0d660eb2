// The week of 👍/👎 the demo starts with: the gateway counts ratings itself (the platform's figures
// hold none), and a fresh state would leave the past week's ratings chart, the digest's, empty.
import { createSqliteStores } from '../src/stores/sqlite.js';
import { addDays, todayIn } from '../src/util/time-zone.js';

/** Helpful and not helpful, from 7 days ago to yesterday. */
const WEEK: ReadonlyArray<readonly [up: number, down: number]> = [
  [6, 2],
  [9, 1],
  [4, 3],
  [7, 0],
  [11, 2],
  [5, 1],
  [8, 2],
];

/** Counts the week before today (in the zone ratings are counted in) for each workspace, as its ratings would. */
export async function writeDemoRatings(
  path: string,
  options: { workspaces: readonly string[]; timeZone: string },
): Promise<void> {
  const today = todayIn(options.timeZone, new Date());
  const stores = createSqliteStores(path, { ttlSeconds: 3600 });
  try {
    for (const workspace of options.workspaces) {
      for (const [index, [up, down]] of WEEK.entries()) {
        const day = addDays(today, index - WEEK.length);
        for (let count = 0; count < Math.max(up, down); count += 1) {
          await stores.dailyRatings.add(workspace, day, [
            ...(count < up ? ['up' as const] : []),
            ...(count < down ? ['down' as const] : []),
          ]);
        }
      }
    }
  } finally {
    // Written at the close: the gateway opens the file next.
    await stores.close();
  }
}
