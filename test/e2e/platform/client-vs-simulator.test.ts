import { createServer } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AccessTokenProvider,
  FetchedTokenProvider,
  PlatformClient,
  type PlatformClientOptions,
  type PlatformLogger,
  RequestInvalidError,
  StaticTokenProvider,
} from '../../../src/platform/index.js';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  type Fault,
  type Simulator,
  startSimulator,
} from '../../../src/simulator/index.js';
import { allTickets } from '../../support/ticket-pages.js';

const TOKEN = 'e2e-static-token-0123456789abcdef0123456';
const ASK = { sysNum: 'sys-e2e', partnerId: 'U-e2e', question: 'How do I reset my password?' };
const DATES = { startDate: '2026-01-01', endDate: '2026-01-31' };
const DAY_SECONDS = 24 * 60 * 60;

let simulator: Simulator;
let client: PlatformClient;

function clientFor(
  url: string,
  tokenProvider: AccessTokenProvider = new StaticTokenProvider(TOKEN),
  overrides: Partial<PlatformClientOptions> = {},
): PlatformClient {
  return new PlatformClient({
    openUrl: url,
    baseUrl: url,
    tokenProvider,
    timeouts: { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000 },
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    keepAliveTimeoutMs: 500,
    ...overrides,
  });
}

/** Keeps the retry warnings, which is how a retry that never reached a server can be seen. */
function retryRecorder(): PlatformLogger & { retries: () => number } {
  const warnings: string[] = [];
  return {
    debug: () => undefined,
    warn: (_obj, msg) => warnings.push(msg),
    retries: () => warnings.filter((msg) => msg === 'platform call failed; retrying').length,
  };
}

/** A 127.0.0.1 port with nothing listening on it: connecting is refused at once. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
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

    const tickets = await allTickets(client, {
      createStartTime: end - 90 * DAY_SECONDS,
      createEndTime: end,
      pageSize: 50,
    });
    const ids = tickets.map((ticket) => ticket.ticketId);
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
  });

  it('reads session statistics that move with each ask, and consistent human satisfaction', async () => {
    const today = { startDate: new Date().toISOString().slice(0, 10), endDate: '' };
    today.endDate = today.startDate;
    await client.askRobot(ASK);
    const before = await client.getSessionMessageStatistics(today);
    await client.askRobot({ ...ASK, question: 'VPN keeps disconnecting' });
    const after = await client.getSessionMessageStatistics(today);
    expect(after.customerToRobotMessage).toBe((before.customerToRobotMessage ?? Number.NaN) + 1);
    expect(after.robotMessage).toBe((before.robotMessage ?? Number.NaN) + 1);
    expect(after.totalMessage).toBe((before.totalMessage ?? Number.NaN) + 2);
    // Read as numbers and strings, under the spec's names (avgServiceMessge is spelled so).
    expect(after.avgServiceMessge).toBeTypeOf('number');
    expect(after.robotAvgCustomerMessage).toBeGreaterThan(0);
    expect(after.answerThan).toMatch(/^\d+\.\d{2}%$/);

    const satisfaction = await client.getHumanSatisfactionStatistics(DATES);
    const { score4, score3, score2, score1 } = satisfaction;
    expect([score4, score3, score2, score1].every(Number.isInteger)).toBe(true);
    const rated = (score4 ?? 0) + (score3 ?? 0) + (score2 ?? 0) + (score1 ?? 0);
    expect(rated).toBeGreaterThan(0);
    expect(satisfaction.totalTimes).toBe(rated);
    expect(satisfaction.good).toBe((score4 ?? 0) + (score3 ?? 0));
    expect(satisfaction.bad).toBe(score1);
    expect(satisfaction.canpinglv).toMatch(/^\d+\.\d{2}%$/);
    expect(satisfaction.totalTimes).toBeLessThanOrEqual(satisfaction.effectSessionCount ?? 0);
    expect(Number(satisfaction.avgNum)).toBeGreaterThanOrEqual(1);
    expect(Number(satisfaction.avgNum)).toBeLessThanOrEqual(4);
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

interface Operation {
  name: string;
  /** The name fault filters and `seen` match: the open-platform action or the ticket endpoint. */
  action: string;
  /** Reads may be retried after any transport trouble; the robot ask and the writes may not. */
  kind: 'read' | 'write';
  call(client: PlatformClient): Promise<unknown>;
}

