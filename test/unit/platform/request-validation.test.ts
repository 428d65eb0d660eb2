import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkAgentListData,
  MAX_TICKET_WINDOW_SECONDS,
  type PlatformClient,
  RequestInvalidError,
  StaticTokenProvider,
} from '../../../src/platform/index.js';
import { type Loopback, ROBOT_ASK, sendJson, startLoopback, testClient } from './loopback.js';

const START = 1_700_000_000;
const WINDOW = { createStartTime: START, createEndTime: START + 3600 };
const FEEDBACK = {
  uid: 'uid-1',
  cid: 'cid-1',
  docId: 'doc-1',
  docName: 'Reset password',
  robotFlag: 1,
  status: 1,
  msgId: 'msg-1',
};

let server: Loopback;
let client: PlatformClient;

beforeAll(async () => {
  // Answers success to anything, so a request that should have been refused is visible in `received`.
  server = await startLoopback((request, response) => {
    if (request.path.includes('ticket_api')) sendJson(response, { code: '1000', data: { items: [] } });
    else if (request.path.includes('ticket')) sendJson(response, { code: '1000,ok', data: [] });
    else sendJson(response, { code: '1000', data: { status: 1, retCode: '000000', item: {} } });
  });
  client = testClient(server.url);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

/** Expects the call to be refused before sending, naming `field`. */
async function expectInvalid(call: Promise<unknown>, field: string): Promise<RequestInvalidError> {
  const before = server.received.length;
  const error = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(RequestInvalidError);
  const invalid = error as RequestInvalidError;
  expect(invalid.field).toBe(field);
  expect(invalid.code).toBe('PLATFORM_REQUEST_INVALID');
  expect(server.received.length).toBe(before);
  return invalid;
}

describe('ticket list validation', () => {
  it('refuses a window longer than a month (30 days)', async () => {
    const error = await expectInvalid(
      client.listTickets({ createStartTime: START, createEndTime: START + MAX_TICKET_WINDOW_SECONDS + 1 }),
      'createEndTime',
    );
    expect(error.reason).toMatch(/one month/);
  });

  it('accepts a window of exactly 30 days', async () => {
    await expect(
      client.listTickets({ createStartTime: START, createEndTime: START + MAX_TICKET_WINDOW_SECONDS }),
    ).resolves.toMatchObject({ tickets: [] });
  });

  it('refuses a negative window', async () => {
    await expectInvalid(
      client.listTickets({ createStartTime: START, createEndTime: START - 1 }),
      'createEndTime',
    );
  });

  it('refuses millisecond timestamps (more than 11 digits)', async () => {
    await expectInvalid(
      client.listTickets({ createStartTime: START * 1000, createEndTime: START * 1000 + 1 }),
      'createStartTime',
    );
  });

  it.each([0, 51])('refuses pageSize %i', async (pageSize) => {
    await expectInvalid(client.listTickets({ ...WINDOW, pageSize }), 'pageSize');
  });

  it('sends pageSize 15 and pageNo 1 by default, flat with access_token', async () => {
    await client.listTickets(WINDOW);
    const sent = server.received.at(-1);
    expect(sent?.path).toBe('/ws-open/ticket/getTicketInfoList');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.body).toEqual({ access_token: 'T'.repeat(40), ...WINDOW, pageNo: 1, pageSize: 15 });
  });

  it('accepts pageSize 50', async () => {
    await expect(client.listTickets({ ...WINDOW, pageSize: 50 })).resolves.toMatchObject({ pageSize: 50 });
  });

  it('accepts a ticketTypeId of 36 characters and refuses 37', async () => {
    await expect(client.listTickets({ ...WINDOW, ticketTypeId: 'x'.repeat(36) })).resolves.toBeDefined();
    await expectInvalid(client.listTickets({ ...WINDOW, ticketTypeId: 'x'.repeat(37) }), 'ticketTypeId');
  });

  it.each([0, 1, 2, 3, 99, 98])('accepts ticketStatus %i', async (ticketStatus) => {
    await expect(client.listTickets({ ...WINDOW, ticketStatus })).resolves.toBeDefined();
  });

  it.each([4, 97, -1])('refuses ticketStatus %i', async (ticketStatus) => {
    await expectInvalid(client.listTickets({ ...WINDOW, ticketStatus }), 'ticketStatus');
  });

  it.each([5, 18])('refuses ticketFrom %i (not in the source table)', async (ticketFrom) => {
    await expectInvalid(client.listTickets({ ...WINDOW, ticketFrom }), 'ticketFrom');
  });

  it('refuses an unknown field, naming it', async () => {
    const request = { ...WINDOW, status: 1 } as unknown as Parameters<PlatformClient['listTickets']>[0];
    await expectInvalid(client.listTickets(request), 'status');
  });

  it('refuses an access token longer than 40 characters, without sending', async () => {
    const longToken = testClient(server.url, { tokenProvider: new StaticTokenProvider('x'.repeat(41)) });
    try {
      await expectInvalid(longToken.listTickets(WINDOW), 'access_token');
      await expectInvalid(longToken.listAgents({ groupId: 'g-1' }), 'access_token');
    } finally {
      await longToken.close();
    }
  });
});

describe('agent list validation', () => {
  it('accepts a groupId of 36 characters and refuses 37 or empty', async () => {
    await expect(client.listAgents({ groupId: 'g'.repeat(36) })).resolves.toEqual([]);
    await expectInvalid(client.listAgents({ groupId: 'g'.repeat(37) }), 'groupId');
    await expectInvalid(client.listAgents({ groupId: '' }), 'groupId');
  });

  it('counts a groupId in UTF-16 units, as the platform may: 18 astral characters fit, 19 do not', async () => {
    // 𝔤 is one character but two UTF-16 units: 19 of them are 38 units, over the declared 36.
    await expect(client.listAgents({ groupId: '𝔤'.repeat(18) })).resolves.toEqual([]);
    const sent = server.received.length;
    await expectInvalid(client.listAgents({ groupId: '𝔤'.repeat(19) }), 'groupId');
    await expectInvalid(client.listTickets({ ...WINDOW, ticketTypeId: '𝔤'.repeat(19) }), 'ticketTypeId');
    expect(server.received).toHaveLength(sent);
  });

  it('sends data as an object with the literal action and method', async () => {
    await client.listAgents({ groupId: 'group-7' });
    expect(server.received.at(-1)?.body).toEqual({
      action: 'queryServiceList',
      access_token: 'T'.repeat(40),
      data: { groupId: 'group-7' },
      method: 'get',
    });
  });

  it('limits the serialized data to 4000 characters', () => {
    // {"groupId":"…"} is 14 characters of JSON around the value.
    expect(() => checkAgentListData({ groupId: 'g'.repeat(4000 - 14) })).not.toThrow();
    expect(() => checkAgentListData({ groupId: 'g'.repeat(4001 - 14) })).toThrow(RequestInvalidError);
  });
});

describe('robot ask validation', () => {
  it.each(['sysNum', 'partnerId', 'question'] as const)('refuses an empty %s', async (field) => {
    await expectInvalid(client.askRobot({ ...ROBOT_ASK, [field]: '' }), field);
  });

  it.each([0, 1, 2, 3, 4])('accepts source %i', async (source) => {
    await expect(client.askRobot({ ...ROBOT_ASK, source })).resolves.toBeDefined();
  });

  it('refuses source 5 and questionFlag 2', async () => {
    await expectInvalid(client.askRobot({ ...ROBOT_ASK, source: 5 }), 'source');
    await expectInvalid(client.askRobot({ ...ROBOT_ASK, questionFlag: 2 }), 'questionFlag');
  });

  it('needs requestText (the docId) when questionFlag is 1', async () => {
    await expectInvalid(client.askRobot({ ...ROBOT_ASK, questionFlag: 1 }), 'requestText');
  });
});

describe('knowledge update validation', () => {
  const DOC = { docId: 'doc-1' };

  it.each([
    ['robotFlag', 2],
    ['matchFlag', 3],
    ['usedFlag', 2],
    ['auditStatus', 0],
    ['auditStatus', 3],
  ] as const)('refuses %s %i', async (field, value) => {
    await expectInvalid(client.updateRobotDoc({ ...DOC, [field]: value }), field);
  });

  it.each([
    ['2026-02-30 10:00:00', 'a day February does not have'],
    ['2026-01-01 24:00:00', 'hour 24'],
    ['2026-01-01T10:00:00', 'a T separator'],
    ['2026-01-01', 'no time'],
  ])('refuses effectTime %s (%s)', async (effectTime) => {
    await expectInvalid(client.updateRobotDoc({ ...DOC, effectTime }), 'effectTime');
  });

  it.each(['questionTitle', 'answerDesc'] as const)(
    'refuses an empty %s, which the platform would answer with 1001',
    async (field) => {
      await expectInvalid(client.updateRobotDoc({ ...DOC, [field]: '' }), field);
    },
  );

  it('needs both times when auditStatus is 2, in order', async () => {
    await expectInvalid(
      client.updateRobotDoc({ ...DOC, auditStatus: 2, effectTime: '2026-01-01 00:00:00' }),
      'invalidTime',
    );
    await expectInvalid(
      client.updateRobotDoc({
        ...DOC,
        auditStatus: 2,
        effectTime: '2026-02-01 00:00:00',
        invalidTime: '2026-01-01 00:00:00',
      }),
      'invalidTime',
    );
    await expect(
      client.updateRobotDoc({
        ...DOC,
        auditStatus: 2,
        effectTime: '2024-02-29 00:00:00',
        invalidTime: '2026-01-01 23:59:59',
      }),
    ).resolves.toEqual({ retCode: '000000', retMsg: undefined });
  });
});

describe('feedback validation', () => {
  it('accepts a uid alone', async () => {
    await expect(client.sendRobotFeedback(FEEDBACK)).resolves.toBeUndefined();
  });

  it('without uid needs sysNum, partnerId and from', async () => {
    const { uid: _uid, ...noUid } = FEEDBACK;
    await expectInvalid(client.sendRobotFeedback(noUid), 'sysNum');
    await expectInvalid(client.sendRobotFeedback({ ...noUid, sysNum: 's', partnerId: 'p' }), 'from');
    await expectInvalid(client.sendRobotFeedback({ ...noUid, sysNum: 's', from: 0 }), 'partnerId');
    await expect(
      client.sendRobotFeedback({ ...noUid, sysNum: 's', partnerId: 'p', from: 0 }),
    ).resolves.toBeUndefined();
  });

  it('treats an empty uid as no uid: the sysNum/partnerId/from rule applies', async () => {
    await expectInvalid(client.sendRobotFeedback({ ...FEEDBACK, uid: '' }), 'sysNum');
  });

  it('sends no uid when it is empty and sysNum, partnerId and from stand in', async () => {
    await expect(
      client.sendRobotFeedback({ ...FEEDBACK, uid: '', sysNum: 's', partnerId: 'p', from: 0 }),
    ).resolves.toBeUndefined();
    const sent = server.received.at(-1)?.body as { data: Record<string, unknown> };
    expect(sent.data).not.toHaveProperty('uid');
    expect(sent.data).toMatchObject({ sysNum: 's', partnerId: 'p', from: 0 });
  });

  it.each([0, 3])('refuses rating status %i', async (status) => {
    await expectInvalid(client.sendRobotFeedback({ ...FEEDBACK, status }), 'status');
  });

  it('refuses from 3', async () => {
    await expectInvalid(client.sendRobotFeedback({ ...FEEDBACK, from: 3 }), 'from');
  });
});

describe('statistics validation', () => {
  it.each([
    ['2026-02-30', 'a day February does not have'],
    ['2026-2-1', 'no zero padding'],
    ['2026/02/01', 'slashes'],
    ['20260201', 'a bare number'],
  ])('refuses endDate %s (%s)', async (endDate) => {
    await expectInvalid(client.getSessionMessageStatistics({ startDate: '2026-01-01', endDate }), 'endDate');
  });

  it('refuses an endDate before the startDate', async () => {
    await expectInvalid(
      client.getHumanSatisfactionStatistics({ startDate: '2026-02-01', endDate: '2026-01-31' }),
      'endDate',
    );
  });

  it('sends both dates as yyyy-MM-dd strings', async () => {
    await client.getSessionMessageStatistics({ startDate: '2024-02-01', endDate: '2024-02-29' });
    expect(server.received.at(-1)?.body).toEqual({
      action: 'wb_session_message',
      access_token: 'T'.repeat(40),
      data: { startDate: '2024-02-01', endDate: '2024-02-29' },
    });
  });
});
