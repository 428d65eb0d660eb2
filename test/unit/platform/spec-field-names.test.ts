// The wire schemas spell every field exactly as shared/spec/open-interface.md does, typos included.
// The lists below are copied from the spec's tables by hand, so a renamed schema key fails here.
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentListRequestSchema,
  agentListResponseSchema,
  agentSchema,
  humanSatisfactionStatisticsSchema,
  type PlatformClient,
  robotAnswerSchema,
  robotAskRequestSchema,
  robotDocUpdateRequestSchema,
  robotDocUpdateResponseDataSchema,
  robotFeedbackRequestSchema,
  robotFeedbackResponseDataSchema,
  sessionMessageStatisticsSchema,
  statisticsRequestSchema,
  statisticsResponseDataSchema,
  suggestionSchema,
  ticketListRequestSchema,
  ticketListResponseSchema,
  ticketSchema,
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

const SPEC = {
  ticketListRequest: [
    'access_token',
    'createStartTime',
    'createEndTime',
    'ticketStatus',
    'ticketFrom',
    'ticketTypeId',
    'pageNo',
    'pageSize',
  ],
  ticketListResponse: ['code', 'data', 'pageCount', 'totalCount', 'pageNo', 'pageSize'],
  ticket: [
    'ticketId',
    'ticketCode',
    'ticketTitle',
    'ticketContent',
    'ticketLevel',
    'ticketStatus',
    'startType',
    'startName',
    'dealUserName',
    'dealGroupName',
    'createTime',
    'updateTime',
    'ticketTypeName',
    'ticketFrom',
  ],
  agentListRequest: ['action', 'access_token', 'data', 'method'],
  agentListRequestData: ['groupId'],
  agentListResponse: ['code', 'data'],
  agentListResponseData: ['items'],
  agent: ['serviceId', 'serviceName'],
  openRequest: ['action', 'access_token', 'data'],
  robotAskData: [
    'sysNum',
    'partnerId',
    'question',
    'uname',
    'source',
    'robotFlag',
    'questionFlag',
    'requestText',
  ],
  robotAnswer: [
    'answer',
    'suggestions',
    'question',
    'docId',
    'uid',
    'cid',
    'msgId',
    'stripe',
    'robotFlag',
    'answerType',
    'sessionNew',
  ],
  suggestion: ['question', 'answer', 'docId'],
  docUpdateData: [
    'docId',
    'robotFlag',
    'questionId',
    'questionTitle',
    'matchFlag',
    'answerId',
    'answerDesc',
    'questionTypeId',
    'usedFlag',
    'auditStatus',
    'effectTime',
    'invalidTime',
  ],
  docUpdateResponseData: ['retCode', 'retMsg'],
  feedbackData: [
    'uid',
    'cid',
    'docId',
    'docName',
    'robotFlag',
    'status',
    'msgId',
    'sysNum',
    'partnerId',
    'from',
  ],
  feedbackResponseData: ['status'],
  statisticsData: ['startDate', 'endDate'],
  statisticsResponseData: ['item'],
  sessionMessageItem: [
    'totalMessage',
    'robotMessage',
    'totalCustomerMessage',
    'serviceMessage',
    'avgMessage',
    'avgCustomerMessage',
    'avgServiceMessge',
    'customerToRobotMessage',
    'robotAvgMessage',
    'robotAvgCustomerMessage',
    'totalHumanMessage',
    'customerToServiceMessage',
    'answerThan',
    'humanAvgMessage',
    'humanAvgCustomerMessage',
    'humanAvgServiceMessage',
    'serviceWord',
    'avgServiceWord',
    'serviceOfflineNum',
  ],
  humanSatisfactionItem: [
    'effectSessionCount',
    'totalTimes',
    'canpinglv',
    'initiative',
    'customActiveEvRatio',
    'serviceInvEvRatio',
    'invites',
    'solvedCount',
    'solved',
    'notSolved',
    'solvedLv',
    'avgNum',
    'good',
    'goodLv',
    'middle',
    'middleLv',
    'bad',
    'badLv',
    'score4',
    'score3',
    'score2',
    'score1',
  ],
} as const;

const keysOf = (schema: { shape: object }) => Object.keys(schema.shape).sort();
const sorted = (fields: readonly string[]) => [...fields].sort();

