import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';

const TOKEN = DEFAULT_SIMULATOR_TOKEN;
const NOW_MS = Date.parse('2026-03-15T10:00:00Z');
let simulators: Simulator[] = [];

async function start(nowMs = NOW_MS, seed?: string): Promise<Simulator> {
  const simulator = await startSimulator({
    accessToken: TOKEN,
    now: () => new Date(nowMs),
    ...(seed === undefined ? {} : { seed }),
  });
  simulators.push(simulator);
  return simulator;
}

afterEach(async () => {
  await Promise.all(simulators.map((simulator) => simulator.close()));
  simulators = [];
});

async function post(simulator: Simulator, path: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

const open = (simulator: Simulator, action: string, data: unknown) =>
  post(simulator, '/open/platform/api.json', { action, access_token: TOKEN, data });

async function item(simulator: Simulator, action: string, data: object): Promise<Record<string, unknown>> {
  const json = await open(simulator, action, data);
  expect(json.code).toBe('1000');
  return (json.data as { item: Record<string, unknown> }).item;
}

const SESSION_FIELDS = {
  integer: [
    'totalMessage',
    'robotMessage',
    'totalCustomerMessage',
    'serviceMessage',
    'customerToRobotMessage',
    'totalHumanMessage',
    'customerToServiceMessage',
    'serviceWord',
    'serviceOfflineNum',
  ],
  double: [
    'avgMessage',
    'avgCustomerMessage',
    'avgServiceMessge',
    'robotAvgMessage',
    'robotAvgCustomerMessage',
    'humanAvgMessage',
    'humanAvgCustomerMessage',
    'humanAvgServiceMessage',
    'avgServiceWord',
  ],
  string: ['answerThan'],
};

const SATISFACTION_FIELDS = {
  integer: [
    'effectSessionCount',
    'totalTimes',
    'initiative',
    'invites',
    'solvedCount',
    'solved',
    'notSolved',
    'good',
    'middle',
    'bad',
    'score4',
    'score3',
    'score2',
    'score1',
  ],
  double: [],
  string: [
    'canpinglv',
    'customActiveEvRatio',
    'serviceInvEvRatio',
    'solvedLv',
    'avgNum',
    'goodLv',
    'middleLv',
    'badLv',
  ],
};

function expectFields(record: Record<string, unknown>, fields: typeof SESSION_FIELDS): void {
  for (const field of fields.integer) expect(Number.isInteger(record[field]), field).toBe(true);
  for (const field of fields.double) expect(typeof record[field], field).toBe('number');
  for (const field of fields.string) expect(typeof record[field], field).toBe('string');
  expect(Object.keys(record).sort()).toEqual([...fields.integer, ...fields.double, ...fields.string].sort());
}

const RANGE = { startDate: '2026-03-01', endDate: '2026-03-15' };

interface AskAnswer {
  uid: string;
  cid: string;
  msgId: string;
  docId: string;
  question: string;
}

async function ask(simulator: Simulator): Promise<AskAnswer> {
  const json = await open(simulator, 'chat_user_robot_ask', {
    sysNum: 's',
    partnerId: 'p',
    question: 'How do I reset my password?',
  });
  expect(json.code).toBe('1000');
  return json.data as AskAnswer;
}

describe('statistics', () => {
  it('wb_session_message carries every field of the spec with its type', async () => {
    const simulator = await start();
    const record = await item(simulator, 'wb_session_message', RANGE);
    expectFields(record, SESSION_FIELDS);
    expect(record.answerThan).toMatch(/^\d+\.\d{2}%$/);
    expect(record.totalMessage).toBeGreaterThan(0);
  });

  it('wb_human_satisfaction carries every field of the spec with its type, ratios like "85.00%"', async () => {
    const simulator = await start();
    const record = await item(simulator, 'wb_human_satisfaction', RANGE);
    expectFields(record, SATISFACTION_FIELDS);
    for (const field of ['canpinglv', 'solvedLv', 'goodLv', 'middleLv', 'badLv']) {
      expect(record[field]).toMatch(/^\d+\.\d{2}%$/);
    }
    expect(record.totalTimes).toBe(
      Number(record.score4) + Number(record.score3) + Number(record.score2) + Number(record.score1),
    );
  });

  it('accepts endDate as an integer yyyyMMdd', async () => {
    const simulator = await start();
    const asString = await item(simulator, 'wb_session_message', RANGE);
    const asInteger = await item(simulator, 'wb_session_message', {
      startDate: '2026-03-01',
      endDate: 20260315,
    });
    expect(asInteger).toEqual(asString);
  });

  it('has no traffic in the future', async () => {
    const simulator = await start();
    const record = await item(simulator, 'wb_session_message', {
      startDate: '2027-01-01',
      endDate: '2027-01-31',
    });
    expect(record.totalMessage).toBe(0);
    expect(record.avgMessage).toBe(0);
  });

  it('session-message figures move with each ask, on the day of the ask only', async () => {
    const simulator = await start();
    const before = await item(simulator, 'wb_session_message', RANGE);
    await ask(simulator);
    const after = await item(simulator, 'wb_session_message', RANGE);
    expect(after.customerToRobotMessage).toBe(Number(before.customerToRobotMessage) + 1);
    expect(after.robotMessage).toBe(Number(before.robotMessage) + 1);
    expect(after.totalMessage).toBe(Number(before.totalMessage) + 2);
    // A day outside the range does not see it.
    const yesterday = { startDate: '2026-03-14', endDate: '2026-03-14' };
    const fresh = await start();
    expect(await item(simulator, 'wb_session_message', yesterday)).toEqual(
      await item(fresh, 'wb_session_message', yesterday),
    );
  });

  it.each([
    [1, 'thumbs up'],
    [2, 'thumbs down'],
  ])('robot feedback %i (%s) is no human-satisfaction rating: the figures stay put', async (status) => {
    const simulator = await start();
    const fresh = await start();
    const answer = await ask(simulator);
    const feedback = await open(simulator, 'robot_feedback', {
      uid: answer.uid,
      cid: answer.cid,
      docId: answer.docId,
      docName: answer.question,
      robotFlag: 1,
      status,
      msgId: answer.msgId,
    });
    expect(feedback.data).toEqual({ status: 1 });
    // Neither the ask nor its rating reaches the human-agent figures: they equal an untouched simulator's.
    expect(await item(simulator, 'wb_human_satisfaction', RANGE)).toEqual(
      await item(fresh, 'wb_human_satisfaction', RANGE),
    );
  });

  it('human satisfaction counts the same human sessions as the message figures, at most one rating each', async () => {
    const simulator = await start();
    const messages = await item(simulator, 'wb_session_message', RANGE);
    const satisfaction = await item(simulator, 'wb_human_satisfaction', RANGE);
    const humanSessions = Math.round(Number(messages.totalHumanMessage) / Number(messages.humanAvgMessage));
    expect(satisfaction.effectSessionCount).toBe(humanSessions);
    expect(Number(satisfaction.totalTimes)).toBeLessThanOrEqual(humanSessions);
    expect(Number.parseFloat(String(satisfaction.canpinglv))).toBeLessThanOrEqual(100);
  });

  it('participation stays at or below 100% on every single day of the history', async () => {
    const simulator = await start();
    for (let day = 1; day <= 31; day += 1) {
      const date = `2026-01-${String(day).padStart(2, '0')}`;
      const record = await item(simulator, 'wb_human_satisfaction', { startDate: date, endDate: date });
      expect(Number(record.totalTimes), date).toBeLessThanOrEqual(Number(record.effectSessionCount));
    }
  });

  it.each([
    ['startDate after endDate', { startDate: '2026-03-15', endDate: '2026-03-01' }],
    ['a slashed startDate', { startDate: '2026/03/01', endDate: '2026-03-15' }],
    ['an impossible date', { startDate: '2026-02-30', endDate: '2026-03-15' }],
    ['no endDate', { startDate: '2026-03-01' }],
    ['no startDate', { endDate: '2026-03-15' }],
    ['an endDate integer that is not yyyyMMdd', { startDate: '2026-03-01', endDate: 2026315 }],
    ['an endDate with time', { startDate: '2026-03-01', endDate: '2026-03-15 00:00:00' }],
  ])('refuses %s with code 1001', async (_name, data) => {
    const simulator = await start();
    for (const action of ['wb_session_message', 'wb_human_satisfaction']) {
      const json = await open(simulator, action, data);
      expect(json.code).toBe('1001');
      expect(typeof json.msg).toBe('string');
    }
  });
});

describe('determinism', () => {
  it('two simulators with the same now() give identical tickets, answers and statistics', async () => {
    const first = await start();
    const second = await start();
    const now = Math.floor(NOW_MS / 1000);
    const ticketBody = {
      access_token: TOKEN,
      createStartTime: now - 30 * 86_400,
      createEndTime: now,
      pageSize: 50,
      pageNo: 2,
    };
    const askData = { sysNum: 's', partnerId: 'p', question: 'vpn broken' };
    for (const [path, body] of [
      ['/ws-open/ticket/getTicketInfoList', ticketBody],
      ['/open/platform/api.json', { action: 'chat_user_robot_ask', access_token: TOKEN, data: askData }],
      ['/open/platform/api.json', { action: 'wb_session_message', access_token: TOKEN, data: RANGE }],
      ['/open/platform/api.json', { action: 'wb_human_satisfaction', access_token: TOKEN, data: RANGE }],
    ] as const) {
      expect(await post(first, path, body)).toEqual(await post(second, path, body));
    }
  });

  it('a different now() moves the tickets with it', async () => {
    const earlier = await start(NOW_MS - 10 * 86_400_000);
    const now = Math.floor((NOW_MS - 10 * 86_400_000) / 1000);
    const page = await post(earlier, '/ws-open/ticket/getTicketInfoList', {
      access_token: TOKEN,
      createStartTime: now - 86_400,
      createEndTime: now,
    });
    expect(page.totalCount).toBeGreaterThan(0);
  });

  it('another seed gives another platform its own figures and tickets, the same each start', async () => {
    const usual = await start();
    const globex = await start(NOW_MS, 'globex');
    const globexAgain = await start(NOW_MS, 'globex');
    const now = Math.floor(NOW_MS / 1000);
    const tickets = {
      access_token: TOKEN,
      createStartTime: now - 7 * 86_400,
      createEndTime: now,
      pageSize: 50,
    };
    const read = async (simulator: Simulator) => [
      await open(simulator, 'wb_session_message', RANGE),
      await post(simulator, '/ws-open/ticket/getTicketInfoList', tickets),
    ];
    const [usualFigures, usualTickets] = await read(usual);
    const [globexFigures, globexTickets] = await read(globex);
    expect(globexFigures).not.toEqual(usualFigures);
    expect(globexTickets).not.toEqual(usualTickets);
    expect(await read(globexAgain)).toEqual([globexFigures, globexTickets]);
  });
});
