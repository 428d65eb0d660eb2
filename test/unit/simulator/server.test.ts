import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  DEFAULT_SIMULATOR_TOKEN,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../src/simulator/index.js';
import { waitFor } from '../../support/wait.js';

const TOKEN = DEFAULT_SIMULATOR_TOKEN;
let simulators: Simulator[] = [];

async function start(options: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  const simulator = await startSimulator({ accessToken: TOKEN, ...options });
  simulators.push(simulator);
  return simulator;
}

afterEach(async () => {
  await Promise.all(simulators.map((simulator) => simulator.close()));
  simulators = [];
});

type Json = Record<string, unknown>;

async function post(
  simulator: Simulator,
  path: string,
  body: unknown,
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

const ask = (simulator: Simulator, token = TOKEN) =>
  post(simulator, '/open/platform/api.json', {
    action: 'chat_user_robot_ask',
    access_token: token,
    data: { sysNum: 'sys-1', partnerId: 'alice', question: 'How do I reset my password?' },
  });

const sign = (appId: string, appKey: string, createTime: string | number) =>
  createHash('md5').update(`${appId}${appKey}${createTime}`).digest('hex');

describe('simulator transport', () => {
  it('listens on 127.0.0.1 with a random port by default', async () => {
    const simulator = await start();
    expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers 404 JSON with a string code for an unknown path', async () => {
    const simulator = await start();
    const { status, json } = await post(simulator, '/nope', {});
    expect(status).toBe(404);
    expect(typeof json.code).toBe('string');
  });

  it('answers 405 to GET', async () => {
    const simulator = await start();
    const response = await fetch(`${simulator.url}/open/platform/api.json`);
    expect(response.status).toBe(405);
    expect(typeof ((await response.json()) as Json).code).toBe('string');
  });

  it('answers 400 code 1003 to a body that is not JSON', async () => {
    const simulator = await start();
    const response = await fetch(`${simulator.url}/open/platform/api.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: '1003' });
  });

  it('answers 400 code 1003 to a JSON body sent without application/json', async () => {
    const simulator = await start();
    const response = await fetch(`${simulator.url}/open/platform/api.json`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ action: 'wb_session_message', access_token: TOKEN, data: {} }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: '1003' });
  });

  it('answers 413 to a body over 1 MB', async () => {
    const simulator = await start();
    const { status, json } = await post(simulator, '/open/platform/api.json', {
      padding: 'x'.repeat(1_100_000),
    });
    expect(status).toBe(413);
    expect(typeof json.code).toBe('string');
  });

  it('records every request, newest last', async () => {
    const simulator = await start();
    await ask(simulator);
    await post(simulator, '/nope', { a: 1 });
    expect(simulator.received.map((request) => request.path)).toEqual(['/open/platform/api.json', '/nope']);
    expect(simulator.received[0]?.body).toMatchObject({ action: 'chat_user_robot_ask', access_token: TOKEN });
    expect(simulator.stats()).toMatchObject({ requests: 2, asks: 1 });
  });

  it('closes fast even with a keep-alive client and a pending delay', async () => {
    const simulator = await start();
    await ask(simulator);
    simulator.faults.set({ kind: 'delay', ms: 60_000 });
    const pending = ask(simulator).catch((error: unknown) => error);
    // The delayed request has reached the server (it is recorded before its delay), not merely been sent.
    await waitFor(() => simulator.received.length === 2);
    const startedAt = Date.now();
    await simulator.close();
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('access token', () => {
  it('rejects an unknown token with code 1002', async () => {
    const simulator = await start();
    const { json } = await ask(simulator, 'x'.repeat(40));
    expect(json).toEqual({ code: '1002', msg: 'access_token check failed' });
  });

  it('rejects a missing token with code 1002', async () => {
    const simulator = await start();
    const { json } = await post(simulator, '/open/platform/api.json', {
      action: 'wb_session_message',
      data: { startDate: '2026-01-01', endDate: '2026-01-02' },
    });
    expect(json.code).toBe('1002');
  });

  it('issues a 40-character token for a correct sign, with the default expire of 2 hours', async () => {
    const simulator = await start();
    const createTime = '1700000000';
    const { json } = await post(simulator, '/open/platform/getAccessToken.json', {
      appId: DEFAULT_SIMULATOR_APP_ID,
      createTime,
      sign: sign(DEFAULT_SIMULATOR_APP_ID, DEFAULT_SIMULATOR_APP_KEY, createTime),
    });
    expect(json.code).toBe('1000');
    const data = json.data as { access_token: string; expire: number };
    expect(data.access_token).toHaveLength(40);
    expect(data.expire).toBe(2);
    expect((await ask(simulator, data.access_token)).json.code).toBe('1000');
  });

  it('honours expire in hours and a numeric createTime', async () => {
    const simulator = await start({ appId: 'app-x', appKey: 'key-x' });
    const { json } = await post(simulator, '/open/platform/getAccessToken.json', {
      appId: 'app-x',
      createTime: 1_700_000_000,
      sign: sign('app-x', 'key-x', 1_700_000_000),
      expire: 5,
    });
    expect(json).toMatchObject({ code: '1000', data: { expire: 5 } });
  });

  it('refuses a bad sign, an upper-case sign, an unknown app and an expire outside 1..24', async () => {
    const simulator = await start();
    const good = sign(DEFAULT_SIMULATOR_APP_ID, DEFAULT_SIMULATOR_APP_KEY, '1');
    const bodies = [
      { appId: DEFAULT_SIMULATOR_APP_ID, createTime: '1', sign: 'f'.repeat(32) },
      { appId: DEFAULT_SIMULATOR_APP_ID, createTime: '1', sign: good.toUpperCase() },
      { appId: 'other-app', createTime: '1', sign: sign('other-app', DEFAULT_SIMULATOR_APP_KEY, '1') },
      { appId: DEFAULT_SIMULATOR_APP_ID, createTime: '1', sign: good, expire: 25 },
      { appId: DEFAULT_SIMULATOR_APP_ID, createTime: '1', sign: good, expire: 0 },
      { appId: DEFAULT_SIMULATOR_APP_ID, sign: good },
    ];
    for (const body of bodies) {
      const { json } = await post(simulator, '/open/platform/getAccessToken.json', body);
      expect(json.code, JSON.stringify(body)).not.toBe('1000');
      expect(typeof json.msg).toBe('string');
    }
  });

  it('expires fetched tokens when their lifetime has passed in simulated time', async () => {
    let nowMs = Date.parse('2026-03-15T10:00:00Z');
    const simulator = await start({ now: () => new Date(nowMs), tokenTtlSeconds: 60 });
    const token = simulator.issueToken();
    expect(token).toHaveLength(40);
    expect((await ask(simulator, token)).json.code).toBe('1000');
    nowMs += 61_000;
    expect((await ask(simulator, token)).json.code).toBe('1002');
    expect((await ask(simulator)).json.code).toBe('1000');
  });

  it('expireTokens() expires fetched tokens but not the configured one', async () => {
    const simulator = await start();
    const token = simulator.issueToken();
    simulator.expireTokens();
    expect((await ask(simulator, token)).json.code).toBe('1002');
    expect((await ask(simulator)).json.code).toBe('1000');
    expect((await ask(simulator, simulator.issueToken())).json.code).toBe('1000');
  });
});

describe('faults', () => {
  it('http500 answers HTTP 500 with a JSON code', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'http500' });
    const { status, json } = await ask(simulator);
    expect(status).toBe(500);
    expect(typeof json.code).toBe('string');
  });

  it('code answers the given code', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'code', code: '1999' });
    expect((await ask(simulator)).json.code).toBe('1999');
  });

  it('delay delays, then answers normally', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'delay', ms: 200, times: 1 });
    const startedAt = Date.now();
    const { json } = await ask(simulator);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(190);
    expect(json.code).toBe('1000');
  });

  it('drop destroys the socket without an answer', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'drop', times: 1 });
    await expect(ask(simulator)).rejects.toThrow();
    expect((await ask(simulator)).json.code).toBe('1000');
  });

  it('malformed answers 200 with a body that is not JSON', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'malformed' });
    const response = await fetch(`${simulator.url}/open/platform/api.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'chat_user_robot_ask', access_token: TOKEN, data: {} }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('expiredToken answers 1002 even for the configured token, but never on the token endpoint', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'expiredToken' });
    expect((await ask(simulator)).json).toMatchObject({ code: '1002' });
    const { json } = await post(simulator, '/open/platform/getAccessToken.json', {
      appId: DEFAULT_SIMULATOR_APP_ID,
      createTime: '1',
      sign: sign(DEFAULT_SIMULATOR_APP_ID, DEFAULT_SIMULATOR_APP_KEY, '1'),
    });
    expect(json.code).toBe('1000');
  });

  it('times limits how many matching requests a fault affects', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'code', code: '1999', times: 2 });
    const codes = [];
    for (let index = 0; index < 3; index += 1) codes.push((await ask(simulator)).json.code);
    expect(codes).toEqual(['1999', '1999', '1000']);
  });

  it('actions limits a fault to the named actions, including ticket and token names', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'http500', actions: ['getTicketInfoList', 'getAccessToken'] });
    expect((await ask(simulator)).status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    const tickets = await post(simulator, '/ws-open/ticket/getTicketInfoList', {
      access_token: TOKEN,
      createStartTime: now - 3600,
      createEndTime: now,
    });
    expect(tickets.status).toBe(500);
    const samplePath = await post(simulator, '/ws-open/ticket/getTicketList', {
      access_token: TOKEN,
      createStartTime: now - 3600,
      createEndTime: now,
    });
    expect(samplePath.status).toBe(200);
    const token = await post(simulator, '/open/platform/getAccessToken.json', { appId: 'x' });
    expect(token.status).toBe(500);
  });

  it('a fault with actions and times counts only the requests it matches', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'code', code: '1999', actions: ['wb_session_message'], times: 1 });
    expect((await ask(simulator)).json.code).toBe('1000');
    const stats = () =>
      post(simulator, '/open/platform/api.json', {
        action: 'wb_session_message',
        access_token: TOKEN,
        data: { startDate: '2026-01-01', endDate: '2026-01-31' },
      });
    expect((await stats()).json.code).toBe('1999');
    expect((await stats()).json.code).toBe('1000');
  });

  it('clear removes the fault', async () => {
    const simulator = await start();
    simulator.faults.set({ kind: 'http500' });
    simulator.faults.clear();
    expect((await ask(simulator)).status).toBe(200);
  });
});