const WINDOW = { createStartTime: 1_700_000_000, createEndTime: 1_700_003_600 };
const DATES = { startDate: '2026-01-01', endDate: '2026-01-31' };
const FEEDBACK = { uid: 'u', cid: 'c', docId: 'd', docName: 'n', robotFlag: 1, status: 1, msgId: 'm' };

let server: Loopback | undefined;
let client: PlatformClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** A success answer for each operation, every level carrying a field the spec does not know. */
function answerWithExtras(request: ReceivedRequest): unknown {
  const extra = { futureField: 'added by a newer platform', nested: { x: 1 } };
  switch (actionOf(request)) {
    case 'getTicketInfoList':
      return {
        code: '1000,ok',
        data: [{ ticketId: 't-1', ...extra }],
        pageCount: 1,
        totalCount: 1,
        ...extra,
      };
    case 'queryServiceList':
      return { code: '1000,ok', data: { items: [{ serviceId: 's-1', ...extra }], ...extra }, ...extra };
    case 'chat_user_robot_ask':
      return {
        code: '1000',
        data: {
          ...ROBOT_ANSWER_DATA,
          suggestions: [{ question: 'q', answer: 'a', docId: 'd', ...extra }],
          ...extra,
        },
        ...extra,
      };
    case 'update_robot_doc':
      return { code: '1000', data: { retCode: '000000', ...extra }, ...extra };
    case 'robot_feedback':
      return { code: '1000', data: { status: 1, ...extra }, ...extra };
    default:
      return { code: '1000', data: { item: { totalMessage: 3, good: 2, ...extra }, ...extra }, ...extra };
  }
}

/** Calls one operation against a server that answers success, and returns what was sent. */
async function sentBy(call: (client: PlatformClient) => Promise<unknown>): Promise<Record<string, unknown>> {
  server = await startLoopback((request, response) => sendJson(response, answerWithExtras(request)));
  client = testClient(server.url);
  await call(client);
  return server.received[0]?.body as Record<string, unknown>;
}