const OPERATIONS: Operation[] = [
  {
    name: 'ticket list',
    action: 'getTicketInfoList',
    kind: 'read',
    call: (client) => {
      const end = Math.floor(Date.now() / 1000);
      return client.listTickets({ createStartTime: end - DAY_SECONDS, createEndTime: end });
    },
  },
  {
    name: 'agent list',
    action: 'queryServiceList',
    kind: 'read',
    call: (client) => client.listAgents({ groupId: 'g-it' }),
  },
  { name: 'robot ask', action: 'chat_user_robot_ask', kind: 'write', call: (client) => client.askRobot(ASK) },
  {
    name: 'knowledge update',
    action: 'update_robot_doc',
    kind: 'write',
    call: (client) => client.updateRobotDoc({ docId: 'doc-password-reset', answerDesc: 'Use the portal.' }),
  },
  {
    name: 'feedback',
    action: 'robot_feedback',
    kind: 'write',
    call: (client) =>
      client.sendRobotFeedback({
        uid: 'u-1',
        cid: 'c-1',
        docId: 'doc-password-reset',
        docName: 'Reset password',
        robotFlag: 1,
        status: 1,
        msgId: 'm-1',
      }),
  },
  {
    name: 'session statistics',
    action: 'wb_session_message',
    kind: 'read',
    call: (client) => client.getSessionMessageStatistics(DATES),
  },
  {
    name: 'human satisfaction statistics',
    action: 'wb_human_satisfaction',
    kind: 'read',
    call: (client) => client.getHumanSatisfactionStatistics(DATES),
  },
];

interface FaultCase {
  name: string;
  fault: Fault;
  /** What the caller gets: the typed error's code and the facts it carries. */
  error: Record<string, unknown>;
  /** Requests the simulator sees for a read and for a write (retry budget: 2 after the first). */
  seenByRead: number;
  seenByWrite: number;
}

const FAULTS: FaultCase[] = [
  {
    name: 'HTTP 500',
    fault: { kind: 'http500' },
    error: { code: 'PLATFORM_HTTP_STATUS', status: 500 },
    seenByRead: 3,
    seenByWrite: 1,
  },
  {
    name: 'non-success code',
    fault: { kind: 'code', code: '1001' },
    error: { code: 'PLATFORM_CODE', platformCode: '1001' },
    seenByRead: 1,
    seenByWrite: 1,
  },
  {
    name: 'delay beyond the timeout',
    fault: { kind: 'delay', ms: 3_000 },
    error: { code: 'PLATFORM_TRANSPORT', failure: 'timeout', beforeRequestSent: false },
    seenByRead: 3,
    seenByWrite: 1,
  },
  {
    name: 'dropped connection',
    fault: { kind: 'drop' },
    error: { code: 'PLATFORM_TRANSPORT', failure: 'reset', beforeRequestSent: false },
    seenByRead: 3,
    seenByWrite: 1,
  },
  {
    name: 'malformed JSON',
    fault: { kind: 'malformed' },
    error: { code: 'PLATFORM_MALFORMED_RESPONSE' },
    seenByRead: 1,
    seenByWrite: 1,
  },
  {
    // A static token cannot be renewed: one retry with the "renewed" token, then the 1002 surfaces.
    name: 'expired token',
    fault: { kind: 'expiredToken' },
    error: { code: 'PLATFORM_CODE', platformCode: '1002' },
    seenByRead: 2,
    seenByWrite: 2,
  },
];

const MATRIX = OPERATIONS.flatMap((operation) =>
  FAULTS.map((fault) => [operation.name, fault.name, operation, fault] as const),
);

describe('every operation under every simulator fault', () => {
  it.each(MATRIX)('%s, %s', async (_operation, _fault, operation, faultCase) => {
    const quick = clientFor(simulator.url, new StaticTokenProvider(TOKEN), {
      timeouts: { connectMs: 1_000, headersMs: 250, bodyMs: 250 },
    });
    try {
      simulator.faults.set({ ...faultCase.fault, actions: [operation.action] });
      await expect(operation.call(quick)).rejects.toMatchObject(faultCase.error);
      expect(seen(operation.action)).toBe(
        operation.kind === 'read' ? faultCase.seenByRead : faultCase.seenByWrite,
      );
    } finally {
      await quick.close();
    }
  });

  it.each(OPERATIONS.map((operation) => [operation.name, operation] as const))(
    '%s succeeds once a one-time fault has passed',
    async (_name, operation) => {
      simulator.faults.set({ kind: 'http500', times: 1, actions: [operation.action] });
      if (operation.kind === 'read') {
        // The read's own retry absorbs the fault.
        await expect(operation.call(client)).resolves.toBeDefined();
        expect(seen(operation.action)).toBe(2);
      } else {
        await expect(operation.call(client)).rejects.toMatchObject({ code: 'PLATFORM_HTTP_STATUS' });
        expect(seen(operation.action)).toBe(1);
      }
    },
  );

  it('expired token once: the retry with the renewed token succeeds', async () => {
    simulator.faults.set({ kind: 'expiredToken', times: 1 });
    await expect(client.askRobot(ASK)).resolves.toMatchObject({ question: ASK.question });
    expect(seen('chat_user_robot_ask')).toBe(2);
  });
});

