// How the review room names the core's values in its views: a dislike reason, changed entry fields, a robot.
import type { Locale } from '../../conversation/locale.js';
import type { DislikeReason } from '../../review/types.js';
import { escapedLine } from '../kit/text.js';
import { type MessageKey, t } from './messages.js';

const REASON_KEYS: Record<DislikeReason, MessageKey> = {
  wrong_answer: 'reason_wrong_answer',
  out_of_date: 'reason_out_of_date',
  not_understood: 'reason_not_understood',
  other: 'reason_other',
};

/** Spec field names as the card and the saved view say them; a period's two times are one "validity". */
const FIELD_KEYS: ReadonlyMap<string, MessageKey> = new Map([
  ['questionTitle', 'field_question_title'],
  ['answerDesc', 'field_answer'],
  ['matchFlag', 'field_match_mode'],
  ['usedFlag', 'field_state'],
  ['auditStatus', 'field_validity'],
  ['effectTime', 'field_validity'],
  ['invalidTime', 'field_validity'],
]);

export function reasonWord(locale: Locale, reason: DislikeReason): string {
  return t(locale, REASON_KEYS[reason]);
}

/** Changed fields as words, each once; a name we do not know is shown as it is. */
export function fieldWords(fields: string[], locale: Locale): string {
  const words = fields.map((field) => {
    const key = FIELD_KEYS.get(field);
    return key === undefined ? escapedLine(field, 40) : t(locale, key);
  });
  return [...new Set(words.filter((word) => word !== ''))].join(t(locale, 'list_separator'));
}

/** A robot as the messages' `robot` select reads it: `default` for the platform's default robot. */
export function robotWord(robotFlag: number | undefined): string {
  return robotFlag === undefined ? 'default' : String(robotFlag);
}
