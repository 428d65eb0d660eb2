import type { AddressInfo } from 'node:net';
import { App, type BlockAction, type ButtonAction, LogLevel, verifySlackRequest } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlackApi, startFakeSlackApi } from '../../support/fake-slack-api.js';
import {
  appMention,
  blockActionsPayload,
  eventCallback,
  urlVerification,
} from '../../support/slack-payloads.js';
import {
  interactionBody,
  nowSeconds,
  postToSlackApp,
  retryHeaders,
  sendEvent,
  sendInteraction,
  sendSlashCommand,
  signSlackRequest,
} from '../../support/slack-signing.js';

const SECRET = 'test-signing-secret';

describe('signSlackRequest', () => {
  it("produces a signature Bolt's own verifier accepts", () => {
    const body = JSON.stringify(eventCallback(appMention({ text: 'hi' })));
    const headers = signSlackRequest(SECRET, body);

    expect(headers['x-slack-signature']).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(() =>
      verifySlackRequest({
        signingSecret: SECRET,
        body,
        headers: {
          'x-slack-signature': headers['x-slack-signature'],
          'x-slack-request-timestamp': Number(headers['x-slack-request-timestamp']),
        },
      }),
    ).not.toThrow();
  });

  it('is rejected by Bolt for another secret, another body, or a stale timestamp', () => {
    const body = 'payload=%7B%7D';
    const verify = (h: { 'x-slack-signature': string; 'x-slack-request-timestamp': string }, b = body) =>
      verifySlackRequest({
        signingSecret: SECRET,
        body: b,
        headers: {
          'x-slack-signature': h['x-slack-signature'],
          'x-slack-request-timestamp': Number(h['x-slack-request-timestamp']),
        },
      });

    expect(() => verify(signSlackRequest('other-secret', body))).toThrow(/signature mismatch/);
    expect(() => verify(signSlackRequest(SECRET, body), `${body}x`)).toThrow(/signature mismatch/);
    expect(() => verify(signSlackRequest(SECRET, body, nowSeconds() - 301))).toThrow(/stale/);
  });

  it('builds the interactivity body exactly as Slack does', () => {
    expect(interactionBody({ a: 'b c' })).toBe('payload=%7B%22a%22%3A%22b%20c%22%7D');
  });
});

describe('posting signed requests to a real Bolt app over HTTP', () => {
  let api: FakeSlackApi;
  let app: App;
  let baseUrl: string;
  const mentions: { text: string; retryNum: number | undefined; retryReason: string | undefined }[] = [];
  const clicks: string[] = [];
  const commands: string[] = [];

  beforeAll(async () => {
    api = await startFakeSlackApi();
    app = new App({
      signingSecret: SECRET,
      token: 'xoxb-test',
      botId: 'BBOT',
      botUserId: 'UBOT',
      // botId/botUserId given and verification off: Bolt never calls auth.test
      tokenVerificationEnabled: false,
      clientOptions: { slackApiUrl: api.url, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    app.event('app_mention', async ({ event, context, say }) => {
      mentions.push({ text: event.text, retryNum: context.retryNum, retryReason: context.retryReason });
      await say({ text: `echo: ${event.text}`, thread_ts: event.ts });
    });
    app.action<BlockAction<ButtonAction>>('faq_feedback_helpful', async ({ ack, action }) => {
      clicks.push(action.value ?? '');
      await ack();
    });
    app.command('/faq', async ({ ack, command }) => {
      commands.push(command.text);
      await ack();
    });
    const server = await app.start({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.stop();
    await api.close();
  });

  it('delivers a signed event to the listener, which replies through the fake Web API', async () => {
    const res = await sendEvent(
      baseUrl,
      SECRET,
      eventCallback(appMention({ text: '<@UBOT> hello', ts: '1.5' })),
    );

    expect(res.status).toBe(200);
    const post = await api.waitForCall('chat.postMessage', (c) => c.body.text === 'echo: <@UBOT> hello');
    expect(post).toMatchObject({ token: 'xoxb-test', body: { channel: 'C0LAN2Q65', thread_ts: '1.5' } });
  });

  it('passes Slack retry headers through to context.retryNum / retryReason', async () => {
    await sendEvent(
      baseUrl,
      SECRET,
      eventCallback(appMention({ text: 'retry me' })),
      retryHeaders(2, 'http_error'),
    );
    await api.waitForCall('chat.postMessage', (c) => c.body.text === 'echo: retry me');
    expect(mentions.find((m) => m.text === 'retry me')).toEqual({
      text: 'retry me',
      retryNum: 2,
      retryReason: 'http_error',
    });
  });

  it('delivers a block_actions interaction (payload=<json>, form-encoded)', async () => {
    const payload = blockActionsPayload({ actions: [{ action_id: 'faq_feedback_helpful', value: 'v-1' }] });
    const res = await sendInteraction(baseUrl, SECRET, payload);

    expect(res.status).toBe(200);
    expect(clicks).toContain('v-1');
  });

  it('delivers a slash command (plain form fields)', async () => {
    const res = await sendSlashCommand(baseUrl, SECRET, { command: '/faq', text: 'opening hours' });

    expect(res.status).toBe(200);
    expect(commands).toContain('opening hours');
  });

  it('answers url_verification with the challenge', async () => {
    const res = await sendEvent(baseUrl, SECRET, urlVerification('ch-1'));
    expect(res).toMatchObject({ status: 200, text: '{"challenge":"ch-1"}' });
  });

  it('rejects a forged signature and a stale timestamp with 401', async () => {
    const body = JSON.stringify(eventCallback(appMention({ text: 'forged' })));
    const forged = await postToSlackApp(baseUrl, {
      body,
      contentType: 'application/json',
      secret: SECRET,
      signature: `v0=${'0'.repeat(64)}`,
    });
    const stale = await postToSlackApp(baseUrl, {
      body,
      contentType: 'application/json',
      secret: SECRET,
      timestamp: nowSeconds() - 6 * 60,
    });

    expect([forged.status, stale.status]).toEqual([401, 401]);
    expect(mentions.map((m) => m.text)).not.toContain('forged');
  });
});
