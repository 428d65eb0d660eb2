import { describe, expect, it } from 'vitest';
import { hasValidSignature, v0Signature } from '../../../../src/slack/transport/v0-signature.js';

// The worked example of Slack's "Verifying requests from Slack" guide (receiver-signature.test.ts
// checks the verifier against it and against Bolt's).
const secret = '8f742231b10e8888abcd99yyyzzz85a5';
const timestamp = 1531420618;
const body =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';

describe('v0Signature', () => {
  it("signs Slack's worked example as Slack does", () => {
    expect(v0Signature(secret, timestamp, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('signs a string and its UTF-8 bytes alike, and the verifier accepts what it signs', () => {
    const text = JSON.stringify({ text: '你好 👋 café' });
    const signed = v0Signature(secret, String(timestamp), text);
    expect(v0Signature(secret, timestamp, Buffer.from(text))).toBe(signed);
    expect(hasValidSignature(secret, timestamp, Buffer.from(text), signed)).toBe(true);
  });
});
