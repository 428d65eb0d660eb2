// Slack checks the Request URL with a url_verification handshake before it sends any event.
import { describe, expect, it } from 'vitest';
import { SIGNING_SECRET, useGatewayHarness } from '../../support/gateway-harness.js';
import { urlVerification } from '../../support/slack-payloads.js';
import { JSON_CONTENT_TYPE, postToSlackApp } from '../../support/slack-signing.js';

const CHALLENGE = '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P';

describe('the url_verification handshake', () => {
  const harness = useGatewayHarness();

  it('answers a signed request 200 with the challenge, so Slack accepts the Request URL', async () => {
    const response = await postToSlackApp(harness().url, {
      body: JSON.stringify(urlVerification(CHALLENGE)),
      contentType: JSON_CONTENT_TYPE,
      secret: SIGNING_SECRET,
    });
    expect(response.status).toBe(200);
    // Slack accepts the challenge as plain text or as JSON {"challenge": ...}.
    const answered = response.text.startsWith('{')
      ? (JSON.parse(response.text) as { challenge?: unknown }).challenge
      : response.text;
    expect(answered).toBe(CHALLENGE);
  });

  it('answers an unsigned request 401 without the challenge, so nobody else can claim the URL', async () => {
    const response = await fetch(new URL('/slack/events', harness().url), {
      method: 'POST',
      headers: { 'content-type': JSON_CONTENT_TYPE },
      body: JSON.stringify(urlVerification(CHALLENGE)),
    });
    const text = await response.text();
    expect(response.status).toBe(401);
    expect(text).not.toContain(CHALLENGE);
  });
});
