import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';

const TOKEN = DEFAULT_SIMULATOR_TOKEN;
let simulators: Simulator[] = [];
let nowMs = Date.parse('2026-03-15T10:00:00Z');

async function start(): Promise<Simulator> {
  const simulator = await startSimulator({ accessToken: TOKEN, now: () => new Date(nowMs) });
  simulators.push(simulator);
  return simulator;
}

afterEach(async () => {
  await Promise.all(simulators.map((simulator) => simulator.close()));
  simulators = [];
  nowMs = Date.parse('2026-03-15T10:00:00Z');
});

interface Answer {
  answer: string;
  suggestions: { question: string; answer: string; docId: string }[];
  question: string;
  docId: string;
  uid: string;
  cid: string;
  msgId: string;
  stripe: string;
  robotFlag: number;
  answerType: number;
  sessionNew: boolean;
}

async function open(simulator: Simulator, action: string, data: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${simulator.url}/open/platform/api.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action, access_token: TOKEN, data }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function ask(
  simulator: Simulator,
  question: string,
  extra: object = {},
  partnerId = 'alice',
): Promise<Answer> {
  const json = await open(simulator, 'chat_user_robot_ask', {
    sysNum: 'sys-1',
    partnerId,
    question,
    ...extra,
  });
  expect(json.code).toBe('1000');
  return json.data as Answer;
}

describe('robot ask', () => {
  it('answers an exact title with answerType 1 and related suggestions', async () => {
    const simulator = await start();
    const answer = await ask(simulator, 'How do I reset my password?');
    expect(answer).toMatchObject({
      answerType: 1,
      docId: 'doc-password-reset',
      question: 'How do I reset my password?',
      stripe: 'You may also want to ask:',
      robotFlag: 1,
      sessionNew: true,
    });
    expect(answer.answer).toContain('<a href="https://password.example.com">');
    expect(answer.suggestions.map((suggestion) => suggestion.docId)).toEqual([
      'doc-account-locked',
      'doc-mfa',
      'doc-zh-password',
    ]);
    expect(answer.uid).toMatch(/^u-/);
    expect(answer.cid).toMatch(/^c-/);
    expect(answer.msgId).toMatch(/^m-/);
  });

  it('answers a partial match with answerType 2, the best entry and suggestions', async () => {
    const simulator = await start();
    const answer = await ask(simulator, 'my vpn is not working');
    expect(answer).toMatchObject({
      answerType: 2,
      docId: 'doc-vpn-connect',
      question: 'How do I connect to the VPN?',
    });
    expect(answer.suggestions.length).toBeGreaterThan(0);
    const chinese = await ask(simulator, '我想报销打车费');
    expect(chinese).toMatchObject({ answerType: 2, docId: 'doc-zh-expense', stripe: '您可能还想问：' });
  });

  it('answers an unknown question with answerType 3, an apology and popular suggestions', async () => {
    const simulator = await start();
    const answer = await ask(simulator, 'What is the meaning of life?');
    expect(answer).toMatchObject({
      answerType: 3,
      docId: '',
      question: 'What is the meaning of life?',
      stripe: 'You may want to ask:',
    });
    expect(answer.answer).toMatch(/^Sorry/);
    expect(answer.suggestions).toHaveLength(5);
    expect((await ask(simulator, '今天天气怎么样')).stripe).toBe('您可能想问：');
  });

  it('answers a greeting with answerType 4', async () => {
    const simulator = await start();
    expect((await ask(simulator, 'Hello!')).answerType).toBe(4);
    expect((await ask(simulator, '你好')).answerType).toBe(4);
  });

  it('serves the long answer and the many-suggestions entry', async () => {
    const simulator = await start();
    const long = await ask(simulator, 'What is the travel policy?');
    expect(long.docId).toBe('doc-travel-policy');
    expect(long.answer.length).toBeGreaterThan(5000);
    const many = await ask(simulator, 'What can the helpdesk help me with?');
    expect(many.suggestions.length).toBeGreaterThanOrEqual(8);
  });

  it('answers a clicked docId (questionFlag 1) and treats an unknown docId as unknown', async () => {
    const simulator = await start();
    const clicked = await ask(simulator, 'Where can I find my payslip?', {
      questionFlag: 1,
      requestText: 'doc-payslip',
    });
    expect(clicked).toMatchObject({ answerType: 1, docId: 'doc-payslip' });
    const unknown = await ask(simulator, 'x', { questionFlag: 1, requestText: 'doc-nope' });
    expect(unknown.answerType).toBe(3);
  });

  it('never answers disabled or out-of-window entries', async () => {
    const simulator = await start();
    expect((await ask(simulator, 'How do I install the old Cisco VPN client?')).docId).not.toBe(
      'doc-old-vpn-client',
    );
    expect((await ask(simulator, 'How do I join the 2020 open enrollment?')).answerType).toBe(3);
    expect((await ask(simulator, '2099年春节放假安排')).answerType).toBe(3);
  });

  it('keeps uid per partner and cid per session, with a new session after 30 idle minutes', async () => {
    const simulator = await start();
    const first = await ask(simulator, 'hello');
    const second = await ask(simulator, 'How do I reset my password?');
    expect(second).toMatchObject({ uid: first.uid, cid: first.cid, sessionNew: false });
    expect(second.msgId).not.toBe(first.msgId);
    const bob = await ask(simulator, 'hello', {}, 'bob');
    expect(bob.uid).not.toBe(first.uid);
    expect(bob.sessionNew).toBe(true);
    nowMs += 31 * 60 * 1000;
    const later = await ask(simulator, 'hello');
    expect(later).toMatchObject({ uid: first.uid, sessionNew: true });
    expect(later.cid).not.toBe(first.cid);
  });

  it('echoes the requested robotFlag', async () => {
    const simulator = await start();
    expect((await ask(simulator, 'hello', { robotFlag: 7 })).robotFlag).toBe(7);
  });

  it.each([
    ['no sysNum', { partnerId: 'a', question: 'q' }],
    ['no partnerId', { sysNum: 's', question: 'q' }],
    ['no question', { sysNum: 's', partnerId: 'a' }],
    ['an empty question', { sysNum: 's', partnerId: 'a', question: '' }],
    ['questionFlag 1 without requestText', { sysNum: 's', partnerId: 'a', question: 'q', questionFlag: 1 }],
    ['questionFlag 2', { sysNum: 's', partnerId: 'a', question: 'q', questionFlag: 2 }],
    ['source 9', { sysNum: 's', partnerId: 'a', question: 'q', source: 9 }],
    ['a string robotFlag', { sysNum: 's', partnerId: 'a', question: 'q', robotFlag: '1' }],
  ])('refuses an ask with %s (code 1001)', async (_name, data) => {
    const simulator = await start();
    const json = await open(simulator, 'chat_user_robot_ask', data);
    expect(json.code).toBe('1001');
    expect(typeof json.msg).toBe('string');
  });

  it('refuses an unknown action and a data that is not an object', async () => {
    const simulator = await start();
    expect((await open(simulator, 'no_such_action', {})).code).toBe('1001');
    expect((await open(simulator, 'chat_user_robot_ask', 'sysNum=s')).code).toBe('1001');
  });
});