describe('field names match the spec, one operation at a time', () => {
  it('1. ticket list: request fields, response fields and the ticket', async () => {
    // access_token is added by the client next to the validated fields: the body is flat.
    expect([...keysOf(ticketListRequestSchema), 'access_token'].sort()).toEqual(
      sorted(SPEC.ticketListRequest),
    );
    expect(keysOf(ticketListResponseSchema)).toEqual(sorted(SPEC.ticketListResponse));
    expect(keysOf(ticketSchema)).toEqual(sorted(SPEC.ticket));
    const sent = await sentBy((client) =>
      client.listTickets({ ...WINDOW, ticketStatus: 1, ticketFrom: 0, ticketTypeId: 'tt' }),
    );
    expect(Object.keys(sent).sort()).toEqual(sorted(SPEC.ticketListRequest));
  });

  it('2. agent list: envelope, data.groupId, data.items and the agent', async () => {
    expect(keysOf(agentListRequestSchema)).toEqual(sorted(SPEC.agentListRequestData));
    expect(keysOf(agentListResponseSchema)).toEqual(sorted(SPEC.agentListResponse));
    expect(keysOf(agentListResponseSchema.shape.data.unwrap().unwrap())).toEqual(
      sorted(SPEC.agentListResponseData),
    );
    expect(keysOf(agentSchema)).toEqual(sorted(SPEC.agent));
    const sent = await sentBy((client) => client.listAgents({ groupId: 'g' }));
    expect(Object.keys(sent).sort()).toEqual(sorted(SPEC.agentListRequest));
    expect(Object.keys(sent.data as object)).toEqual([...SPEC.agentListRequestData]);
  });

  it('3. robot ask: data fields, the answer and its suggestions', async () => {
    expect(keysOf(robotAskRequestSchema)).toEqual(sorted(SPEC.robotAskData));
    expect(keysOf(robotAnswerSchema)).toEqual(sorted(SPEC.robotAnswer));
    expect(keysOf(suggestionSchema)).toEqual(sorted(SPEC.suggestion));
    const sent = await sentBy((client) => client.askRobot(ROBOT_ASK));
    expect(Object.keys(sent).sort()).toEqual(sorted(SPEC.openRequest));
  });

  it('4. knowledge update: the entry fields, retCode and retMsg', async () => {
    expect(keysOf(robotDocUpdateRequestSchema)).toEqual(sorted(SPEC.docUpdateData));
    expect(keysOf(robotDocUpdateResponseDataSchema)).toEqual(sorted(SPEC.docUpdateResponseData));
    const sent = await sentBy((client) => client.updateRobotDoc({ docId: 'd' }));
    expect(Object.keys(sent).sort()).toEqual(sorted(SPEC.openRequest));
  });

  it('5. feedback: data fields and data.status', async () => {
    expect(keysOf(robotFeedbackRequestSchema)).toEqual(sorted(SPEC.feedbackData));
    expect(keysOf(robotFeedbackResponseDataSchema)).toEqual(sorted(SPEC.feedbackResponseData));
    const sent = await sentBy((client) => client.sendRobotFeedback(FEEDBACK));
    expect(Object.keys(sent).sort()).toEqual(sorted(SPEC.openRequest));
  });

  it('6. session message statistics: dates and every item field (avgServiceMessge)', async () => {
    expect(keysOf(statisticsRequestSchema)).toEqual(sorted(SPEC.statisticsData));
    const response = statisticsResponseDataSchema(sessionMessageStatisticsSchema);
    expect(keysOf(response)).toEqual(sorted(SPEC.statisticsResponseData));
    expect(keysOf(sessionMessageStatisticsSchema)).toEqual(sorted(SPEC.sessionMessageItem));
    const sent = await sentBy((client) => client.getSessionMessageStatistics(DATES));
    expect(Object.keys(sent).sort()).toEqual(sorted(SPEC.openRequest));
    expect(Object.keys(sent.data as object).sort()).toEqual(sorted(SPEC.statisticsData));
  });

  it('7. human satisfaction statistics: dates and every item field (canpinglv)', async () => {
    expect(keysOf(statisticsRequestSchema)).toEqual(sorted(SPEC.statisticsData));
    const response = statisticsResponseDataSchema(humanSatisfactionStatisticsSchema);
    expect(keysOf(response)).toEqual(sorted(SPEC.statisticsResponseData));
    expect(keysOf(humanSatisfactionStatisticsSchema)).toEqual(sorted(SPEC.humanSatisfactionItem));
    const sent = await sentBy((client) => client.getHumanSatisfactionStatistics(DATES));
    expect(Object.keys(sent).sort()).toEqual(sorted(SPEC.openRequest));
    expect(Object.keys(sent.data as object).sort()).toEqual(sorted(SPEC.statisticsData));
  });
});

describe('fields the spec does not know', () => {
  const operations: [string, (client: PlatformClient) => Promise<unknown>][] = [
    ['ticket list', (client) => client.listTickets(WINDOW)],
    ['agent list', (client) => client.listAgents({ groupId: 'g' })],
    ['robot ask', (client) => client.askRobot(ROBOT_ASK)],
    ['knowledge update', (client) => client.updateRobotDoc({ docId: 'd' })],
    ['feedback', (client) => client.sendRobotFeedback(FEEDBACK)],
    ['session statistics', (client) => client.getSessionMessageStatistics(DATES)],
    ['human satisfaction', (client) => client.getHumanSatisfactionStatistics(DATES)],
  ];

  it.each(operations)('%s: an extra field at every level is no error', async (_name, call) => {
    server = await startLoopback((request, response) => sendJson(response, answerWithExtras(request)));
    client = testClient(server.url);
    await expect(call(client)).resolves.not.toBeInstanceOf(Error);
  });

  it('keeps the spec fields of an answer that also carries unknown ones', async () => {
    server = await startLoopback((request, response) => sendJson(response, answerWithExtras(request)));
    client = testClient(server.url);
    const answer = await client.askRobot(ROBOT_ASK);
    expect(answer).toMatchObject({ answer: ROBOT_ANSWER_DATA.answer, cid: 'cid-1', msgId: 'msg-1' });
    expect(answer.suggestions).toMatchObject([{ question: 'q', answer: 'a', docId: 'd' }]);
    const statistics = await client.getHumanSatisfactionStatistics(DATES);
    expect(statistics.good).toBe(2);
  });
});
