// Keys of stored answer contexts: short enough for Slack button values, random enough not to be guessed.
import { randomBytes } from 'node:crypto';

/** 9 random bytes are exactly 12 base64url characters (72 bits), with no padding. */
const KEY_BYTES = 9;
/** For schemas, e.g. `z.string().regex(CONTEXT_KEY_PATTERN)`. */
export const CONTEXT_KEY_PATTERN = /^[A-Za-z0-9_-]{12}$/;

export function newContextKey(): string {
  return randomBytes(KEY_BYTES).toString('base64url');
}

/** True for a string that newContextKey could have made; button values are untrusted input. */
export function isContextKey(value: unknown): value is string {
  return typeof value === 'string' && CONTEXT_KEY_PATTERN.test(value);
}
