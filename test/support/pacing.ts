// What a platform sees of PLATFORM_QUESTION_RATE, read from its request log: the pacing sends the
// ask `rate` places later at least a second after, but a busy machine may hold a send back after its
// turn (and the test's clock with it), so what arrives is checked with most of a second to spare.
import { expect } from 'vitest';

/** How far a stalled event loop may bring a send towards the next second's, and still pass. */
const STALL_MS = 900;

export function expectPaced(arrivals: readonly number[], rate: number): void {
  const times = [...arrivals].sort((a, b) => a - b);
  const seconds = Math.ceil(times.length / rate) - 1;
  // All of them took their turns: one second for each `rate` after the first.
  expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(seconds * 1_000 - STALL_MS);
  // And never bunched up: twice `rate` places later, two seconds later.
  for (let index = 0; index + 2 * rate < times.length; index += 1) {
    expect((times[index + 2 * rate] ?? 0) - (times[index] ?? 0)).toBeGreaterThanOrEqual(2_000 - STALL_MS);
  }
}
