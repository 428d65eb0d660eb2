// Every answer counted into its workspace's day, beside it: asked, and unanswered when the robot matched nothing.
import type { AnswerObserver } from '../conversation/conversation.js';
import type { Logger } from '../logging/logger.js';
import { ANSWER_TYPE_UNKNOWN } from '../platform/schemas.js';
import { todayIn } from '../util/time-zone.js';
import type { DailyCountStore, QuestionField } from './daily-counts.js';

/** Never awaited by the answer: a count that fails is logged, and the answer goes on. */
export function questionTally(
  store: Pick<DailyCountStore<QuestionField>, 'add'>,
  timeZone: string,
  logger: Logger,
): AnswerObserver {
  return {
    answered(answered, scope) {
      const { workspace, answerType } = answered;
      if (workspace === undefined) return;
      const fields: QuestionField[] =
        answerType === ANSWER_TYPE_UNKNOWN ? ['asked', 'unanswered'] : ['asked'];
      store.add(workspace, todayIn(timeZone, new Date()), fields).catch((error: unknown) => {
        logger.warn({ ...scope, err: error, workspace }, 'question not counted for the statistics');
      });
    },
  };
}
