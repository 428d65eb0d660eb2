import { LogLevel, webApi } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import {
  retryAfterSeconds,
  SlackRateLimitGaveUp,
  SlackRateLimits,
  withReadableRetryAfter,
} from '../../../../src/slack/transport/rate-limits.js';
import { connectSlackWebApi, type SlackWebApi } from '../../../../src/slack/transport/web-api.js';
import { type FakeSlackApi, startFakeSlackApi } from '../../../support/fake-slack-api.js';
import { logSink } from '../../../support/log-sink.js';

/** Slack as the SDK shows it with rejectRateLimitedCalls: a post to a limited channel rejects with its wait. */
function limitedSlack() {
  const posted: string[] = [];
  const attempts: string[] = [];
  const limitedUntil = new Map<string, number>();
  return {
    posted,
    attempts,
    limit(channel: string, seconds: number) {
      limitedUntil.set(channel, Date.now() + seconds * 1000);
    },
    post(channel: string, text: string) {
      return async (): Promise<string> => {
        attempts.push(`${channel}:${text}`);
        const until = limitedUntil.get(channel) ?? 0;
        if (until > Date.now()) {
          throw new webApi.WebAPIRateLimitedError(Math.ceil((until - Date.now()) / 1000));
        }
        posted.push(`${channel}:${text}`);
        return text;
      };
    },
  };
}

function gate(giveUpAfterMs = 60_000) {
  const sink = logSink();
  const out = { logger: createLogger({ level: 'debug', destination: sink.destination }) };
  const outcomes: string[] = [];
  const limits = new SlackRateLimits({
    giveUpAfterMs,
    onOutcome: (method, outcome) => outcomes.push(`${method}:${outcome}`),
  });
  const send = (channel: string, call: () => Promise<string>) =>
    limits.send(out, 'chat.postMessage', channel, call);
  return { send, outcomes, sink };
}