describe('update_robot_doc', () => {
  it('changes the next answer and answers retCode 000000 without retMsg', async () => {
    const simulator = await start();
    const json = await open(simulator, 'update_robot_doc', {
      docId: 'doc-password-reset',
      questionTitle: 'How can I change my password?',
      answerDesc: '<p>Use the new portal.</p>',
    });
    expect(json).toEqual({ code: '1000', data: { retCode: '000000' } });
    const answer = await ask(simulator, 'How can I change my password?');
    expect(answer).toMatchObject({
      answerType: 1,
      docId: 'doc-password-reset',
      answer: '<p>Use the new portal.</p>',
    });
  });

  it('disabling an entry stops the robot answering it; a validity window in the past too', async () => {
    const simulator = await start();
    await open(simulator, 'update_robot_doc', { docId: 'doc-wifi', usedFlag: 1 });
    expect((await ask(simulator, 'How do I connect to the office Wi-Fi?')).docId).not.toBe('doc-wifi');
    await open(simulator, 'update_robot_doc', {
      docId: 'doc-payslip',
      auditStatus: 2,
      effectTime: '2025-01-01 00:00:00',
      invalidTime: '2026-01-01 00:00:00',
    });
    expect((await ask(simulator, 'Where can I find my payslip?')).docId).not.toBe('doc-payslip');
    await open(simulator, 'update_robot_doc', { docId: 'doc-payslip', auditStatus: 1 });
    expect((await ask(simulator, 'Where can I find my payslip?')).docId).toBe('doc-payslip');
  });

  it('answers retCode 100001 for an unknown docId', async () => {
    const simulator = await start();
    expect(await open(simulator, 'update_robot_doc', { docId: 'doc-nope', usedFlag: 0 })).toEqual({
      code: '1000',
      data: { retCode: '100001', retMsg: 'doc not found' },
    });
  });

  it.each([
    ['no docId', { usedFlag: 0 }],
    ['matchFlag 3', { docId: 'doc-wifi', matchFlag: 3 }],
    ['usedFlag 2', { docId: 'doc-wifi', usedFlag: 2 }],
    ['auditStatus 0', { docId: 'doc-wifi', auditStatus: 0 }],
    ['robotFlag 2', { docId: 'doc-wifi', robotFlag: 2 }],
    ['an ISO effectTime', { docId: 'doc-wifi', effectTime: '2026-01-01T00:00:00Z' }],
    ['an impossible invalidTime', { docId: 'doc-wifi', invalidTime: '2026-02-30 00:00:00' }],
    ['auditStatus 2 without times', { docId: 'doc-wifi', auditStatus: 2 }],
    [
      'invalidTime before effectTime',
      {
        docId: 'doc-wifi',
        auditStatus: 2,
        effectTime: '2026-02-01 00:00:00',
        invalidTime: '2026-01-01 00:00:00',
      },
    ],
  ])('refuses an update with %s (code 1001)', async (_name, data) => {
    const simulator = await start();
    const json = await open(simulator, 'update_robot_doc', data);
    expect(json.code).toBe('1001');
    expect(typeof json.msg).toBe('string');
  });
});

