// One answer's stored context as the stores' tests write and read it back, with what a test varies.
import type { AnswerContext } from '../../src/conversation/types.js';

export function answerContext(overrides: Partial<AnswerContext> = {}): AnswerContext {
  return {
    uid: undefined,
    cid: 'cid-1',
    msgId: 'msg-1',
    docId: 'doc-1',
    docName: 'How do I reset my password?',
    robotFlag: 1,
    placement: { robotFlag: 1, source: 3, language: 'zh-CN', reply: 'thread' },
    partnerId: 'T1:U1',
    askerUserId: 'U1',
    question: 'reset password',
    suggestions: [{ question: 'How do I change my email?', docId: 'doc-2' }],
    rateable: true,
    conversationId: 'C1',
    threadId: '1700000000.000100',
    createdAt: 1_700_000_000_000,
    ...overrides,
  };
}
