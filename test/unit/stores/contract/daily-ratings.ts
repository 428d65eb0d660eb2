// The contract of DailyRatingStore: 👍/👎 counted a day per workspace, none lost when replicas count at once.
import { describe, expect, it } from 'vitest';
import { openFleet, type StoreImplementation } from './fleet.js';

export function describeDailyRatingStoreContract(implementation: StoreImplementation): void {
  describe('DailyRatingStore', () => {
    it('counts every rating two replicas record at once, by day and by workspace', async () => {
      const [{ dailyRatings: a }, { dailyRatings: b }] = (await openFleet(implementation)).replicas;
      await Promise.all([
        ...Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? a : b).add('T1', '2026-11-27', 1)),
        a.add('T1', '2026-11-27', 2),
        b.add('T1', '2026-11-28', 2),
        a.add('T2', '2026-11-27', 1),
      ]);
      expect(await b.read('T1', ['2026-11-26', '2026-11-27', '2026-11-28'])).toEqual([
        { up: 0, down: 0 },
        { up: 6, down: 1 },
        { up: 0, down: 1 },
      ]);
      expect(await a.read('T2', ['2026-11-27'])).toEqual([{ up: 1, down: 0 }]);
    });

    it('forgets a workspace’s counts with the workspace, and no other’s', async () => {
      const [replica] = (await openFleet(implementation)).replicas;
      await replica.dailyRatings.add('T1', '2026-11-27', 1);
      await replica.dailyRatings.add('T10', '2026-11-27', 1);
      await replica.forgetWorkspace('T1');
      expect(await replica.dailyRatings.read('T1', ['2026-11-27'])).toEqual([{ up: 0, down: 0 }]);
      expect(await replica.dailyRatings.read('T10', ['2026-11-27'])).toEqual([{ up: 1, down: 0 }]);
    });
  });
}
