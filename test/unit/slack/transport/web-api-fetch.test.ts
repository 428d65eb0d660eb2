import { createServer } from 'node:net';
import { LogLevel, webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackFetch, type SlackFetch } from '../../../../src/slack/transport/web-api-fetch.js';
import { type FakeSlackApi, startFakeSlackApi } from '../../../support/fake-slack-api.js';

// The SDK's WebClient on the lean transport must behave exactly as on the global fetch: same request
// on the wire, same results, same error types, same rate-limit handling.
describe('Slack Web API client on the undici transport', () => {
  let api: FakeSlackApi;
  let slackFetch: SlackFetch;
  const clientWith = (options: webApi.WebClientOptions = {}) =>
    new webApi.WebClient('xoxb-test', {
      slackApiUrl: api.url,
      retryConfig: { retries: 0 },
      logLevel: LogLevel.ERROR,
      fetch: slackFetch.fetch,
      ...options,
    });

  beforeEach(async () => {
    api = await startFakeSlackApi();
    slackFetch = createSlackFetch();
  });

  afterEach(async () => {
    await slackFetch.close();
    await api.close();
  });

  it('posts a message with its token, blocks and thread, and returns Slack’s answer', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*你好* & <b>' } }];
    const result = await clientWith().apiCall('chat.postMessage', {
      channel: 'C1',
      text: 'hi',
      thread_ts: '1.2',
      blocks: JSON.stringify(blocks),
    });

    expect(result).toMatchObject({ ok: true, channel: 'C1', message: { text: 'hi', blocks } });
    const call = await api.waitForCall('chat.postMessage');
    expect(call.token).toBe('xoxb-test');
    expect(call.body).toMatchObject({ channel: 'C1', text: 'hi', thread_ts: '1.2', blocks });
  });

  it('keeps connections alive between calls instead of opening one per call', async () => {
    const client = clientWith();
    for (let i = 0; i < 10; i += 1) await client.chat.postMessage({ channel: 'C1', text: `m${i}` });
    // The pool may open a second connection when a call starts before the previous one's socket is
    // handed back; it never opens one per call.
    const connections = new Set(api.calls('chat.postMessage').map((call) => call.remotePort));
    expect(connections.size).toBeLessThanOrEqual(2);
  });

  it('surfaces a Slack error as the SDK’s platform error', async () => {
    api.failNext('chat.postMessage', { error: 'channel_not_found' });
    await expect(clientWith().chat.postMessage({ channel: 'C404', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.PlatformError,
      data: { error: 'channel_not_found' },
    });
  });

  it('surfaces an HTTP 500 as the SDK’s HTTP error with its status', async () => {
    api.failNext('chat.update', { status: 500 });
    await expect(clientWith().chat.update({ channel: 'C1', ts: '1.2', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.HTTPError,
      statusCode: 500,
    });
  });

  it('waits out a 429 with Retry-After and retries', async () => {
    api.failNext('chat.postMessage', { status: 429, retryAfter: 0 });
    const client = clientWith({ retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 } });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).resolves.toMatchObject({ ok: true });
    expect(api.calls('chat.postMessage').map((call) => call.status)).toEqual([429, 200]);
  });

  it('reads Retry-After for a rejected rate-limited call', async () => {
    api.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    const client = clientWith({ rejectRateLimitedCalls: true });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
      retryAfter: 7,
    });
  });

  it('surfaces a refused connection as the SDK’s request error', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const client = clientWith({ slackApiUrl: `http://127.0.0.1:${closedPort}/api/` });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RequestError,
    });
  });
});
