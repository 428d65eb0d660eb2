// Told to an asker in their thread once the entry behind their answer was fixed, with "Ask again".
import type { types } from '@slack/bolt';
import { toPlainText } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import type { RenderedMessage } from '../answers/blocks.js';
import { encodeTryAgainValue } from '../kit/button-values.js';
import { button, section } from '../kit/elements.js';
import { FALLBACK_TEXT_MAX, truncateMrkdwn } from '../kit/limits.js';
import { escapedLine } from '../kit/text.js';
import { ACTION_ASK_AGAIN } from './ids.js';
import { t } from './messages.js';

const NOTICE_QUESTION_MAX = 300;
const ASK_AGAIN_BLOCK_ID = 'ask_again';

/** "Ask again" carries a Try again value, so the Try again listener can ask the question again. */
export function renderAnswerUpdatedNotice(input: { locale: Locale; question: string }): RenderedMessage {
  const text = t(input.locale, 'answer_updated', {
    question: escapedLine(input.question, NOTICE_QUESTION_MAX),
  });
  const blocks: types.KnownBlock[] = [section(text)];
  const value = encodeTryAgainValue({ question: input.question, docId: undefined });
  if (value !== undefined) {
    blocks.push({
      type: 'actions',
      block_id: ASK_AGAIN_BLOCK_ID,
      elements: [button(t(input.locale, 'ask_again'), ACTION_ASK_AGAIN, { value })],
    });
  }
  return { text: truncateMrkdwn(toPlainText(text), FALLBACK_TEXT_MAX), blocks };
}
