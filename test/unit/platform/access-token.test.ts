import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AccessTokenError,
  type CachedToken,
  FetchedTokenProvider,
  HttpStatusError,
  type PlatformClient,
  PlatformCodeError,
  StaticTokenProvider,
  signTokenRequest,
  type TokenCache,
} from '../../../src/platform/index.js';
import {
  actionOf,
  type Loopback,
  type ReceivedRequest,
  ROBOT_ANSWER_DATA,
  ROBOT_ASK,
  sendJson,
  startLoopback,
  testClient,
} from './loopback.js';

const APP_ID = 'app-1';
const APP_KEY = 'key-1';
const HOUR = 3_600_000;

/** A token service plus an api.json that only accepts the newest token. */
interface TokenPlatform extends Loopback {
  tokenCalls(): ReceivedRequest[];
  apiCalls(): ReceivedRequest[];
  /** The next token answer is delayed this long. */
  tokenDelayMs: number;
  tokenAnswer: ((response: ServerResponse) => void) | undefined;
  expireAll(): void;
}

let platform: TokenPlatform | undefined;
let ticketServer: Loopback | undefined;
let client: PlatformClient | undefined;

afterEach(async () => {
  await client?.close();
  await platform?.close();
  await ticketServer?.close();
  client = undefined;
  platform = undefined;
  ticketServer = undefined;
});

async function startTokenPlatform(): Promise<TokenPlatform> {
  let issued = 0;
  const valid = new Set<string>();
  const state = { tokenDelayMs: 0, tokenAnswer: undefined as TokenPlatform['tokenAnswer'] };
  const loopback = await startLoopback((request, response) => {
    const body = request.body as Record<string, unknown>;
    if (request.path === '/open/platform/getAccessToken.json') {
      if (state.tokenAnswer) {
        state.tokenAnswer(response);
        return;
      }
      const expected = signTokenRequest(String(body.appId), APP_KEY, String(body.createTime));
      if (body.sign !== expected) {
        sendJson(response, { code: '1003', msg: 'bad sign' });
        return;
      }
      issued += 1;
      const token = `tok-${issued}`;
      valid.add(token);
      setTimeout(
        () => sendJson(response, { code: '1000', data: { access_token: token } }),
        state.tokenDelayMs,
      );
      return;
    }
    if (!valid.has(String(body.access_token))) {
      sendJson(response, { code: '1002', msg: 'token invalid' });
      return;
    }
    sendJson(response, { code: '1000', data: ROBOT_ANSWER_DATA });
  });
  return Object.assign(state, loopback, {
    tokenCalls: () => loopback.received.filter((request) => request.path.endsWith('getAccessToken.json')),
    apiCalls: () => loopback.received.filter((request) => actionOf(request) === 'chat_user_robot_ask'),
    expireAll: () => valid.clear(),
  });
}

function provider(url: string, extra: Partial<ConstructorParameters<typeof FetchedTokenProvider>[0]> = {}) {
  return new FetchedTokenProvider({ openUrl: url, appId: APP_ID, appKey: APP_KEY, ...extra });
}

describe('token request signing', () => {
  it('signs with lowercase hex md5(appId + appKey + createTime)', () => {
    // Computed with `printf '%s' 'app-1key-11700000000000' | md5sum`.
    expect(signTokenRequest('app-1', 'key-1', '1700000000000')).toBe('f303d8e06b553b9d44315a23ca6ad50e');
  });

  it('posts appId, createTime in milliseconds, sign and expire in hours', async () => {
    platform = await startTokenPlatform();
    const tokens = provider(platform.url, { now: () => 1_700_000_000_000, expireHours: 3 });
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    const sent = platform.tokenCalls()[0];
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.body).toEqual({
      appId: 'app-1',
      createTime: '1700000000000',
      sign: 'f303d8e06b553b9d44315a23ca6ad50e',
      expire: 3,
    });
  });

  it.each([0, 25, 1.5])('refuses expireHours %s', (expireHours) => {
    expect(() => provider('http://127.0.0.1:1', { expireHours })).toThrow(RangeError);
  });
});

