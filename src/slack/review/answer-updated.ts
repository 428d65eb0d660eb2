// Told to an asker once their answer's entry was fixed or their question linked, with "Ask again".
import type { types } from '@slack/bolt';
import { toPlainText } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import { encodeAskAgainValue } from '../kit/button-values.js';
import { button, type RenderedMessage, section } from '../kit/elements.js';
import { FALLBACK_TEXT_MAX, truncateMrkdwn } from '../kit/limits.js';
import { escapedLine } from '../kit/text.js';
import { ACTION_ASK_AGAIN } from './ids.js';
import { t } from './messages.js';

const NOTICE_QUESTION_MAX = 300;
const NOTICE_ENTRY_MAX = 300;
const ASK_AGAIN_BLOCK_ID = 'ask_again';

/** "Ask again" asks the question again as it was typed, of the robot that answered it. */
export function renderAnswerUpdatedNotice(input: {
  locale: Locale;
  question: string;
  robotFlag?: number | undefined;
}): RenderedMessage {
  const text = t(input.locale, 'answer_updated', {
    question: escapedLine(input.question, NOTICE_QUESTION_MAX),
  });
  const value = encodeAskAgainValue({ question: input.question, robotFlag: input.robotFlag });
  return withAskAgain(input.locale, text, value);
}

/** "Ask again" asks by the entry the question is linked to, of the robot it was linked for. */
export function renderAnswerLinkedNotice(input: {
  locale: Locale;
  question: string;
  entry: string;
  robotFlag: number | undefined;
}): RenderedMessage {
  const text = t(input.locale, 'answer_linked', {
    question: escapedLine(input.question, NOTICE_QUESTION_MAX),
    entry: escapedLine(input.entry, NOTICE_ENTRY_MAX),
  });
  const value = encodeAskAgainValue({ question: input.question, linked: { robotFlag: input.robotFlag } });
  return withAskAgain(input.locale, text, value);
}

function withAskAgain(locale: Locale, text: string, value: string | undefined): RenderedMessage {
  const blocks: types.KnownBlock[] = [section(text)];
  if (value !== undefined) {
    blocks.push({
      type: 'actions',
      block_id: ASK_AGAIN_BLOCK_ID,
      elements: [button(t(locale, 'ask_again'), ACTION_ASK_AGAIN, { value })],
    });
  }
  return { text: truncateMrkdwn(toPlainText(text), FALLBACK_TEXT_MAX), blocks };
}
