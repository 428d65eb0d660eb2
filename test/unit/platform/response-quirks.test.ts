import { afterEach, describe, expect, it } from 'vitest';
import {
  MalformedResponseError,
  type PlatformClient,
  PlatformCodeError,
  TICKET_LIST_SAMPLE_PATH,
  trimKeys,
} from '../../../src/platform/index.js';
import {
  type Loopback,
  type LoopbackHandler,
  ROBOT_ANSWER_DATA,
  ROBOT_ASK,
  sendJson,
  startLoopback,
  TEST_TOKEN,
  testClient,
} from './loopback.js';

const WINDOW = { createStartTime: 1_700_000_000, createEndTime: 1_700_003_600 };
const FEEDBACK = { uid: 'u', cid: 'c', docId: 'd', docName: 'n', robotFlag: 1, status: 2, msgId: 'm' };
const DATES = { startDate: '2026-01-01', endDate: '2026-01-31' };

let server: Loopback | undefined;
let client: PlatformClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function serve(handler: LoopbackHandler, overrides: Parameters<typeof testClient>[1] = {}) {
  server = await startLoopback(handler);
  client = testClient(server.url, overrides);
  return { server, client };
}

describe('ticket list', () => {
  it('accepts "1000,ok" as success and maps the page', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, {
        code: '1000,正常返回',
        data: [{ ticketId: 't1', ticketCode: '20240101', ticketStatus: '3', createTime: 1_700_000_000_000 }],
        pageCount: 4,
        totalCount: 61,
        pageNo: 2,
        pageSize: 15,
      }),
    );
    await expect(client.listTickets({ ...WINDOW, pageNo: 2 })).resolves.toEqual({
      tickets: [{ ticketId: 't1', ticketCode: 20_240_101, ticketStatus: 3, createTime: 1_700_000_000_000 }],
      pageNo: 2,
      pageSize: 15,
      pageCount: 4,
      totalCount: 61,
    });
  });

  it('fills missing counters from the request and the page', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000,ok', data: [{ ticketId: 'a' }, { ticketId: 'b' }] }),
    );
    await expect(client.listTickets({ ...WINDOW, pageNo: 3, pageSize: 2 })).resolves.toMatchObject({
      pageNo: 3,
      pageSize: 2,
      // A full page with no counters: there may be another page.
      pageCount: 4,
      totalCount: 6,
    });
  });

  it('treats a missing data array as an empty page', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000,ok', data: null }),
    );
    await expect(client.listTickets(WINDOW)).resolves.toEqual({
      tickets: [],
      pageNo: 1,
      pageSize: 15,
      pageCount: 1,
      totalCount: 0,
    });
  });

  it('maps "1003,window too long" to PlatformCodeError 1003 with the text', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1003,window too long' }),
    );
    await expect(client.listTickets(WINDOW)).rejects.toMatchObject({
      platformCode: '1003',
      platformMessage: 'window too long',
      action: 'getTicketInfoList',
    });
  });

  it('accepts "1000，正常返回" with a full-width comma as success', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000，正常返回', data: [{ ticketId: 't1' }], pageCount: 1, totalCount: 1 }),
    );
    await expect(client.listTickets(WINDOW)).resolves.toMatchObject({ tickets: [{ ticketId: 't1' }] });
  });

  it('splits a failure at a full-width comma: "1003，时间跨度过长" is code 1003', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1003，时间跨度过长' }),
    );
    await expect(client.listTickets(WINDOW)).rejects.toMatchObject({
      platformCode: '1003',
      platformMessage: '时间跨度过长',
    });
  });

  it('renews the token on "1002，token失效" with a full-width comma', async () => {
    let rejections = 1;
    const { client, server } = await serve((_request, response) => {
      if (rejections-- > 0) sendJson(response, { code: '1002，token失效' });
      else sendJson(response, { code: '1000，正常返回', data: [] });
    });
    await expect(client.listTickets(WINDOW)).resolves.toMatchObject({ tickets: [] });
    expect(server.received).toHaveLength(2);
  });

  it('can use the sample path getTicketList instead', async () => {
    const { client, server } = await serve(
      (_request, response) => sendJson(response, { code: '1000,ok', data: [] }),
      { ticketListPath: TICKET_LIST_SAMPLE_PATH },
    );
    await client.listTickets(WINDOW);
    expect(server.received[0]?.path).toBe('/ws-open/ticket/getTicketList');
  });
});