describe('FetchedTokenProvider caching and renewal', () => {
  it('caches the token', async () => {
    platform = await startTokenPlatform();
    const tokens = provider(platform.url);
    expect(await tokens.getToken()).toBe('tok-1');
    expect(await tokens.getToken()).toBe('tok-1');
    expect(await tokens.getToken()).toBe('tok-1');
    expect(platform.tokenCalls()).toHaveLength(1);
  });

  it('renews five minutes before a one-hour token expires', async () => {
    platform = await startTokenPlatform();
    let now = 1_000_000;
    const tokens = provider(platform.url, { expireHours: 1, now: () => now });
    expect(await tokens.getToken()).toBe('tok-1');
    now += HOUR - 5 * 60_000 - 1;
    expect(await tokens.getToken()).toBe('tok-1');
    now += 2;
    expect(await tokens.getToken()).toBe('tok-2');
    expect(platform.tokenCalls()).toHaveLength(2);
  });

  it('shares one renewal among 20 concurrent callers', async () => {
    platform = await startTokenPlatform();
    platform.tokenDelayMs = 50;
    const tokens = provider(platform.url);
    const results = await Promise.all(Array.from({ length: 20 }, () => tokens.getToken()));
    expect(new Set(results)).toEqual(new Set(['tok-1']));
    expect(platform.tokenCalls()).toHaveLength(1);
  });

  it('renews a rejected token once, however many callers report it', async () => {
    platform = await startTokenPlatform();
    const tokens = provider(platform.url);
    const first = await tokens.getToken();
    platform.tokenDelayMs = 30;
    const renewed = await Promise.all(Array.from({ length: 10 }, () => tokens.renew(first)));
    expect(new Set(renewed)).toEqual(new Set(['tok-2']));
    // A late report of the old token does not renew again.
    expect(await tokens.renew(first)).toBe('tok-2');
    expect(platform.tokenCalls()).toHaveLength(2);
  });

  it('keeps a still-valid token when an early renewal fails', async () => {
    platform = await startTokenPlatform();
    let now = 0;
    const tokens = provider(platform.url, { expireHours: 1, now: () => now });
    expect(await tokens.getToken()).toBe('tok-1');
    platform.tokenAnswer = (response) => {
      response.writeHead(503);
      response.end();
    };
    now = HOUR - 60_000;
    expect(await tokens.getToken()).toBe('tok-1');
    now = HOUR + 1;
    await expect(tokens.getToken()).rejects.toBeInstanceOf(AccessTokenError);
  });

  it('reuses a token from a shared cache instead of fetching', async () => {
    platform = await startTokenPlatform();
    let stored: CachedToken | undefined;
    const cache: TokenCache = {
      get: async () => stored,
      set: async (entry) => {
        stored = entry;
      },
    };
    expect(await provider(platform.url, { cache }).getToken()).toBe('tok-1');
    expect(await provider(platform.url, { cache }).getToken()).toBe('tok-1');
    expect(platform.tokenCalls()).toHaveLength(1);
  });
});

describe('token errors', () => {
  it('maps a refused token call to AccessTokenError caused by PlatformCodeError', async () => {
    platform = await startTokenPlatform();
    platform.tokenAnswer = (response) => sendJson(response, { code: '1003', msg: 'bad sign' });
    const error = await provider(platform.url)
      .getToken()
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(AccessTokenError);
    expect(error).toMatchObject({ code: 'PLATFORM_TOKEN' });
    expect((error as AccessTokenError).cause).toBeInstanceOf(PlatformCodeError);
    expect((error as AccessTokenError).cause).toMatchObject({
      platformCode: '1003',
      platformMessage: 'bad sign',
    });
  });

  it('maps an HTTP failure to AccessTokenError caused by HttpStatusError', async () => {
    platform = await startTokenPlatform();
    platform.tokenAnswer = (response) => {
      response.writeHead(500);
      response.end();
    };
    const error = await provider(platform.url)
      .getToken()
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(AccessTokenError);
    expect((error as AccessTokenError).cause).toBeInstanceOf(HttpStatusError);
  });

  it('maps an answer without access_token to AccessTokenError', async () => {
    platform = await startTokenPlatform();
    platform.tokenAnswer = (response) => sendJson(response, { code: '1000', data: {} });
    await expect(provider(platform.url).getToken()).rejects.toBeInstanceOf(AccessTokenError);
  });
});

describe('client renewal on 1002', () => {
  it('renews once and retries the robot ask once', async () => {
    platform = await startTokenPlatform();
    client = testClient(platform.url, { tokenProvider: provider(platform.url) });
    await client.askRobot(ROBOT_ASK);
    platform.expireAll();
    await expect(client.askRobot(ROBOT_ASK)).resolves.toMatchObject({ cid: 'cid-1' });
    expect(platform.tokenCalls()).toHaveLength(2);
    const tokensSent = platform
      .apiCalls()
      .map((call) => (call.body as { access_token: string }).access_token);
    expect(tokensSent).toEqual(['tok-1', 'tok-1', 'tok-2']);
  });

  it('renews once for 10 concurrent calls rejected with 1002', async () => {
    platform = await startTokenPlatform();
    client = testClient(platform.url, { tokenProvider: provider(platform.url) });
    await client.askRobot(ROBOT_ASK);
    platform.expireAll();
    platform.tokenDelayMs = 30;
    const answers = await Promise.all(Array.from({ length: 10 }, () => client?.askRobot(ROBOT_ASK)));
    expect(answers).toHaveLength(10);
    expect(platform.tokenCalls()).toHaveLength(2);
    expect(platform.apiCalls()).toHaveLength(21);
  });

  it('surfaces a second 1002 as PlatformCodeError with a static token', async () => {
    platform = await startTokenPlatform();
    client = testClient(platform.url, { tokenProvider: new StaticTokenProvider('never-valid') });
    await expect(client.askRobot(ROBOT_ASK)).rejects.toMatchObject({
      code: 'PLATFORM_CODE',
      platformCode: '1002',
      platformMessage: 'token invalid',
    });
    expect(platform.apiCalls()).toHaveLength(2);
  });

  it('renews on a ticket-style "1002,<text>" code too', async () => {
    let rejections = 1;
    const tokens = new StaticTokenProvider('t');
    ticketServer = await startLoopback((_request, response) => {
      if (rejections > 0) {
        rejections -= 1;
        sendJson(response, { code: '1002,token expired' });
      } else {
        sendJson(response, { code: '1000,ok', data: [] });
      }
    });
    client = testClient(ticketServer.url, { tokenProvider: tokens });
    await expect(
      client.listTickets({ createStartTime: 1_700_000_000, createEndTime: 1_700_000_100 }),
    ).resolves.toMatchObject({ tickets: [] });
    expect(ticketServer.received).toHaveLength(2);
  });
});
