// The caller's requestId reaches every log line the client writes for that call, and only that call.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type PlatformClient,
  type PlatformLogger,
  StaticTokenProvider,
} from '../../../src/platform/index.js';
import { allTickets } from '../../support/ticket-pages.js';
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

interface LogLine {
  level: 'debug' | 'warn';
  obj: Record<string, unknown>;
  msg: string;
}

function recordingLogger(): PlatformLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  return {
    lines,
    debug: (obj, msg) => lines.push({ level: 'debug', obj: { ...obj }, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj: { ...obj }, msg }),
  };
}

/** A success answer for whichever operation was asked. */
function answerFor(request: ReceivedRequest, response: ServerResponse): void {
  switch (actionOf(request)) {
    case 'getTicketInfoList':
      sendJson(response, { code: '1000,ok', data: [{ ticketId: 't-1' }], pageCount: 1, totalCount: 1 });
      return;
    case 'queryServiceList':
      sendJson(response, { code: '1000,ok', data: { items: [{ serviceId: 's-1' }] } });
      return;
    case 'chat_user_robot_ask':
      sendJson(response, { code: '1000', data: ROBOT_ANSWER_DATA });
      return;
    case 'update_robot_doc':
      sendJson(response, { code: '1000', data: { retCode: '000000' } });
      return;
    case 'robot_feedback':
      sendJson(response, { code: '1000', data: { status: 1 } });
      return;
    default:
      sendJson(response, { code: '1000', data: { item: { totalMessage: 1, good: 1 } } });
  }
}

const WINDOW = { createStartTime: 1_700_000_000, createEndTime: 1_700_003_600 };
const DATES = { startDate: '2026-01-01', endDate: '2026-01-31' };
const FEEDBACK = { uid: 'u', cid: 'c', docId: 'd', docName: 'n', robotFlag: 1, status: 1, msgId: 'm' };

/** Every public operation, called with the given options. */
const OPERATIONS: [string, (client: PlatformClient, options: { requestId?: string }) => Promise<unknown>][] =
  [
    ['getTicketInfoList', (client, options) => client.listTickets(WINDOW, options)],
    ['queryServiceList', (client, options) => client.listAgents({ groupId: 'g' }, options)],
    ['chat_user_robot_ask', (client, options) => client.askRobot(ROBOT_ASK, options)],
    ['update_robot_doc', (client, options) => client.updateRobotDoc({ docId: 'd' }, options)],
    ['robot_feedback', (client, options) => client.sendRobotFeedback(FEEDBACK, options)],
    ['wb_session_message', (client, options) => client.getSessionMessageStatistics(DATES, options)],
    ['wb_human_satisfaction', (client, options) => client.getHumanSatisfactionStatistics(DATES, options)],
  ];

let server: Loopback | undefined;
let client: PlatformClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('requestId on the client log lines', () => {
  it.each(OPERATIONS)('%s: the success line carries the requestId it was given', async (action, call) => {
    const logger = recordingLogger();
    server = await startLoopback(answerFor);
    client = testClient(server.url, { logger });
    await call(client, { requestId: `req-${action}` });
    expect(logger.lines).toEqual([
      {
        level: 'debug',
        msg: 'platform call succeeded',
        obj: expect.objectContaining({ action, requestId: `req-${action}` }),
      },
    ]);
  });

  it('puts the requestId on the retry warning', async () => {
    const logger = recordingLogger();
    let failures = 1;
    server = await startLoopback((request, response) => {
      if (failures-- > 0) sendJson(response, { code: '1500' }, 503);
      else answerFor(request, response);
    });
    client = testClient(server.url, { logger });
    await client.listAgents({ groupId: 'g' }, { requestId: 'req-retry' });
    expect(logger.lines.map((line) => [line.level, line.msg, line.obj.requestId])).toEqual([
      ['warn', 'platform call failed; retrying', 'req-retry'],
      ['debug', 'platform call succeeded', 'req-retry'],
    ]);
  });

  it('puts the requestId on the token renewal warning', async () => {
    const logger = recordingLogger();
    let rejections = 1;
    server = await startLoopback((request, response) => {
      if (rejections-- > 0) sendJson(response, { code: '1002', msg: 'token expired' });
      else answerFor(request, response);
    });
    client = testClient(server.url, { logger, tokenProvider: new StaticTokenProvider('t') });
    await client.askRobot(ROBOT_ASK, { requestId: 'req-renew' });
    expect(logger.lines.map((line) => [line.level, line.msg, line.obj.requestId])).toEqual([
      ['warn', 'platform rejected the access token; renewing and retrying once', 'req-renew'],
      ['debug', 'platform call succeeded', 'req-renew'],
    ]);
  });

  it('writes no requestId key when none is given, and none leaks from an earlier call', async () => {
    const logger = recordingLogger();
    let failures = 1;
    server = await startLoopback((request, response) => {
      if (actionOf(request) === 'wb_session_message' && failures-- > 0) sendJson(response, {}, 500);
      else answerFor(request, response);
    });
    client = testClient(server.url, { logger });
    await client.askRobot(ROBOT_ASK, { requestId: 'req-earlier' });
    logger.lines.length = 0;
    for (const [, call] of OPERATIONS) await call(client, {});
    expect(logger.lines.length).toBe(OPERATIONS.length + 1);
    for (const line of logger.lines) expect(line.obj).not.toHaveProperty('requestId');
  });

  it('gives every page of a ticket listing the requestId', async () => {
    const logger = recordingLogger();
    server = await startLoopback((_request, response) =>
      sendJson(response, { code: '1000,ok', data: [{ ticketId: 't' }], pageCount: 3 }),
    );
    client = testClient(server.url, { logger });
    const tickets = await allTickets(client, { ...WINDOW, pageSize: 1 }, { requestId: 'req-pages' });
    expect(tickets).toHaveLength(3);
    expect(logger.lines.map((line) => line.obj.requestId)).toEqual(['req-pages', 'req-pages', 'req-pages']);
  });
});
