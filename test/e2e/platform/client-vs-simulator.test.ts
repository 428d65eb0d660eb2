import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AccessTokenProvider,
  FetchedTokenProvider,
  HttpStatusError,
  iterateTicketsOverWindow,
  MalformedResponseError,
  PlatformClient,
  PlatformCodeError,
  StaticTokenProvider,
  TransportError,
} from '../../../src/platform/index.js';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  type Simulator,
  startSimulator,
} from '../../../src/simulator/index.js';

const TOKEN = 'e2e-static-token-0123456789abcdef0123456';
const ASK = { sysNum: 'sys-e2e', partnerId: 'U-e2e', question: 'How do I reset my password?' };
const DATES = { startDate: '2026-01-01', endDate: '2026-01-31' };
const DAY_SECONDS = 24 * 60 * 60;

let simulator: Simulator;
let client: PlatformClient;

function clientFor(
  url: string,
  tokenProvider: AccessTokenProvider = new StaticTokenProvider(TOKEN),
): PlatformClient {
  return new PlatformClient({
    openUrl: url,
    baseUrl: url,
    tokenProvider,
    timeouts: { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000 },
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    keepAliveTimeoutMs: 500,
  });
}

/** Requests the simulator saw for one action (open-platform action, or the ticket path's last segment). */
function seen(action: string): number {
  return simulator.received.filter((request) => {
    const body = request.body as { action?: unknown } | undefined;
    return body?.action === action || request.path.endsWith(`/${action}`);
  }).length;
}

beforeEach(async () => {
  simulator = await startSimulator({ accessToken: TOKEN, port: 0 });
  client = clientFor(simulator.url);
});

afterEach(async () => {
  await client.close();
  await simulator.close();
});

