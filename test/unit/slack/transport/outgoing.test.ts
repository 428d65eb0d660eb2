import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  guardOutgoingCalls,
  isWorthRetrying,
  webApiRetryPolicy,
} from '../../../../src/slack/transport/outgoing.js';
import { wellFormed, wellFormedJson } from '../../../../src/util/well-formed.js';
import { type FakeSlackApi, startFakeSlackApi } from '../../../support/fake-slack-api.js';

let slack: FakeSlackApi;
beforeAll(async () => {
  slack = await startFakeSlackApi();
});
afterAll(async () => {
  await slack.close();
});
beforeEach(() => {
  slack.reset();
});

/** A client that retries quickly, so a test sees the retries without waiting for them. */
function client(retries: number): webApi.WebClient {
  const policy = { ...webApiRetryPolicy(retries), minTimeout: 1, maxTimeout: 1, factor: 1 };
  return new webApi.WebClient('xoxb-test', {
    slackApiUrl: slack.url.endsWith('/') ? slack.url : `${slack.url}/`,
    retryConfig: policy,
  });
}

describe('the Web API retry policy', () => {
  it('gives up at once on a request that cannot be encoded, instead of retrying it for minutes', async () => {
    const started = Date.now();
    await expect(client(4).chat.postMessage({ channel: 'C1', text: 'half an emoji \uD83D' })).rejects.toThrow(
      URIError,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('does not retry a request Slack refused as malformed (HTTP 400)', async () => {
    slack.failNext('chat.postMessage', { status: 400 }, 5);
    await expect(client(4).chat.postMessage({ channel: 'C1', text: 'hi' })).rejects.toMatchObject({
      code: 'slack_webapi_http_error',
    });
    expect(slack.calls('chat.postMessage')).toHaveLength(1);
  });

  it('retries a server error, which the next attempt may not meet', async () => {
    slack.failNext('chat.postMessage', { status: 503 }, 1);
    await client(2).chat.postMessage({ channel: 'C1', text: 'hi' });
    expect(slack.calls('chat.postMessage')).toHaveLength(2);
  });

  it.each([
    [new URIError('URI malformed'), false],
    [new RangeError('Invalid string length'), false],
    [Object.assign(new Error('refused'), { code: 'slack_webapi_http_error', statusCode: 413 }), false],
    [Object.assign(new Error('slow down'), { code: 'slack_webapi_http_error', statusCode: 429 }), true],
    [Object.assign(new Error('bad gateway'), { code: 'slack_webapi_http_error', statusCode: 502 }), true],
    [
      Object.assign(new Error('request'), {
        code: 'slack_webapi_request_error',
        original: Object.assign(new Error('invalid header'), { code: 'UND_ERR_INVALID_ARG' }),
      }),
      false,
    ],
    [
      Object.assign(new Error('request'), {
        code: 'slack_webapi_request_error',
        original: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      }),
      true,
    ],
    [new Error('A rate limit was exceeded'), true],
  ])('%s worth retrying: %s', (error, expected) => {
    expect(isWorthRetrying(error)).toBe(expected);
  });
});

describe('guarded calls', () => {
  it('leave with well-formed strings and serialized blocks, whichever client method sent them', async () => {
    const guarded = guardOutgoingCalls(client(0));
    await guarded.chat.postEphemeral({
      channel: 'C1',
      user: 'U1',
      text: 'Call us \uD83D',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Call us \uDE00 now' } }],
    });
    const [call] = slack.calls('chat.postEphemeral');
    expect(call?.body.text).toBe('Call us \uFFFD');
    expect(JSON.stringify(call?.body.blocks)).toContain('Call us \uFFFD now');
  });

  it('send messages and views as JSON with the token in the header, and other methods as forms', async () => {
    const guarded = guardOutgoingCalls(client(0));
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text: '*Go* to <https://x.example|the portal> 😀' } },
    ];
    await guarded.chat.postMessage({ channel: 'C1', text: 'Go to the portal', blocks });
    await guarded.chat.update({ channel: 'C1', ts: '1.2', text: 'Go', blocks, token: 'xoxb-other' });
    await guarded.views.publish({ user_id: 'U1', view: { type: 'home', blocks } });
    await guarded.users.info({ user: 'U1' });
    const [posted] = slack.calls('chat.postMessage');
    expect(posted).toMatchObject({ contentType: 'application/json; charset=utf-8', token: 'xoxb-test' });
    expect(posted?.body).toEqual({ channel: 'C1', text: 'Go to the portal', blocks });
    const [updated] = slack.calls('chat.update');
    // A call's own token goes in its header too; the JSON carries none.
    expect(updated).toMatchObject({ contentType: 'application/json; charset=utf-8', token: 'xoxb-other' });
    expect(updated?.body.token).toBeUndefined();
    expect(slack.calls('views.publish')[0]?.body.view).toEqual({ type: 'home', blocks });
    expect(slack.calls('users.info')[0]).toMatchObject({
      contentType: 'application/x-www-form-urlencoded',
      body: { user: 'U1' },
    });
  });

  it('retry a JSON call with the same body', async () => {
    slack.failNext('chat.postMessage', { status: 503 }, 1);
    const guarded = guardOutgoingCalls(client(2));
    await guarded.chat.postMessage({ channel: 'C1', text: 'hi', blocks: [{ type: 'divider' }] });
    const calls = slack.calls('chat.postMessage');
    expect(calls).toHaveLength(2);
    expect(calls.map((call) => call.body)).toEqual([
      { channel: 'C1', text: 'hi', blocks: [{ type: 'divider' }] },
      { channel: 'C1', text: 'hi', blocks: [{ type: 'divider' }] },
    ]);
  });
});

describe('wellFormed', () => {
  it('returns the very same value when every string is well formed', () => {
    const value = { a: ['x', { b: 'y', n: 1 }], c: null };
    expect(wellFormed(value)).toBe(value);
  });

  it('replaces lone surrogates anywhere inside, keeping whole pairs and leaving the input unchanged', () => {
    const value = { a: ['ok 😀', { b: 'bad \uD83D' }], c: '\uDE00' };
    expect(wellFormed(value)).toEqual({ a: ['ok 😀', { b: 'bad \uFFFD' }], c: '\uFFFD' });
    expect(value.c).toBe('\uDE00');
  });
});

describe('wellFormedJson', () => {
  it('is JSON.stringify when every string is well formed, pairs and escaped backslashes included', () => {
    const value = { text: 'ok 😀 and a typed \\ud83d', n: [1, null] };
    expect(wellFormedJson(value)).toBe(JSON.stringify(value));
  });

  it('repairs a lone surrogate instead of escaping it', () => {
    expect(JSON.parse(wellFormedJson({ a: ['x \uD83D'] }))).toEqual({ a: ['x \uFFFD'] });
  });
});
