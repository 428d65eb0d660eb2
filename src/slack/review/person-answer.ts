// An operator's answer given to each asker, said to come from a named person so none takes it for the robot.
import type { types } from '@slack/bolt';
import { escapeMrkdwn, toPlainText } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import { mention } from '../answers/blocks.js';
import { context, type RenderedMessage, section } from '../kit/elements.js';
import { FALLBACK_TEXT_MAX, SECTION_TEXT_MAX, truncateMrkdwn } from '../kit/limits.js';
import { escapedLine } from '../kit/text.js';
import { t } from './messages.js';

const ANSWERED_QUESTION_MAX = 300;

export function renderPersonAnswer(input: {
  locale: Locale;
  operatorId: string;
  question: string;
  text: string;
}): RenderedMessage {
  const { locale } = input;
  const from = t(locale, 'person_answer_from', {
    operator: mention(input.operatorId),
    question: escapedLine(input.question, ANSWERED_QUESTION_MAX),
  });
  // The operator's words as typed, line by line, quoted: escaped, so they read as written.
  const quoted = input.text
    .trim()
    .split(/\r?\n/)
    .map((line) => `>${escapeMrkdwn(line)}`)
    .join('\n');
  const body = truncateMrkdwn(quoted, SECTION_TEXT_MAX);
  const blocks: types.KnownBlock[] = [context(from), section(body)];
  return { text: truncateMrkdwn(toPlainText(`${from}\n${body}`), FALLBACK_TEXT_MAX), blocks };
}