describe('every operation against the simulator', () => {
  it('lists tickets of the last 30 days and pages through 90 days', async () => {
    const end = Math.floor(Date.now() / 1000);
    const page = await client.listTickets({ createStartTime: end - 30 * DAY_SECONDS, createEndTime: end });
    expect(page.pageNo).toBe(1);
    expect(page.pageSize).toBe(15);
    expect(page.tickets.length).toBeGreaterThan(0);
    expect(page.totalCount).toBeGreaterThanOrEqual(page.tickets.length);

    const ids: string[] = [];
    for await (const ticket of iterateTicketsOverWindow(client, {
      createStartTime: end - 90 * DAY_SECONDS,
      createEndTime: end,
      pageSize: 50,
    })) {
      ids.push(ticket.ticketId);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(page.totalCount);
  });

  it('lists the agents of a group despite the stray spaces in the keys', async () => {
    const agents = await client.listAgents({ groupId: 'g-it' });
    expect(agents.length).toBeGreaterThan(0);
    expect(agents[0]?.serviceId).toMatch(/^s-it-/);
  });

  it('asks the robot, rates the answer and reads both statistics', async () => {
    const answer = await client.askRobot(ASK);
    expect(answer.answer).not.toBe('');
    expect(answer.cid).toBeTruthy();
    expect(answer.msgId).toBeTruthy();
    await expect(
      client.sendRobotFeedback({
        uid: answer.uid ?? '',
        cid: answer.cid ?? '',
        docId: answer.docId ?? 'doc-password-reset',
        docName: answer.question ?? ASK.question,
        robotFlag: answer.robotFlag ?? 1,
        status: 1,
        msgId: answer.msgId ?? '',
      }),
    ).resolves.toBeUndefined();
    const today = new Date().toISOString().slice(0, 10);
    await expect(
      client.getSessionMessageStatistics({ startDate: today, endDate: today }),
    ).resolves.toBeTypeOf('object');
    await expect(
      client.getHumanSatisfactionStatistics({ startDate: today, endDate: today }),
    ).resolves.toBeTypeOf('object');
  });

  it('maps feedback on an unknown message to PlatformCodeError status:0', async () => {
    await expect(
      client.sendRobotFeedback({
        uid: 'nobody',
        cid: 'c',
        docId: 'd',
        docName: 'n',
        robotFlag: 1,
        status: 2,
        msgId: 'no-such-message',
      }),
    ).rejects.toMatchObject({ platformCode: 'status:0' });
  });

  it('updates a knowledge entry and maps an unknown docId to its retCode', async () => {
    await expect(
      client.updateRobotDoc({ docId: 'doc-password-reset', answerDesc: 'Use the self-service portal.' }),
    ).resolves.toEqual({ retCode: '000000', retMsg: undefined });
    await expect(client.updateRobotDoc({ docId: 'doc-does-not-exist' })).rejects.toMatchObject({
      platformCode: '100001',
    });
  });

  it('works with the sample ticket path', async () => {
    const sample = new PlatformClient({
      openUrl: simulator.url,
      baseUrl: simulator.url,
      tokenProvider: new StaticTokenProvider(TOKEN),
      timeouts: { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000 },
      ticketListPath: '/ws-open/ticket/getTicketList',
    });
    try {
      const end = Math.floor(Date.now() / 1000);
      await expect(
        sample.listTickets({ createStartTime: end - DAY_SECONDS, createEndTime: end }),
      ).resolves.toBeDefined();
      expect(simulator.received.at(-1)?.path).toBe('/ws-open/ticket/getTicketList');
    } finally {
      await sample.close();
    }
  });
});

describe('simulator faults', () => {
  it('http500: the robot ask fails at once, a read is retried', async () => {
    simulator.faults.set({ kind: 'http500', times: 1 });
    await expect(client.askRobot(ASK)).rejects.toBeInstanceOf(HttpStatusError);
    expect(seen('chat_user_robot_ask')).toBe(1);

    simulator.faults.set({ kind: 'http500', times: 1 });
    await expect(client.listAgents({ groupId: 'g-hr' })).resolves.not.toHaveLength(0);
    expect(seen('ticket_api')).toBe(2);
  });

  it('code: statistics 1001 is a PlatformCodeError', async () => {
    simulator.faults.set({ kind: 'code', code: '1001', actions: ['wb_session_message'] });
    await expect(client.getSessionMessageStatistics(DATES)).rejects.toBeInstanceOf(PlatformCodeError);
    await expect(client.getSessionMessageStatistics(DATES)).rejects.toMatchObject({ platformCode: '1001' });
  });

  it('malformed: a cut-off body is a MalformedResponseError', async () => {
    simulator.faults.set({ kind: 'malformed', times: 1 });
    await expect(client.askRobot(ASK)).rejects.toBeInstanceOf(MalformedResponseError);
  });

  it('drop: a destroyed socket is a TransportError, and the robot ask is not repeated', async () => {
    simulator.faults.set({ kind: 'drop', actions: ['chat_user_robot_ask'] });
    await expect(client.askRobot(ASK)).rejects.toBeInstanceOf(TransportError);
    expect(seen('chat_user_robot_ask')).toBe(1);
  });

  it('delay: a slow answer beyond headersMs is a timeout', async () => {
    simulator.faults.set({ kind: 'delay', ms: 3_000, actions: ['chat_user_robot_ask'] });
    const slow = new PlatformClient({
      openUrl: simulator.url,
      baseUrl: simulator.url,
      tokenProvider: new StaticTokenProvider(TOKEN),
      timeouts: { connectMs: 1_000, headersMs: 300, bodyMs: 300 },
    });
    try {
      await expect(slow.askRobot(ASK)).rejects.toMatchObject({ failure: 'timeout' });
    } finally {
      await slow.close();
    }
  });

  it('expiredToken: a static token is retried once, then surfaces as 1002', async () => {
    simulator.faults.set({ kind: 'expiredToken', actions: ['chat_user_robot_ask'] });
    await expect(client.askRobot(ASK)).rejects.toMatchObject({ platformCode: '1002' });
    expect(seen('chat_user_robot_ask')).toBe(2);
  });

  it('expiredToken once: the retry with the renewed token succeeds', async () => {
    simulator.faults.set({ kind: 'expiredToken', times: 1 });
    await expect(client.askRobot(ASK)).resolves.toMatchObject({ question: ASK.question });
    expect(seen('chat_user_robot_ask')).toBe(2);
  });
});

describe('fetched tokens', () => {
  it('fetches a token, and renews it once when 10 concurrent calls meet an expired token', async () => {
    const tokens = new FetchedTokenProvider({
      openUrl: simulator.url,
      appId: DEFAULT_SIMULATOR_APP_ID,
      appKey: DEFAULT_SIMULATOR_APP_KEY,
    });
    const fetched = clientFor(simulator.url, tokens);
    try {
      await fetched.askRobot(ASK);
      expect(seen('getAccessToken.json')).toBe(1);
      simulator.expireTokens();
      const answers = await Promise.all(Array.from({ length: 10 }, () => fetched.askRobot(ASK)));
      expect(answers).toHaveLength(10);
      expect(seen('getAccessToken.json')).toBe(2);
      expect(seen('chat_user_robot_ask')).toBe(21);
    } finally {
      await fetched.close();
    }
  });

  it('maps a wrong app key to AccessTokenError', async () => {
    const tokens = new FetchedTokenProvider({
      openUrl: simulator.url,
      appId: DEFAULT_SIMULATOR_APP_ID,
      appKey: 'wrong',
    });
    await expect(tokens.getToken()).rejects.toMatchObject({ code: 'PLATFORM_TOKEN' });
  });
});
