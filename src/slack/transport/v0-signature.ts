// Slack's v0 request signature, the one implementation: the receiver checks with it and the tests sign
// with it, so a signer cannot drift from the checker.
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'v0';

/** Hashed as it came (a Buffer) or as it will be sent (a string). */
function digest(secret: string, timestamp: number | string, body: Buffer | string): Buffer {
  return createHmac('sha256', secret).update(`${VERSION}:${timestamp}:`).update(body).digest();
}

export function v0Signature(secret: string, timestamp: number | string, body: Buffer | string): string {
  return `${VERSION}=${digest(secret, timestamp, body).toString('hex')}`;
}

/** Node's constant-time comparison, not Bolt's tsscmp, which computes two more HMACs. */
export function hasValidSignature(
  secret: string,
  timestamp: number,
  body: Buffer,
  signature: string,
): boolean {
  if (!signature.startsWith(`${VERSION}=`)) return false;
  const expected = digest(secret, timestamp, body);
  const given = Buffer.from(signature.slice(VERSION.length + 1), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
