import { LogLevel, webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlackApi, parseBody, startFakeSlackApi } from '../../support/fake-slack-api.js';

describe('fake Slack Web API, driven by the real WebClient', () => {
  let api: FakeSlackApi;
  let client: webApi.WebClient;

  beforeEach(async () => {
    api = await startFakeSlackApi();
    client = new webApi.WebClient('xoxb-test', {
      slackApiUrl: api.url,
      retryConfig: { retries: 0 },
      logLevel: LogLevel.ERROR,
    });
  });

  afterEach(async () => {
    await api.close();
  });

  it('answers auth.test as the gateway bot', async () => {
    const result = await client.auth.test();
    expect(result).toMatchObject({ ok: true, user_id: 'UBOT', bot_id: 'BBOT', team_id: 'T1' });
    expect(api.calls('auth.test')[0]?.token).toBe('xoxb-test');
  });

  it('records chat.postMessage with blocks parsed back and returns unique, increasing ts', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }];
    const first = await client.chat.postMessage({ channel: 'C1', text: 'hi', blocks, thread_ts: '1.2' });
    const second = await client.chat.postMessage({ channel: 'C1', text: 'again' });

    expect(first).toMatchObject({
      ok: true,
      channel: 'C1',
      message: { text: 'hi', thread_ts: '1.2', blocks },
    });
    expect(first.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
    const call = await api.waitForCall('chat.postMessage', (c) => c.body.text === 'hi');
    expect(call.body).toMatchObject({ channel: 'C1', text: 'hi', thread_ts: '1.2', blocks });
    expect(call.token).toBe('xoxb-test');
    expect(call.response).toMatchObject({ ok: true, ts: first.ts });
  });

  it('takes the assistant panel’s methods and refuses their arguments as Slack does', async () => {
    const thread = { channel_id: 'D1', thread_ts: '1700000000.000100' };
    await client.assistant.threads.setStatus({
      ...thread,
      status: 'is looking…',
      loading_messages: ['a', 'b'],
    });
    await client.assistant.threads.setTitle({ ...thread, title: 'How do I reset my password?' });
    const four = [1, 2, 3, 4].map((n) => ({ title: `Q${n}`, message: `Question ${n}?` }));
    await client.assistant.threads.setSuggestedPrompts({ ...thread, prompts: four });
    expect(api.calls('assistant.threads.setSuggestedPrompts')[0]?.body.prompts).toEqual(four);

    const refusal = (call: Promise<unknown>) =>
      call.then(
        () => undefined,
        (error: { data?: unknown }) => error.data,
      );
    expect(
      await refusal(
        client.assistant.threads.setSuggestedPrompts({
          ...thread,
          prompts: [...four, { title: 'Q5', message: 'Question 5?' }],
        }),
      ),
    ).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: ['[ERROR] must be less than 5 items [json-pointer:/prompts]'] },
    });
    expect(
      await refusal(
        client.assistant.threads.setSuggestedPrompts({
          ...thread,
          prompts: [{ title: ' ', message: 'Question?' }],
        }),
      ),
    ).toMatchObject({ error: 'invalid_arguments' });
    expect(await refusal(client.assistant.threads.setTitle({ ...thread, title: '' }))).toMatchObject({
      error: 'invalid_arguments',
    });
    expect(
      await refusal(client.assistant.threads.setStatus({ channel_id: 'D1', thread_ts: 'soon', status: 'x' })),
    ).toMatchObject({ error: 'invalid_thread_ts' });
  });

  it('prefers a per-call token (sent as the Authorization header) over the client default', async () => {
    await client.reactions.add({ channel: 'C1', timestamp: '1.2', name: 'eyes', token: 'xoxb-other' });
    expect(api.calls('reactions.add')[0]).toMatchObject({ token: 'xoxb-other', body: { name: 'eyes' } });
  });

  it('returns users.info with a default display name, and the locale only when asked for it', async () => {
    api.setUser('U2', { displayName: 'Hana', locale: 'ja-JP' });

    const plain = await client.users.info({ user: 'U1' });
    expect(plain.user?.profile?.display_name).toBe('User U1');
    const withoutLocale = await client.users.info({ user: 'U2' });
    expect(withoutLocale.user?.locale).toBeUndefined();
    const withLocale = await client.users.info({ user: 'U2', include_locale: true });
    expect(withLocale.user).toMatchObject({ id: 'U2', locale: 'ja-JP', profile: { display_name: 'Hana' } });
  });

  it('fails the next call with a Slack error, then recovers', async () => {
    api.failNext('chat.postMessage', { error: 'channel_not_found' });

    await expect(client.chat.postMessage({ channel: 'C404', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.PlatformError,
      data: { ok: false, error: 'channel_not_found' },
    });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).resolves.toMatchObject({ ok: true });
  });

  it('answers 500 as a transport failure', async () => {
    api.failNext('chat.update', { status: 500 }, 2);

    await expect(client.chat.update({ channel: 'C1', ts: '1.2', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.HTTPError,
      statusCode: 500,
    });
    await expect(client.chat.update({ channel: 'C1', ts: '1.2', text: 'x' })).rejects.toMatchObject({
      statusCode: 500,
    });
    await expect(client.chat.update({ channel: 'C1', ts: '1.2', text: 'x' })).resolves.toMatchObject({
      ok: true,
    });
    expect(api.calls('chat.update').map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it('rate-limits with Retry-After, which WebClient honours before retrying', async () => {
    const retrying = new webApi.WebClient('xoxb-test', {
      slackApiUrl: api.url,
      retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
      logLevel: LogLevel.ERROR,
    });
    api.failNext('chat.postEphemeral', { status: 429, retryAfter: 0 });

    await expect(
      retrying.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 'x' }),
    ).resolves.toMatchObject({
      ok: true,
    });
    expect(api.calls('chat.postEphemeral').map((c) => c.status)).toEqual([429, 200]);
  });

  it('surfaces a 429 as a rate-limit error when the client rejects rate-limited calls', async () => {
    const strict = new webApi.WebClient('xoxb-test', {
      slackApiUrl: api.url,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      logLevel: LogLevel.ERROR,
    });
    api.failNext('chat.postMessage', { status: 429, retryAfter: 7 });

    await expect(strict.chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
      retryAfter: 7,
    });
  });

  it('rate-limits one method in one channel, with the seconds left as Retry-After, until reset', async () => {
    api.rateLimit('chat.postMessage', 'C1', 3);
    const post = (channel: string) =>
      fetch(`${api.url}chat.postMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-test' },
        body: JSON.stringify({ channel, text: 'x' }),
      });
    const limited = await post('C1');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(2);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3);
    expect((await post('C2')).status).toBe(200);
    await expect(client.chat.update({ channel: 'C1', ts: '1.2', text: 'x' })).resolves.toMatchObject({
      ok: true,
    });
    api.reset();
    expect((await post('C1')).status).toBe(200);
  });

  it('answers unknown methods with unknown_method', async () => {
    await expect(client.apiCall('no.such.method')).rejects.toMatchObject({
      data: { error: 'unknown_method' },
    });
  });

  it('hands out the socket mode URL from apps.connections.open', async () => {
    await expect(client.apps.connections.open()).rejects.toMatchObject({
      data: { error: 'fake_socket_mode_url_not_set' },
    });
    api.setSocketModeUrl('ws://127.0.0.1:1/link');
    await expect(client.apps.connections.open()).resolves.toMatchObject({
      ok: true,
      url: 'ws://127.0.0.1:1/link',
    });
  });

  it('waits for a future call, and times out listing the calls it saw', async () => {
    const waiting = api.waitForCall('chat.delete', (c) => c.body.ts === '9.9');
    await client.chat.delete({ channel: 'C1', ts: '9.9' });
    await expect(waiting).resolves.toMatchObject({ body: { channel: 'C1', ts: '9.9' } });

    await expect(api.waitForCall('chat.delete', (c) => c.body.ts === 'never', 50)).rejects.toThrow(
      /no matching chat\.delete call.*chat\.delete \{"channel":"C1","ts":"9\.9"\}/,
    );
  });

  it('records POSTs to a response_url', async () => {
    const res = await fetch(api.responseUrl('feedback'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ replace_original: true, text: 'thanks' }),
    });
    expect(res.status).toBe(200);
    expect(api.calls('response_url')[0]?.body).toEqual({ replace_original: true, text: 'thanks' });
  });

  it('forgets calls, failures and users on reset', async () => {
    api.setUser('U1', { displayName: 'Kai' });
    api.failNext('auth.test', { error: 'invalid_auth' });
    await client.chat.postMessage({ channel: 'C1', text: 'x' });
    api.reset();

    expect(api.calls()).toEqual([]);
    await expect(client.auth.test()).resolves.toMatchObject({ ok: true });
    const info = await client.users.info({ user: 'U1' });
    expect(info.user?.profile?.display_name).toBe('User U1');
  });
});

describe('parseBody', () => {
  it('parses JSON bodies and leaves non-JSON form strings alone', () => {
    expect(parseBody('{"a":1}', 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(parseBody('text=%5Bnot+json&n=1', 'application/x-www-form-urlencoded')).toEqual({
      text: '[not json',
      n: '1',
    });
  });
});
