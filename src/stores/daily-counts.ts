// Counts a day on any engine: gathered in the process, then one namespace each, a day's counts changed
// under a claim every replica honours.
import { z } from 'zod';
import type { DailyCount, DailyCountStore } from '../service-desk/daily-counts.js';
import { workspaceKey } from '../slack/handling/workspace.js';
import { takeWithin } from '../util/take-within.js';
import type { Forgettable, Namespace } from './namespace.js';

/** A day's counts by field; a field the day has not seen is absent. */
export const dailyCountSchema = z.record(z.string(), z.number().int().min(0));

/** A count is changed in milliseconds: a lock held longer is a dead replica's. */
const LOCK_TTL_SECONDS = 5;
/** A count may wait this long for another's; then it is given up (and logged by the caller). */
const LOCK_WAIT = { waitMs: 3_000, pollMs: 20 };

class DailyCountBusyError extends Error {
  override readonly name = 'DailyCountBusyError';
}

/** How long counts gather in the process before one write a workspace's day: not one write an answer. */
const FLUSH_EVERY_MS = 2_000;

export type BatchedDailyCounts<Field extends string> = DailyCountStore<Field> &
  Forgettable & {
    /** Writes what this process has counted; at shutdown, before the stores close. */
    flush(): Promise<void>;
    /** Whether anything counted is not written yet (or being written). */
    readonly unwritten: boolean;
  };

export function dailyCountStore<Field extends string>(
  days: Namespace<Record<string, number>>,
  fields: readonly Field[],
  /** Told of counts that could not be written (and are lost); never throws. */
  onWriteError: (error: unknown) => void = () => undefined,
): BatchedDailyCounts<Field> {
  const counted = (stored: Record<string, number> | undefined) =>
    Object.fromEntries(fields.map((field) => [field, stored?.[field] ?? 0])) as DailyCount<Field>;
  /** By `workspaceKey(workspace, day)`: what this process counted and has not written yet. */
  const pending = new Map<string, Record<string, number>>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let batchesWriting = 0;

  // Read, add, write under the claim: two replicas writing the same day at once both count.
  const write = async (key: string, added: Record<string, number>): Promise<void> => {
    const lock = `${key}:lock`;
    if (!(await takeWithin(() => days.claim(lock, LOCK_TTL_SECONDS), LOCK_WAIT))) {
      throw new DailyCountBusyError(`the count of ${key} stayed locked`);
    }
    try {
      const next: Record<string, number> = counted(await days.get(key));
      for (const [field, count] of Object.entries(added)) next[field] = (next[field] ?? 0) + count;
      await days.set(key, next);
    } finally {
      await days.release(lock);
    }
  };
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = [...pending];
    pending.clear();
    batchesWriting += 1;
    writing = writing.then(async () => {
      for (const [key, added] of batch) {
        await write(key, added).catch(onWriteError);
      }
      batchesWriting -= 1;
    });
    return writing;
  };
  return {
    async add(workspace, day, added) {
      const key = workspaceKey(workspace, day);
      const counts = pending.get(key) ?? {};
      for (const field of added) counts[field] = (counts[field] ?? 0) + 1;
      pending.set(key, counts);
      timer ??= setTimeout(() => void flush(), FLUSH_EVERY_MS).unref();
    },
    read: (workspace, asked) =>
      Promise.all(
        asked.map(async (day) => {
          const key = workspaceKey(workspace, day);
          const stored: Record<string, number> = counted(await days.get(key));
          for (const [field, count] of Object.entries(pending.get(key) ?? {})) {
            stored[field] = (stored[field] ?? 0) + count;
          }
          return stored as DailyCount<Field>;
        }),
      ),
    async deleteStartingWith(prefix) {
      for (const key of pending.keys()) if (key.startsWith(prefix)) pending.delete(key);
      await writing;
      return days.deleteStartingWith(prefix);
    },
    flush,
    get unwritten() {
      return pending.size > 0 || batchesWriting > 0;
    },
  };
}
