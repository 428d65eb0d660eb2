// The graceful stop as one piece: the work in flight is drained for most of the grace, then what is
// open is closed in what remains, and the whole ends when the grace does, whatever is still open.
import { EXPIRED, within } from '../util/deadline.js';

/** At most this much of the grace is kept for closing: with nothing in flight, it takes milliseconds. */
const CLOSE_RESERVE_MS = 1_000;

export interface DrainSteps {
  /** Stops taking new work and resolves once the work in flight is done. */
  drain(): Promise<unknown>;
  /** Told when the drain's part of the grace ran out first; the work it waited for goes on. */
  onDrainCutShort(): void;
  /** Closes what is open by `until` (epoch milliseconds); resolves with the names still closing. */
  close(until: number): Promise<readonly string[]>;
  /** Told when the grace ended with something still closing (its names, when close() could tell). */
  onCloseCutShort(stillClosing: readonly string[]): void;
}

/**
 * Runs the steps within `graceMs`, counted from the call, as a supervisor's kill deadline counts from
 * its signal. The drain's part ends shortly before the grace, so closing always has its turn.
 */
export async function drainWithin(graceMs: number, steps: DrainSteps): Promise<void> {
  const end = Date.now() + graceMs;
  const drainEnd = end - Math.min(CLOSE_RESERVE_MS, graceMs / 10);
  if ((await within(steps.drain(), drainEnd - Date.now())) === EXPIRED) steps.onDrainCutShort();
  const stillClosing = await within(steps.close(end), end - Date.now());
  if (stillClosing === EXPIRED) steps.onCloseCutShort([]);
  else if (stillClosing.length > 0) steps.onCloseCutShort(stillClosing);
}
