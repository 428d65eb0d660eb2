// Keys of stored answer contexts: short enough for Slack button values, random enough not to be guessed.
import { randomFillSync } from 'node:crypto';

/** 9 random bytes are exactly 12 base64url characters (72 bits), with no padding. */
const KEY_BYTES = 9;
/** For schemas, e.g. `z.string().regex(CONTEXT_KEY_PATTERN)`. */
const CONTEXT_KEY_PATTERN = /^[A-Za-z0-9_-]{12}$/;

/** One call into the CSPRNG serves 512 keys: a call per answer was a measurable share of its CPU. */
const pool = Buffer.alloc(KEY_BYTES * 512);
let poolOffset = pool.length;

export function newContextKey(): string {
  if (poolOffset + KEY_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const key = pool.toString('base64url', poolOffset, poolOffset + KEY_BYTES);
  poolOffset += KEY_BYTES;
  return key;
}

/** True for a string that newContextKey could have made; button values are untrusted input. */
export function isContextKey(value: unknown): value is string {
  return typeof value === 'string' && CONTEXT_KEY_PATTERN.test(value);
}