describe('agent list', () => {
  it('reads the sample answer whose "items" and "serviceId" keys carry stray spaces', async () => {
    const raw =
      '{"code":"1000","data":{" items ":[{" serviceId":"s-1","serviceName":"Ann"},{"serviceId ":"s-2"}]}}';
    const { client } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(raw);
    });
    await expect(client.listAgents({ groupId: 'g' })).resolves.toEqual([
      { serviceId: 's-1', serviceName: 'Ann' },
      { serviceId: 's-2' },
    ]);
  });

  it.each(['1000,正常返回', '1000，正常返回', '1000'])(
    'counts "%s" as success: it lives with the ticket calls under {base_url}',
    async (code) => {
      const { client } = await serve((_request, response) =>
        sendJson(response, { code, data: { items: [{ serviceId: 's-1', serviceName: 'Ann' }] } }),
      );
      await expect(client.listAgents({ groupId: 'g' })).resolves.toEqual([
        { serviceId: 's-1', serviceName: 'Ann' },
      ]);
    },
  );

  it('maps "1001,<text>" on the agent list to PlatformCodeError 1001', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1001,groupId is required' }),
    );
    await expect(client.listAgents({ groupId: 'g' })).rejects.toMatchObject({
      platformCode: '1001',
      platformMessage: 'groupId is required',
      action: 'queryServiceList',
    });
  });

  it('trims keys recursively and leaves values alone', () => {
    expect(trimKeys({ ' a ': [{ ' b': ' keep ' }], c: null })).toEqual({ a: [{ b: ' keep ' }], c: null });
  });

  it('maps an agent without serviceId to MalformedResponseError', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { items: [{ serviceName: 'x' }] } }),
    );
    await expect(client.listAgents({ groupId: 'g' })).rejects.toBeInstanceOf(MalformedResponseError);
  });
});

describe('robot ask', () => {
  it('returns the answer, dropping empty suggestions', async () => {
    const { client, server } = await serve((_request, response) =>
      sendJson(response, {
        code: '1000',
        data: { ...ROBOT_ANSWER_DATA, suggestions: [...ROBOT_ANSWER_DATA.suggestions, { question: ' ' }] },
      }),
    );
    const answer = await client.askRobot(ROBOT_ASK);
    expect(answer).toMatchObject({ answer: 'Use the reset link.', cid: 'cid-1', sessionNew: true });
    expect(answer.suggestions).toHaveLength(1);
    expect(server.received[0]?.path).toBe('/open/platform/api.json');
    expect(server.received[0]?.body).toEqual({
      action: 'chat_user_robot_ask',
      access_token: TEST_TOKEN,
      data: ROBOT_ASK,
    });
  });

  it('maps a non-1000 code to PlatformCodeError with the msg', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1005', msg: 'sysNum unknown' }),
    );
    await expect(client.askRobot(ROBOT_ASK)).rejects.toMatchObject({
      code: 'PLATFORM_CODE',
      platformCode: '1005',
      platformMessage: 'sysNum unknown',
      action: 'chat_user_robot_ask',
    });
  });

  it('maps a success without data to MalformedResponseError', async () => {
    const { client } = await serve((_request, response) => sendJson(response, { code: '1000' }));
    await expect(client.askRobot(ROBOT_ASK)).rejects.toBeInstanceOf(MalformedResponseError);
  });
});

describe('knowledge update', () => {
  it('succeeds on retCode "000000" without retMsg', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { retCode: '000000' } }),
    );
    await expect(client.updateRobotDoc({ docId: 'd', answerDesc: 'new' })).resolves.toEqual({
      retCode: '000000',
      retMsg: undefined,
    });
  });

  it('maps another retCode to PlatformCodeError carrying retMsg', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { retCode: '100001', retMsg: 'doc not found' } }),
    );
    await expect(client.updateRobotDoc({ docId: 'd' })).rejects.toMatchObject({
      platformCode: '100001',
      platformMessage: 'doc not found',
      action: 'update_robot_doc',
    });
  });
});

describe('feedback', () => {
  it('succeeds on data.status 1', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { status: 1 } }),
    );
    await expect(client.sendRobotFeedback(FEEDBACK)).resolves.toBeUndefined();
  });

  it('maps data.status 0 to PlatformCodeError "status:0"', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { status: 0 } }),
    );
    const error = await client.sendRobotFeedback(FEEDBACK).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PlatformCodeError);
    expect(error).toMatchObject({ platformCode: 'status:0', action: 'robot_feedback' });
  });
});

describe('statistics', () => {
  it('returns data.item for session messages', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, {
        code: '1000',
        data: { item: { totalMessage: 12, avgServiceMessge: '1.5', answerThan: '80%' } },
      }),
    );
    await expect(client.getSessionMessageStatistics(DATES)).resolves.toEqual({
      totalMessage: 12,
      avgServiceMessge: 1.5,
      answerThan: '80%',
    });
  });

  it('returns data.item for human satisfaction', async () => {
    const { client, server } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { item: { good: 3, goodLv: '75%', canpinglv: '10%' } } }),
    );
    await expect(client.getHumanSatisfactionStatistics(DATES)).resolves.toEqual({
      good: 3,
      goodLv: '75%',
      canpinglv: '10%',
    });
    expect(server.received[0]?.body).toMatchObject({ action: 'wb_human_satisfaction', data: DATES });
  });

  it('maps code 1001 to PlatformCodeError, without retrying', async () => {
    const { client, server } = await serve((_request, response) => sendJson(response, { code: '1001' }));
    await expect(client.getSessionMessageStatistics(DATES)).rejects.toMatchObject({
      platformCode: '1001',
      action: 'wb_session_message',
    });
    await expect(client.getHumanSatisfactionStatistics(DATES)).rejects.toMatchObject({
      platformCode: '1001',
    });
    expect(server.received).toHaveLength(2);
  });

  it('maps a missing item to MalformedResponseError', async () => {
    const { client } = await serve((_request, response) => sendJson(response, { code: '1000', data: {} }));
    await expect(client.getSessionMessageStatistics(DATES)).rejects.toBeInstanceOf(MalformedResponseError);
  });
});