describe("the gate over Slack's per-channel rate limits", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends another channel's post at once while a limited channel waits", async () => {
    const slack = limitedSlack();
    const { send } = gate();
    slack.limit('CA', 3);
    const limited = send('CA', slack.post('CA', 'a1'));
    await vi.advanceTimersByTimeAsync(0);

    await expect(send('CB', slack.post('CB', 'b1'))).resolves.toBe('b1');
    expect(slack.posted).toEqual(['CB:b1']);
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(limited).resolves.toBe('a1');
  });

  it("keeps one channel's posts in order, all after its Retry-After", async () => {
    const slack = limitedSlack();
    const { send, outcomes } = gate();
    slack.limit('CA', 3);
    const first = send('CA', slack.post('CA', 'a1'));
    await vi.advanceTimersByTimeAsync(0);
    // Asked while the channel is held back: they queue behind the first instead of meeting a 429.
    const second = send('CA', slack.post('CA', 'a2'));
    const third = send('CA', slack.post('CA', 'a3'));

    await vi.advanceTimersByTimeAsync(2_999);
    expect(slack.posted).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(Promise.all([first, second, third])).resolves.toEqual(['a1', 'a2', 'a3']);
    expect(slack.posted).toEqual(['CA:a1', 'CA:a2', 'CA:a3']);
    expect(slack.attempts).toEqual(['CA:a1', 'CA:a1', 'CA:a2', 'CA:a3']);
    expect(outcomes).toEqual(Array(3).fill('chat.postMessage:waited'));
  });

  it('keeps the order of posts that met the 429 together', async () => {
    const slack = limitedSlack();
    const { send } = gate();
    slack.limit('CA', 1);
    const both = Promise.all([send('CA', slack.post('CA', 'a1')), send('CA', slack.post('CA', 'a2'))]);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(both).resolves.toEqual(['a1', 'a2']);
    expect(slack.posted).toEqual(['CA:a1', 'CA:a2']);
  });

  it('waits again when the retry meets another 429', async () => {
    const slack = limitedSlack();
    const { send } = gate();
    slack.limit('CA', 1);
    const post = send('CA', slack.post('CA', 'a1'));
    await vi.advanceTimersByTimeAsync(0);
    slack.limit('CA', 2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(slack.posted).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(post).resolves.toBe('a1');
    expect(slack.attempts).toHaveLength(3);
  });

  it("gives up on a post whose wait ends past the question's deadline: logged and counted, tried once", async () => {
    const slack = limitedSlack();
    const { send, outcomes, sink } = gate(2_000);
    slack.limit('CA', 5);
    const post = send('CA', slack.post('CA', 'the secret answer'));

    await expect(post).rejects.toBeInstanceOf(SlackRateLimitGaveUp);
    expect(slack.attempts).toEqual(['CA:the secret answer']);
    expect(outcomes).toEqual(['chat.postMessage:gave_up']);
    const warning = sink.records.find((record) => record.level === 40);
    expect(warning).toMatchObject({ method: 'chat.postMessage', channel: 'CA' });
    expect(sink.lines.join('\n')).not.toContain('secret');
    // Posts queued behind it give up too rather than wait past their own deadlines.
    await expect(send('CA', slack.post('CA', 'a2'))).rejects.toBeInstanceOf(SlackRateLimitGaveUp);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(send('CA', slack.post('CA', 'a3'))).resolves.toBe('a3');
  });

  it('gives up on a post whose turn comes past its deadline, behind a slow one', async () => {
    const slack = limitedSlack();
    const { send, outcomes } = gate(1_500);
    slack.limit('CA', 1);
    const slowPost = slack.post('CA', 'a1');
    const first = send('CA', async () => {
      const sent = await slowPost();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return sent;
    });
    await vi.advanceTimersByTimeAsync(0);
    const second = send('CA', slack.post('CA', 'a2'));
    const secondSettled = expect(second).rejects.toBeInstanceOf(SlackRateLimitGaveUp);

    await vi.advanceTimersByTimeAsync(2_000);
    await expect(first).resolves.toBe('a1');
    await secondSettled;
    expect(slack.posted).toEqual(['CA:a1']);
    expect(outcomes).toEqual(['chat.postMessage:waited', 'chat.postMessage:gave_up']);
  });

  it('passes any other failure through at once, without waiting or retrying', async () => {
    const { send, outcomes } = gate();
    const refused = Object.assign(new Error('channel_not_found'), { code: 'slack_webapi_platform_error' });
    let attempts = 0;
    await expect(
      send('CA', async () => {
        attempts += 1;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(attempts).toBe(1);
    expect(outcomes).toEqual([]);
  });
});

describe('a Retry-After header read as whole seconds', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it.each([
    ['3', 3],
    ['0', 0],
    [' 30 ', 30],
    ['1.5', 2],
    [new Date(now + 5_000).toUTCString(), 5],
    [new Date(now - 5_000).toUTCString(), 0],
    [null, 1],
    ['', 1],
    ['soon', 1],
    ['-1', 1],
    ['3 seconds', 1],
    ['Sat, 99 Foo 2026 12:00:00 GMT', 1],
  ])('%j waits %i s', (header, seconds) => {
    expect(retryAfterSeconds(header, now)).toBe(seconds);
  });
});

describe("the app's Web API clients on a 429", () => {
  const GIVE_UP_AFTER_MS = 2_500;
  const sink = logSink();
  const logger = createLogger({ level: 'warn', destination: sink.destination });
  let slack: FakeSlackApi;
  let connection: SlackWebApi;
  beforeAll(async () => {
    slack = await startFakeSlackApi();
    connection = await connectSlackWebApi({
      botToken: undefined,
      slackApiUrl: slack.url,
      webApiRetries: 4,
      rateLimits: new SlackRateLimits({ giveUpAfterMs: GIVE_UP_AFTER_MS, logger }),
    });
  });
  afterAll(async () => {
    await connection.close();
    await slack.close();
  });
  beforeEach(() => {
    slack.reset();
  });

  it("reject that one call with its Retry-After, sent once, and do not pause other channels' calls", async () => {
    const client = new webApi.WebClient('xoxb-test', {
      ...connection.clientOptions,
      logLevel: LogLevel.ERROR,
    });
    slack.rateLimit('chat.postMessage', 'CA', 7);
    await expect(client.chat.postMessage({ channel: 'CA', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
      retryAfter: 7,
    });
    const started = Date.now();
    await expect(client.chat.postMessage({ channel: 'CB', text: 'y' })).resolves.toMatchObject({ ok: true });
    expect(Date.now() - started).toBeLessThan(1_000);
    // Neither the SDK's retry policy nor its queue took the 429: only the gate retries.
    expect(slack.calls('chat.postMessage').map((call) => [call.body.channel, call.status])).toEqual([
      ['CA', 429],
      ['CB', 200],
    ]);
  });

  const clientOf = (token: string) =>
    new webApi.WebClient(token, { ...connection.clientOptions, logLevel: LogLevel.ERROR });
  const publish = (client: webApi.WebClient, user: string) =>
    client.views.publish({ user_id: user, view: { type: 'home', blocks: [] } });

  it("wait out a call to no conversation's 429, while another workspace's calls go at once", async () => {
    slack.failNext('views.publish', { status: 429, retryAfter: 1 });
    const limited = publish(clientOf('xoxb-workspace-a'), 'UA');
    await slack.waitForCall('views.publish', (call) => call.status === 429, 2_000);
    const started = Date.now();
    await expect(publish(clientOf('xoxb-workspace-b'), 'UB')).resolves.toMatchObject({ ok: true });
    expect(Date.now() - started).toBeLessThan(500);
    await expect(limited).resolves.toMatchObject({ ok: true });
    expect(slack.calls('views.publish').map((call) => [call.body.user_id, call.status])).toEqual([
      ['UA', 429],
      ['UB', 200],
      ['UA', 200],
    ]);
  });

  it('give up on a call to no conversation whose wait ends past the deadline: tried once, logged', async () => {
    sink.records.length = 0;
    slack.failNext('views.publish', { status: 429, retryAfter: 10 });
    await expect(publish(clientOf('xoxb-workspace-c'), 'UC')).rejects.toMatchObject({
      original: expect.any(SlackRateLimitGaveUp),
    });
    expect(slack.calls('views.publish').map((call) => call.status)).toEqual([429]);
    const warning = sink.records.find((record) => record.level === 40);
    expect(warning).toMatchObject({ method: 'views.publish' });
    expect(warning).not.toHaveProperty('channel');
    expect(sink.lines.join('\n')).not.toContain('xoxb-workspace-c');
  });

  it('give a 429 without a readable Retry-After the default wait, so the gate still knows it', async () => {
    const garbled: webApi.FetchFunction = async (url) => ({
      ok: false,
      status: 429,
      statusText: 'Too Many Requests',
      url: String(url),
      headers: { get: (name) => (name === 'retry-after' ? 'later' : null), entries: () => [] },
      arrayBuffer: async () => new ArrayBuffer(0),
      json: async () => ({ ok: false, error: 'ratelimited' }),
      text: async () => '{"ok":false,"error":"ratelimited"}',
    });
    const client = new webApi.WebClient('xoxb-test', {
      ...connection.clientOptions,
      fetch: withReadableRetryAfter(garbled),
      logLevel: LogLevel.ERROR,
    });
    await expect(client.chat.postMessage({ channel: 'CA', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
      retryAfter: 1,
    });
  });
});
