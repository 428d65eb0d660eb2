import { createHmac } from 'node:crypto';
import { isValidSlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { hasValidSignature } from '../../../../src/slack/transport/v0-signature.js';

// The worked example of Slack's "Verifying requests from Slack" guide.
const SLACK_EXAMPLE = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: 1531420618,
  body: 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

describe('hasValidSignature', () => {
  const { secret, timestamp, body, signature } = SLACK_EXAMPLE;
  const bytes = Buffer.from(body);

  it("accepts Slack's own worked example", () => {
    expect(hasValidSignature(secret, timestamp, bytes, signature)).toBe(true);
  });

  it.each([
    ['a changed last digit', `${signature.slice(0, -1)}0`],
    ['upper-case hex', signature.toUpperCase().replace('V0=', 'v0=')],
    ['another version prefix', signature.replace('v0=', 'v1=')],
    ['no prefix', signature.slice(3)],
    ['half the digest', signature.slice(0, 35)],
    ['non-hex digits', `v0=${'z'.repeat(64)}`],
    ['an empty signature', ''],
  ])('refuses %s', (_name, forged) => {
    // Upper-case hex decodes to the same bytes; Slack sends lower case, and equal bytes are equal.
    const expected = forged.toLowerCase() === signature;
    expect(hasValidSignature(secret, timestamp, bytes, forged)).toBe(expected);
  });

  it('refuses another timestamp, another body or another secret', () => {
    expect(hasValidSignature(secret, timestamp + 1, bytes, signature)).toBe(false);
    expect(hasValidSignature(secret, timestamp, Buffer.from(`${body} `), signature)).toBe(false);
    expect(hasValidSignature(`${secret}x`, timestamp, bytes, signature)).toBe(false);
  });

  it("agrees with Bolt's verifier on a body with multi-byte characters", () => {
    const text = JSON.stringify({ type: 'event_callback', event: { type: 'message', text: '你好 👋 café' } });
    const now = Math.floor(Date.now() / 1000);
    const sig = `v0=${createHmac('sha256', secret).update(`v0:${now}:${text}`).digest('hex')}`;
    for (const candidate of [sig, `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`]) {
      const bolt = isValidSlackRequest({
        signingSecret: secret,
        body: text,
        headers: { 'x-slack-signature': candidate, 'x-slack-request-timestamp': now },
      });
      expect(hasValidSignature(secret, now, Buffer.from(text), candidate)).toBe(bolt);
    }
    expect(hasValidSignature(secret, now, Buffer.from(text), sig)).toBe(true);
  });
});
