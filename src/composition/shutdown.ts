// The graceful stop: drain for most of the grace, close in what remains, end when the grace does.
import { EXPIRED, within } from '../util/deadline.js';

/** With nothing in flight, closing takes milliseconds. */
const CLOSE_RESERVE_MS = 1_000;

export interface DrainSteps {
  drain(): Promise<unknown>;
  /** The work it waited for goes on. */
  onDrainCutShort(): void;
  /** `until` in epoch milliseconds; resolves with the names still closing. */
  close(until: number): Promise<readonly string[]>;
  onCloseCutShort(stillClosing: readonly string[]): void;
}

/** Counted from the call, as a supervisor's kill deadline counts from its signal. */
export async function drainWithin(graceMs: number, steps: DrainSteps): Promise<void> {
  const end = Date.now() + graceMs;
  const drainEnd = end - Math.min(CLOSE_RESERVE_MS, graceMs / 10);
  if ((await within(steps.drain(), drainEnd - Date.now())) === EXPIRED) steps.onDrainCutShort();
  const stillClosing = await within(steps.close(end), end - Date.now());
  if (stillClosing === EXPIRED) steps.onCloseCutShort([]);
  else if (stillClosing.length > 0) steps.onCloseCutShort(stillClosing);
}
