// The edit form into the update the platform is sent (only what changed), or the problems to show inline.
import { createHash } from 'node:crypto';
import { fitsEditor, markupToHtml } from '../answer-html/editor-markdown.js';
import type { EditField, EditForm, EditProblem, EntryEdit } from './types.js';

/** What the form was opened with: hashes of the prefilled texts (the form cannot carry the texts). */
export interface EditPrefill {
  docId: string;
  /** sha256 hex of the prefilled standard question; undefined when it was not known. */
  titleHash: string | undefined;
  /** sha256 hex of the prefilled answer markup; undefined when not known or too long to edit. */
  answerHash: string | undefined;
  /** The knowledge base to send when the operator chose none. */
  robotFlag: 0 | 1;
}

export type EditPlan =
  | { kind: 'send'; edit: EntryEdit; changedFields: string[] }
  | { kind: 'invalid'; problems: Partial<Record<EditField, EditProblem>> };

/** Start of a period when no time was chosen, and its end: the whole of the last day counts. */
const DAY_START = '00:00:00';
const DAY_END = '23:59:59';

export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function planEdit(form: EditForm, prefill: EditPrefill): EditPlan {
  const problems: Partial<Record<EditField, EditProblem>> = {};
  const changes: Omit<EntryEdit, 'docId' | 'robotFlag'> = {};

  const title = form.questionTitle?.trim();
  if (title === undefined || title === '') {
    // Clearing a known question is a mistake; leaving an unknown one empty changes nothing.
    if (prefill.titleHash !== undefined) problems.questionTitle = 'empty_question';
  } else if (textHash(title) !== prefill.titleHash) {
    changes.questionTitle = title;
  }

  const markup = form.answerMarkup?.trim();
  if (markup === undefined || markup === '') {
    if (prefill.answerHash !== undefined) problems.answerDesc = 'empty_answer';
  } else if (!fitsEditor(markup)) {
    problems.answerDesc = 'answer_too_long';
  } else if (textHash(markup) !== prefill.answerHash) {
    const html = markupToHtml(markup);
    if (html.trim() === '') problems.answerDesc = 'empty_answer';
    else changes.answerDesc = html;
  }

  if (form.matchFlag !== undefined) changes.matchFlag = form.matchFlag;
  if (form.usedFlag !== undefined) changes.usedFlag = form.usedFlag;

  const anyDate = [form.effectDate, form.effectClock, form.invalidDate, form.invalidClock].some(
    (part) => part !== undefined,
  );
  const validity = form.validity ?? (anyDate ? 'period' : undefined);
  if (validity === 'permanent') changes.auditStatus = 1;
  if (validity === 'period') {
    const period = periodOf(form);
    if (period.kind === 'invalid') Object.assign(problems, period.problems);
    else Object.assign(changes, { auditStatus: 2, ...period.times });
  }

  if (Object.keys(problems).length > 0) return { kind: 'invalid', problems };
  const changedFields = Object.keys(changes);
  const robotFlag = form.robotFlag ?? prefill.robotFlag;
  // A chosen knowledge base alone is not a change: it says where the entry lives, not what it says.
  if (changedFields.length === 0) return { kind: 'invalid', problems: { form: 'nothing_changed' } };
  return { kind: 'send', edit: { docId: prefill.docId, robotFlag, ...changes }, changedFields };
}

function periodOf(
  form: EditForm,
):
  | { kind: 'ok'; times: { effectTime: string; invalidTime: string } }
  | { kind: 'invalid'; problems: Partial<Record<EditField, EditProblem>> } {
  const problems: Partial<Record<EditField, EditProblem>> = {};
  const effect = dateTime(form.effectDate, form.effectClock, DAY_START);
  const invalid = dateTime(form.invalidDate, form.invalidClock, DAY_END);
  if (effect === 'missing') problems.effectTime = 'period_incomplete';
  if (effect === 'invalid') problems.effectTime = 'period_not_a_date';
  if (invalid === 'missing') problems.invalidTime = 'period_incomplete';
  if (invalid === 'invalid') problems.invalidTime = 'period_not_a_date';
  if (effect === 'missing' || effect === 'invalid' || invalid === 'missing' || invalid === 'invalid') {
    return { kind: 'invalid', problems };
  }
  // The fixed-width format sorts as it reads, so text order is time order.
  if (invalid <= effect) return { kind: 'invalid', problems: { invalidTime: 'period_ends_before_start' } };
  return { kind: 'ok', times: { effectTime: effect, invalidTime: invalid } };
}

/** yyyy-MM-dd HH:mm:ss from a picker's date and time, checked to be a real calendar date. */
function dateTime(
  date: string | undefined,
  clock: string | undefined,
  defaultClock: string,
): string | 'missing' | 'invalid' {
  if (date === undefined) return 'missing';
  const dateMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!dateMatch) return 'invalid';
  const [year, month, day] = [Number(dateMatch[1]), Number(dateMatch[2]), Number(dateMatch[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day
  ) {
    return 'invalid';
  }
  if (clock === undefined) return `${date} ${defaultClock}`;
  const clockMatch = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(clock);
  if (!clockMatch) return 'invalid';
  return `${date} ${clock}:00`;
}
