// lru-cache caches its clock reading for ttlResolution ms, which would hide a test's injected jump.
import type { Perf } from 'lru-cache';

/** lru-cache's clock options: `now` read at every lookup where a test injects one; none otherwise. */
export function lruClock(now: (() => number) | undefined): { perf?: Perf; ttlResolution?: number } {
  return now ? { perf: { now }, ttlResolution: 0 } : {};
}
