// Every answer counted into its workspace's day beside it: asked, and unanswered when the robot matched nothing.
import { describe, expect, it } from 'vitest';
import type { AnsweredQuestion } from '../../../src/conversation/conversation.js';
import { createLogger } from '../../../src/logging/logger.js';
import { ANSWER_TYPE_UNKNOWN } from '../../../src/platform/schemas.js';
import { questionTally } from '../../../src/service-desk/question-tally.js';
import { memoryNamespaces } from '../../../src/stores/namespace.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';
import { logSink } from '../../support/log-sink.js';
import { waitFor } from '../../support/wait.js';

const answered = (answerType: number, workspace: string | undefined): AnsweredQuestion => ({
  asker: { userId: 'U1', displayName: 'Jane' },
  workspace,
  question: 'How do I reset my password?',
  conversationId: 'D1',
  threadId: undefined,
  docId: undefined,
  matchedQuestion: undefined,
  answerHtml: '',
  answerType,
  robotFlag: 1,
});

describe('the question tally', () => {
  it('counts each answer as asked, and one the robot matched nothing for as unanswered too', async () => {
    const { dailyQuestions } = declaredNamespaces(memoryNamespaces({ maxEntries: 100 }), 60);
    const tally = questionTally(dailyQuestions, 'UTC', createLogger({ level: 'silent' }));
    tally.answered(answered(1, 'T1'), {});
    tally.answered(answered(ANSWER_TYPE_UNKNOWN, 'T1'), {});
    // Installed nowhere known: nothing to count it under.
    tally.answered(answered(1, undefined), {});
    const today = new Date().toISOString().slice(0, 10);
    await waitFor(async () => (await dailyQuestions.read('T1', [today]))[0]?.asked === 2, {
      message: 'both answers counted',
    });
    expect(await dailyQuestions.read('T1', [today])).toEqual([{ asked: 2, unanswered: 1 }]);
  });

  it('logs a count the store refused, and throws nothing into the answer', async () => {
    const sink = logSink();
    const tally = questionTally(
      { add: () => Promise.reject(new Error('store down')) },
      'UTC',
      createLogger({ level: 'info', destination: sink.destination }),
    );
    expect(() => tally.answered(answered(1, 'T1'), { requestId: 'r1' })).not.toThrow();
    await waitFor(() => sink.records.some((line) => line.msg === 'question not counted for the statistics'), {
      message: 'the refusal logged',
    });
  });
});
