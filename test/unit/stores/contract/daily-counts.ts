// The contract of DailyCountStore: 👍/👎 and questions counted a day per workspace, none lost when replicas count at once.
import { describe, expect, it } from 'vitest';
import { openFleet, type StoreImplementation } from './fleet.js';

export function describeDailyCountStoreContract(implementation: StoreImplementation): void {
  describe('DailyCountStore', () => {
    it('counts every rating two replicas record at once, by day and by workspace', async () => {
      const [{ dailyRatings: a }, { dailyRatings: b }] = (await openFleet(implementation)).replicas;
      await Promise.all([
        ...Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? a : b).add('T1', '2026-11-27', ['up'])),
        a.add('T1', '2026-11-27', ['down']),
        b.add('T1', '2026-11-28', ['down']),
        a.add('T2', '2026-11-27', ['up']),
      ]);
      // Each replica writes what it counted every few seconds, or at once when told to.
      await Promise.all([a.flush(), b.flush()]);
      expect(await b.read('T1', ['2026-11-26', '2026-11-27', '2026-11-28'])).toEqual([
        { up: 0, down: 0 },
        { up: 6, down: 1 },
        { up: 0, down: 1 },
      ]);
      expect(await a.read('T2', ['2026-11-27'])).toEqual([{ up: 1, down: 0 }]);
    });

    it('adds several fields of a day at once, apart from another namespace’s counts', async () => {
      const [{ dailyQuestions: a }, { dailyQuestions: b, dailyRatings }] = (await openFleet(implementation))
        .replicas;
      await Promise.all([
        a.add('T1', '2026-11-27', ['asked', 'unanswered']),
        b.add('T1', '2026-11-27', ['asked']),
      ]);
      await Promise.all([a.flush(), b.flush()]);
      expect(await b.read('T1', ['2026-11-27'])).toEqual([{ asked: 2, unanswered: 1 }]);
      expect(await dailyRatings.read('T1', ['2026-11-27'])).toEqual([{ up: 0, down: 0 }]);
    });

    it('reads its own counts before they are written, and another replica reads them once written', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      await a.dailyRatings.add('T1', '2026-11-29', ['up']);
      await a.dailyRatings.add('T1', '2026-11-29', ['up']);
      expect(await a.dailyRatings.read('T1', ['2026-11-29'])).toEqual([{ up: 2, down: 0 }]);
      await a.dailyRatings.flush();
      expect(await b.dailyRatings.read('T1', ['2026-11-29'])).toEqual([{ up: 2, down: 0 }]);
      await a.dailyRatings.flush();
      expect(await b.dailyRatings.read('T1', ['2026-11-29'])).toEqual([{ up: 2, down: 0 }]);
    });

    it('forgets a workspace’s counts with the workspace, and no other’s', async () => {
      const [replica] = (await openFleet(implementation)).replicas;
      await replica.dailyRatings.add('T1', '2026-11-27', ['up']);
      await replica.dailyQuestions.add('T1', '2026-11-27', ['asked']);
      await replica.dailyRatings.add('T10', '2026-11-27', ['up']);
      await replica.forgetWorkspace('T1');
      expect(await replica.dailyRatings.read('T1', ['2026-11-27'])).toEqual([{ up: 0, down: 0 }]);
      expect(await replica.dailyRatings.read('T10', ['2026-11-27'])).toEqual([{ up: 1, down: 0 }]);
      expect(await replica.dailyQuestions.read('T1', ['2026-11-27'])).toEqual([{ asked: 0, unanswered: 0 }]);
    });
  });
}
