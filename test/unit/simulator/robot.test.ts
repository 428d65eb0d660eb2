import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { itDeskEntries } from '../../../src/simulator/it-desk.js';
import { seedEntries } from '../../../src/simulator/knowledge-base.js';

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
    expect(chinese).toMatchObject({ answerType: 2, docId: 'doc-zh-expense', stripe: '你可能还想问：' });
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
    expect((await ask(simulator, '今天天气怎么样')).stripe).toBe('你可能想问：');
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

  it.each([
    ['robotFlag', [0, 1]],
    ['matchFlag', [0, 1, 2]],
    ['usedFlag', [0, 1]],
    ['auditStatus', [1]],
  ] as const)('takes every %s the spec allows', async (field, values) => {
    const simulator = await start();
    for (const value of values) {
      const json = await open(simulator, 'update_robot_doc', { docId: 'doc-wifi', [field]: value });
      expect(json, `${field} ${value}`).toEqual({ code: '1000', data: { retCode: '000000' } });
    }
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

describe('robots by robotFlag', () => {
  it('answers robot 2 from the IT desk: the same question, another entry and answer', async () => {
    const simulator = await start();
    const helpdesk = await ask(simulator, 'How do I reset my password?', { robotFlag: 1 });
    const itDesk = await ask(simulator, 'How do I reset my password?', { robotFlag: 2 });
    expect(helpdesk).toMatchObject({ answerType: 1, docId: 'doc-password-reset', robotFlag: 1 });
    expect(itDesk).toMatchObject({ answerType: 1, docId: 'doc-it-password', robotFlag: 2 });
    expect(itDesk.answer).toContain('IT desk');
    expect(itDesk.answer).not.toBe(helpdesk.answer);
    expect(itDesk.suggestions.map((suggestion) => suggestion.docId)).toEqual([
      'doc-it-vpn',
      'doc-it-zh-password',
    ]);
  });

  it('matches robot 2’s questions in both languages, and suggests only its entries', async () => {
    const simulator = await start();
    expect(await ask(simulator, 'my vpn is not working', { robotFlag: 2 })).toMatchObject({
      answerType: 2,
      docId: 'doc-it-vpn',
    });
    expect(await ask(simulator, 'my print job is stuck', { robotFlag: 2 })).toMatchObject({
      docId: 'doc-it-printer',
    });
    const chinese = await ask(simulator, '公司VPN连不上', { robotFlag: 2 });
    expect(chinese).toMatchObject({ docId: 'doc-it-zh-vpn', stripe: '你可能还想问：' });
    for (const answer of [chinese, await ask(simulator, 'wifi keeps dropping', { robotFlag: 2 })])
      for (const suggestion of answer.suggestions) expect(suggestion.docId).toMatch(/^doc-it-/);
  });

  it('leaves robot 1, and a question naming no robot, answering as before', async () => {
    const simulator = await start();
    for (const extra of [{}, { robotFlag: 1 }]) {
      expect(await ask(simulator, 'my vpn is not working', extra)).toMatchObject({
        docId: 'doc-vpn-connect',
        robotFlag: 1,
      });
      expect((await ask(simulator, 'When is payday?', extra)).docId).toBe('doc-payroll-date');
    }
  });

  it('gives robot 2 its own no-match suggestions and greeting', async () => {
    const simulator = await start();
    const unknown = await ask(simulator, 'When is payday?', { robotFlag: 2 });
    expect(unknown).toMatchObject({ answerType: 3, docId: '', stripe: 'You may want to ask:' });
    expect(unknown.answer).toMatch(/^Sorry/);
    expect(unknown.suggestions.map((suggestion) => suggestion.docId)).toEqual([
      'doc-it-password',
      'doc-it-vpn',
      'doc-it-wifi',
      'doc-it-printer',
      'doc-it-software',
    ]);
    const greeting = await ask(simulator, 'hello', { robotFlag: 2 });
    expect(greeting).toMatchObject({ answerType: 4, docId: '' });
    expect(greeting.answer).toContain('IT desk robot');
    expect((await ask(simulator, '你好', { robotFlag: 2 })).answer).toContain('IT服务台');
    expect((await ask(simulator, 'hello')).answer).toContain('employee helpdesk robot');
  });

  it('answers a click from the asked robot’s entries only', async () => {
    const simulator = await start();
    const click = (robotFlag: number, docId: string) =>
      ask(simulator, 'clicked', { robotFlag, questionFlag: 1, requestText: docId });
    expect(await click(2, 'doc-it-wifi')).toMatchObject({ answerType: 1, docId: 'doc-it-wifi' });
    expect(await click(2, 'doc-wifi')).toMatchObject({ answerType: 3, docId: '' });
    expect(await click(1, 'doc-it-wifi')).toMatchObject({ answerType: 3, docId: '' });
  });

  it.each([0, 7])(
    'answers robot %i, which has no knowledge base, as a question nothing matched',
    async (robotFlag) => {
      const simulator = await start();
      for (const extra of [{}, { questionFlag: 1, requestText: 'doc-wifi' }]) {
        for (const question of ['How do I reset my password?', 'hello', '忘记密码怎么办？']) {
          const answer = await ask(simulator, question, { robotFlag, ...extra });
          expect(answer).toMatchObject({
            answerType: 3,
            docId: '',
            question,
            robotFlag,
            suggestions: [],
            stripe: '',
          });
          expect(answer.answer).toMatch(/^(Sorry|抱歉)/);
          expect(answer.msgId).toMatch(/^m-/);
        }
      }
    },
  );

  it('takes feedback on robot 2’s answers', async () => {
    const simulator = await start();
    const answer = await ask(simulator, 'How do I reset my password?', { robotFlag: 2 });
    const json = await open(simulator, 'robot_feedback', {
      uid: answer.uid,
      cid: answer.cid,
      docId: answer.docId,
      docName: answer.question,
      robotFlag: 2,
      status: 2,
      msgId: answer.msgId,
    });
    expect(json).toEqual({ code: '1000', data: { status: 1 } });
  });
});

describe('update_robot_doc across robots', () => {
  it('edits a robot 2 entry in robot 2’s knowledge base only', async () => {
    const simulator = await start();
    const json = await open(simulator, 'update_robot_doc', {
      docId: 'doc-it-password',
      robotFlag: 1,
      answerDesc: '<p>Call the IT desk on 4357.</p>',
    });
    expect(json).toEqual({ code: '1000', data: { retCode: '000000' } });
    expect(await ask(simulator, 'How do I reset my password?', { robotFlag: 2 })).toMatchObject({
      docId: 'doc-it-password',
      answer: '<p>Call the IT desk on 4357.</p>',
    });
    const helpdesk = await ask(simulator, 'How do I reset my password?', { robotFlag: 1 });
    expect(helpdesk.docId).toBe('doc-password-reset');
    expect(helpdesk.answer).not.toContain('4357');
  });

  it('edits a robot 1 entry without touching robot 2’s answer to the same question', async () => {
    const simulator = await start();
    await open(simulator, 'update_robot_doc', { docId: 'doc-password-reset', answerDesc: '<p>Edited.</p>' });
    expect((await ask(simulator, 'How do I reset my password?')).answer).toBe('<p>Edited.</p>');
    expect((await ask(simulator, 'How do I reset my password?', { robotFlag: 2 })).answer).not.toBe(
      '<p>Edited.</p>',
    );
  });

  it('disables a robot 2 entry for robot 2: its question goes unmatched there', async () => {
    const simulator = await start();
    await open(simulator, 'update_robot_doc', { docId: 'doc-it-laptop', usedFlag: 1 });
    expect((await ask(simulator, 'My laptop is slow or broken', { robotFlag: 2 })).docId).not.toBe(
      'doc-it-laptop',
    );
    await open(simulator, 'update_robot_doc', { docId: 'doc-it-laptop', usedFlag: 0 });
    expect((await ask(simulator, 'My laptop is slow or broken', { robotFlag: 2 })).docId).toBe(
      'doc-it-laptop',
    );
  });

  it('counts every robot’s entries in stats', async () => {
    const simulator = await start();
    expect(simulator.stats().knowledgeEntries).toBe(seedEntries().length + itDeskEntries().length);
  });
});
