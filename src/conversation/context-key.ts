// Keys of stored answer contexts: short enough for Slack button values, random enough not to be guessed.
import { randomFillSync } from 'node:crypto';

/** 72 bits as exactly 12 base64url characters, no padding. */
const KEY_BYTES = 9;
/** Base 36 seconds: seven digits until the year 4453. */
const TIME_DIGITS = 7;

/** One call into the CSPRNG serves 512 keys. */
const pool = Buffer.alloc(KEY_BYTES * 512);
let poolOffset = pool.length;

/** Time first, fixed width, so contexts written together sit together in SQLite (docs/decisions/011). */
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