describe('robot_feedback', () => {
  it('records feedback on a known message (status 1) and refuses an unknown one (status 0)', async () => {
    const simulator = await start();
    const answer = await ask(simulator, 'How do I reset my password?');
    const base = {
      uid: answer.uid,
      cid: answer.cid,
      docId: answer.docId,
      docName: answer.question,
      robotFlag: 1,
      status: 1,
      msgId: answer.msgId,
    };
    expect(await open(simulator, 'robot_feedback', base)).toEqual({ code: '1000', data: { status: 1 } });
    expect(await open(simulator, 'robot_feedback', { ...base, msgId: 'm-unknown' })).toEqual({
      code: '1000',
      data: { status: 0 },
    });
    expect((await open(simulator, 'robot_feedback', { ...base, cid: 'c-other' })).data).toEqual({
      status: 0,
    });
    expect(simulator.stats()).toMatchObject({ feedback: 1 });
  });

  it('accepts sysNum, partnerId and from instead of uid', async () => {
    const simulator = await start();
    const answer = await ask(simulator, 'How do I reset my password?');
    const json = await open(simulator, 'robot_feedback', {
      cid: answer.cid,
      docId: answer.docId,
      docName: answer.question,
      robotFlag: 1,
      status: 2,
      msgId: answer.msgId,
      sysNum: 'sys-1',
      partnerId: 'alice',
      from: 0,
    });
    expect(json).toEqual({ code: '1000', data: { status: 1 } });
  });

  it.each([
    ['no cid', { cid: undefined }],
    ['no docId', { docId: undefined }],
    ['no docName', { docName: undefined }],
    ['no robotFlag', { robotFlag: undefined }],
    ['no msgId', { msgId: undefined }],
    ['status 3', { status: 3 }],
    ['no uid and no from', { uid: undefined, sysNum: 's', partnerId: 'p' }],
    ['no uid and no sysNum', { uid: undefined, partnerId: 'p', from: 0 }],
    ['from 5', { uid: undefined, sysNum: 's', partnerId: 'p', from: 5 }],
  ])('refuses feedback with %s (code 1001)', async (_name, change) => {
    const simulator = await start();
    const data: Record<string, unknown> = {
      uid: 'u-1',
      cid: 'c-1',
      docId: 'doc-wifi',
      docName: 'Wi-Fi',
      robotFlag: 1,
      status: 1,
      msgId: 'm-1',
      ...change,
    };
    const json = await open(simulator, 'robot_feedback', JSON.parse(JSON.stringify(data)));
    expect(json.code).toBe('1001');
  });
});
