// Slack's v0 request signature: `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{body}` keyed with the
// signing secret. The one implementation: the receiver checks with it, and the tests and the playground
// sign the requests they send the gateway with it, so a signer cannot drift from the checker.
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'v0';

/** The signature's bytes. The body is hashed as it came (a Buffer) or as it will be sent (a string). */
function digest(secret: string, timestamp: number | string, body: Buffer | string): Buffer {
  return createHmac('sha256', secret).update(`${VERSION}:${timestamp}:`).update(body).digest();
}

/** The value of X-Slack-Signature for `body` sent at `timestamp` (seconds). */
export function v0Signature(secret: string, timestamp: number | string, body: Buffer | string): string {
  return `${VERSION}=${digest(secret, timestamp, body).toString('hex')}`;
}

/**
 * Whether `signature` is the v0 signature of `body` at `timestamp`. Node's own constant-time comparison
 * rather than Bolt's isValidSlackRequest, whose tsscmp compares by computing two more HMACs: a
 * request's whole signature check then costs one HMAC instead of three.
 */
export function hasValidSignature(
  secret: string,
  timestamp: number,
  body: Buffer,
  signature: string,
): boolean {
  if (!signature.startsWith(`${VERSION}=`)) return false;
  const expected = digest(secret, timestamp, body);
  // Invalid hex decodes short, so it fails the length check.
  const given = Buffer.from(signature.slice(VERSION.length + 1), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