describe('null is read as absent', () => {
  it('robot answer: docId null and every other optional field null yield undefined', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, {
        code: '1000',
        data: {
          answer: 'Use the reset link.',
          suggestions: null,
          question: null,
          docId: null,
          uid: null,
          cid: null,
          msgId: null,
          stripe: null,
          robotFlag: null,
          answerType: null,
          sessionNew: null,
        },
      }),
    );
    const answer = await client.askRobot(ROBOT_ASK);
    expect(answer.answer).toBe('Use the reset link.');
    expect(answer.suggestions).toEqual([]);
    expect(answer.docId).toBeUndefined();
    for (const field of [
      'question',
      'uid',
      'cid',
      'msgId',
      'stripe',
      'robotFlag',
      'answerType',
      'sessionNew',
    ] as const) {
      expect(answer[field], field).toBeUndefined();
    }
  });

  it('ticket: dealUserName null (a ticket nobody accepted) and other nulls yield undefined', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, {
        code: '1000,ok',
        data: [
          {
            ticketId: 't-1',
            ticketCode: null,
            ticketTitle: 'VPN down',
            ticketContent: null,
            ticketLevel: null,
            ticketStatus: 0,
            startType: null,
            startName: null,
            dealUserName: null,
            dealGroupName: null,
            createTime: 1_700_000_000_000,
            updateTime: null,
            ticketTypeName: null,
            ticketFrom: null,
          },
        ],
        pageCount: null,
        totalCount: null,
        pageNo: null,
        pageSize: null,
      }),
    );
    const page = await client.listTickets({ ...WINDOW, pageSize: 10 });
    const ticket = page.tickets[0];
    expect(ticket?.ticketTitle).toBe('VPN down');
    expect(ticket?.ticketStatus).toBe(0);
    expect(ticket?.dealUserName).toBeUndefined();
    for (const field of [
      'ticketCode',
      'ticketContent',
      'ticketLevel',
      'startType',
      'startName',
      'dealGroupName',
      'updateTime',
      'ticketTypeName',
      'ticketFrom',
    ] as const) {
      expect(ticket?.[field], field).toBeUndefined();
    }
    // Null counters fall back to what the request and the page show, as missing ones do.
    expect(page).toMatchObject({ pageNo: 1, pageSize: 10, pageCount: 1, totalCount: 1 });
  });

  it('agent: serviceName null yields undefined', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { items: [{ serviceId: 's-1', serviceName: null }] } }),
    );
    const agents = await client.listAgents({ groupId: 'g' });
    expect(agents).toHaveLength(1);
    expect(agents[0]?.serviceId).toBe('s-1');
    expect(agents[0]?.serviceName).toBeUndefined();
  });

  it('knowledge update: retMsg null on success yields undefined', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { retCode: '000000', retMsg: null } }),
    );
    await expect(client.updateRobotDoc({ docId: 'd' })).resolves.toEqual({
      retCode: '000000',
      retMsg: undefined,
    });
  });

  it('statistics: null figures yield undefined, the others are still read', async () => {
    const { client } = await serve((request, response) => {
      const action = (request.body as { action?: string }).action;
      sendJson(response, {
        code: '1000',
        data: {
          item:
            action === 'wb_session_message'
              ? { totalMessage: 7, avgServiceMessge: null, answerThan: null, serviceOfflineNum: null }
              : { good: 2, canpinglv: null, avgNum: null, score1: null },
        },
      });
    });
    const messages = await client.getSessionMessageStatistics(DATES);
    expect(messages.totalMessage).toBe(7);
    expect(messages.avgServiceMessge).toBeUndefined();
    expect(messages.answerThan).toBeUndefined();
    expect(messages.serviceOfflineNum).toBeUndefined();
    const satisfaction = await client.getHumanSatisfactionStatistics(DATES);
    expect(satisfaction.good).toBe(2);
    expect(satisfaction.canpinglv).toBeUndefined();
    expect(satisfaction.avgNum).toBeUndefined();
    expect(satisfaction.score1).toBeUndefined();
  });

  it('still refuses null where the value is the point of the answer', async () => {
    const { client } = await serve((_request, response) =>
      sendJson(response, { code: '1000', data: { items: [{ serviceId: null, serviceName: 'Ann' }] } }),
    );
    await expect(client.listAgents({ groupId: 'g' })).rejects.toBeInstanceOf(MalformedResponseError);
  });
});