describe('the robot ask is retried only when it never reached the platform', () => {
  it('a refused connection is retried, up to the budget', async () => {
    const logger = retryRecorder();
    const refused = clientFor(`http://127.0.0.1:${await refusedPort()}`, undefined, { logger });
    try {
      await expect(refused.askRobot(ASK)).rejects.toMatchObject({
        code: 'PLATFORM_TRANSPORT',
        failure: 'connect',
        beforeRequestSent: true,
      });
      expect(logger.retries()).toBe(2);
    } finally {
      await refused.close();
    }
  });

  it('with attempts 0 a refused connection is not retried', async () => {
    const logger = retryRecorder();
    const refused = clientFor(`http://127.0.0.1:${await refusedPort()}`, undefined, {
      logger,
      retry: { attempts: 0 },
    });
    try {
      await expect(refused.askRobot(ASK)).rejects.toMatchObject({ failure: 'connect' });
      expect(logger.retries()).toBe(0);
    } finally {
      await refused.close();
    }
  });

  it('a first connection refused, the retry is answered: one ask reaches the platform', async () => {
    const deadPort = await refusedPort();
    const connect = buildConnector({});
    let connections = 0;
    // The first connection goes to a port nothing listens on; the next ones to the simulator.
    const dispatcher = new Agent({
      connect: (options, callback) => {
        connections += 1;
        connect(connections === 1 ? { ...options, port: String(deadPort) } : options, callback);
      },
    });
    const logger = retryRecorder();
    const flaky = clientFor(simulator.url, undefined, { dispatcher, logger });
    try {
      await expect(flaky.askRobot(ASK)).resolves.toMatchObject({ question: ASK.question });
      expect(logger.retries()).toBe(1);
      expect(seen('chat_user_robot_ask')).toBe(1);
    } finally {
      await flaky.close();
      await dispatcher.close();
    }
  });

  it('a connection reset after the request was sent is not retried', async () => {
    const logger = retryRecorder();
    const dropped = clientFor(simulator.url, undefined, { logger });
    simulator.faults.set({ kind: 'drop', actions: ['chat_user_robot_ask'] });
    try {
      await expect(dropped.askRobot(ASK)).rejects.toMatchObject({
        code: 'PLATFORM_TRANSPORT',
        failure: 'reset',
        beforeRequestSent: false,
      });
      expect(seen('chat_user_robot_ask')).toBe(1);
      expect(logger.retries()).toBe(0);
    } finally {
      await dropped.close();
    }
  });
});

describe('client and simulator agree', () => {
  it('feedback with an empty uid falls back to sysNum, partnerId and from, and is accepted', async () => {
    const answer = await client.askRobot(ASK);
    await expect(
      client.sendRobotFeedback({
        uid: '',
        sysNum: ASK.sysNum,
        partnerId: ASK.partnerId,
        from: 0,
        cid: answer.cid ?? '',
        docId: answer.docId ?? 'doc-password-reset',
        docName: answer.question ?? ASK.question,
        robotFlag: answer.robotFlag ?? 1,
        status: 1,
        msgId: answer.msgId ?? '',
      }),
    ).resolves.toBeUndefined();
    const sent = simulator.received.at(-1)?.body as { data: Record<string, unknown> };
    expect(sent.data).not.toHaveProperty('uid');
  });

  it.each(['questionTitle', 'answerDesc'] as const)(
    'an empty %s is refused by the simulator with 1001, and by the client before sending',
    async (field) => {
      const response = await fetch(`${simulator.url}/open/platform/api.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          action: 'update_robot_doc',
          access_token: TOKEN,
          data: { docId: 'doc-password-reset', [field]: '' },
        }),
      });
      expect(((await response.json()) as { code: string }).code).toBe('1001');
      const before = simulator.received.length;
      await expect(
        client.updateRobotDoc({ docId: 'doc-password-reset', [field]: '' }),
      ).rejects.toBeInstanceOf(RequestInvalidError);
      expect(simulator.received.length).toBe(before);
    },
  );
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
