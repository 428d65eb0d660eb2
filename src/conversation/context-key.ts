// Keys of stored answer contexts: short enough for Slack button values, random enough not to be guessed.
import { randomFillSync } from 'node:crypto';

/** 9 random bytes are exactly 12 base64url characters (72 bits), with no padding. */
const KEY_BYTES = 9;
/** Seconds since the epoch in base 36: seven digits until the year 4453. */
const TIME_DIGITS = 7;

/** One call into the CSPRNG serves 512 keys: a call per answer was a measurable share of its CPU. */
const pool = Buffer.alloc(KEY_BYTES * 512);
let poolOffset = pool.length;

/**
 * The time it was made (seconds, base 36, fixed width: digits sort before letters, so a later key
 * sorts later), then 72 random bits, which alone make it unguessable. The time lead puts the contexts
 * written together side by side in a SQLite file: each answer's context landed on a page of its own
 * at random, and a commit writes every page it touched (see timeLedId in stores/sqlite-database.ts).
 */
export function newContextKey(nowMs: number = Date.now()): string {
  if (poolOffset + KEY_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const random = pool.toString('base64url', poolOffset, poolOffset + KEY_BYTES);
  poolOffset += KEY_BYTES;
  return `${Math.floor(nowMs / 1000)
    .toString(36)
    .padStart(TIME_DIGITS, '0')}${random}`;
}
