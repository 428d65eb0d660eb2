// The operator's edit modal, prefilled from the entry's snapshot; shown again with a banner after a failure.
import type { types } from '@slack/bolt';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import { textHash } from '../../review/edit-plan.js';
import type { EditForm, EditProblem } from '../../review/types.js';
import { context, section } from '../kit/elements.js';
import {
  dateInput,
  fitting,
  option,
  selectInput,
  TEXT_INPUT_MAX,
  textInput,
  timeInput,
} from '../kit/inputs.js';
import { SECTION_TEXT_MAX, truncateMrkdwn } from '../kit/limits.js';
import { modal } from '../kit/modal.js';
import { code, escapedLine, tidy } from '../kit/text.js';
import { sharedTime } from '../kit/times.js';
import {
  type Choice,
  EDIT_BLOCK_IDS,
  encodeEditMetadata,
  KNOWLEDGE_BASE_OPTIONS,
  MATCH_OPTIONS,
  STATE_OPTIONS,
  VALIDITY_OPTIONS,
} from './forms.js';
import { VIEW_EDIT_ENTRY } from './ids.js';
import { type MessageKey, t } from './messages.js';

type KnownBlock = types.KnownBlock;

/** The editor's limit on the answer: what one plain_text_input holds. */
const ANSWER_EDITOR_MAX = TEXT_INPUT_MAX;
const UNSUPPORTED_LISTED_MAX = 10;
const UNSUPPORTED_ITEM_MAX = 40;

const ids = EDIT_BLOCK_IDS;

export interface EditModalInput {
  locale: Locale;
  /** The operator's zone (Slack's `tz`), for when the form's texts were seen; undefined: UTC, said so. */
  timeZone: string | undefined;
  docId: string;
  /** The card the edit came from, so saving marks it fixed. */
  cardId: string | undefined;
  /** The entry's knowledge base when known: preselected. */
  robotFlag: 0 | 1 | undefined;
  /** What the gateway last saw of the entry; the platform has no call that reads one. */
  prefill: {
    questionTitle: string | undefined;
    answerMarkup: string | undefined;
    /** Set when the answer is too long for the editor: a note says so in place of the input. */
    answerLength: number | undefined;
    seenAt: number | undefined;
    unsupportedMarkup: string[];
  };
  /** What the operator typed, shown again (e.g. after the platform refused the change). */
  values?: EditForm;
  /** `failed`: the platform refused or failed; `linked`: the form follows a link to this entry. */
  banner?: { kind: 'failed' | 'linked'; text: string };
}

export function renderEditModal(input: EditModalInput): types.ModalView {
  const { locale, prefill, values } = input;
  const blocks: KnownBlock[] = [];
  if (input.banner) {
    const icon = input.banner.kind === 'failed' ? '⚠️' : '🔗';
    blocks.push(section(truncateMrkdwn(`${icon} ${escapeMrkdwn(input.banner.text)}`, SECTION_TEXT_MAX)));
  }

  // Texts are prefilled only when they fit whole: a cut copy, saved back, would lose the rest.
  const title = fitting(prefill.questionTitle?.trim(), TEXT_INPUT_MAX);
  const markup = fitting(prefill.answerMarkup?.trim(), ANSWER_EDITOR_MAX);
  const answerTooLong =
    prefill.answerLength ??
    (prefill.answerMarkup !== undefined && markup === undefined ? prefill.answerMarkup.length : undefined);

  const notes = [
    t(locale, 'edit_entry', { docId: code(input.docId) }),
    prefill.seenAt === undefined
      ? t(locale, 'edit_prefill_none')
      : tidy(t(locale, 'edit_prefill_seen', { date: sharedTime(prefill.seenAt, locale, input.timeZone) })),
    t(locale, 'edit_unknown_settings'),
  ];
  blocks.push(context(truncateMrkdwn(notes.join('\n'), SECTION_TEXT_MAX)));
  const unsupported = unsupportedList(prefill.unsupportedMarkup, locale);
  if (unsupported !== undefined)
    blocks.push(context(`:warning: ${t(locale, 'edit_unsupported', { items: unsupported })}`));

  blocks.push({
    ...textInput(ids.questionTitle, t(locale, 'edit_question_label'), {
      initial: values ? values.questionTitle : title,
      max: TEXT_INPUT_MAX,
      // A one-line input would flatten a title with line breaks, and saving would change it unasked.
      multiline: title?.includes('\n') ?? false,
    }),
    // Slack labels an optional input "(optional)": only a text nobody knew may stay empty.
    optional: title === undefined,
  });
  if (answerTooLong === undefined) {
    blocks.push({
      ...textInput(ids.answerDesc, t(locale, 'edit_answer_label'), {
        initial: values ? values.answerMarkup : markup,
        max: ANSWER_EDITOR_MAX,
        multiline: true,
      }),
      optional: markup === undefined,
    });
  } else {
    const note = t(locale, 'edit_answer_too_long', { length: answerTooLong, limit: ANSWER_EDITOR_MAX });
    blocks.push(section(`:warning: ${note}`));
  }

  const unchanged = t(locale, 'edit_unchanged');
  const knowledgeBase = values?.robotFlag ?? input.robotFlag;
  blocks.push(
    select(locale, ids.matchFlag, 'edit_match_label', MATCH_OPTIONS, values?.matchFlag, unchanged),
    select(locale, ids.usedFlag, 'edit_state_label', STATE_OPTIONS, values?.usedFlag, unchanged),
    select(locale, ids.robotFlag, 'edit_kb_label', KNOWLEDGE_BASE_OPTIONS, knowledgeBase, undefined),
    select(locale, ids.validity, 'edit_validity_label', VALIDITY_OPTIONS, values?.validity, unchanged),
    dateInput(
      ids.effectDate,
      t(locale, 'edit_effect_date'),
      values?.effectDate,
      t(locale, 'edit_effect_hint'),
    ),
    timeInput(ids.effectClock, t(locale, 'edit_effect_time'), values?.effectClock),
    dateInput(
      ids.invalidDate,
      t(locale, 'edit_invalid_date'),
      values?.invalidDate,
      t(locale, 'edit_invalid_hint'),
    ),
    timeInput(ids.invalidClock, t(locale, 'edit_invalid_time'), values?.invalidClock),
  );

  return modal({
    callbackId: VIEW_EDIT_ENTRY,
    title: t(locale, 'edit_title'),
    submit: t(locale, 'modal_save'),
    close: t(locale, 'modal_cancel'),
    privateMetadata: encodeEditMetadata({
      docId: input.docId,
      cardId: input.cardId,
      // The planner compares these with what is submitted: only texts that were put in the form count.
      titleHash: title === undefined ? undefined : textHash(title),
      answerHash: markup === undefined || answerTooLong !== undefined ? undefined : textHash(markup),
    }),
    blocks,
  });
}

/** What each problem says; a too long answer says the limit as well. */
const PROBLEM_KEYS = {
  empty_question: 'problem_empty_question',
  empty_answer: 'problem_empty_answer',
  period_incomplete: 'problem_period_incomplete',
  period_not_a_date: 'problem_period_not_a_date',
  period_ends_before_start: 'problem_period_ends_before_start',
  nothing_changed: 'problem_nothing_changed',
} as const satisfies Record<Exclude<EditProblem, 'answer_too_long'>, MessageKey>;

export function problemText(locale: Locale, problem: EditProblem, limit: number = ANSWER_EDITOR_MAX): string {
  if (problem === 'answer_too_long') return t(locale, 'problem_answer_too_long', { limit });
  return t(locale, PROBLEM_KEYS[problem]);
}

/** A select of the form's choices, the known one preselected. */
function select<F>(
  locale: Locale,
  blockId: string,
  label: MessageKey,
  choices: readonly Choice<F>[],
  known: F | undefined,
  placeholder: string | undefined,
): types.InputBlock {
  const options = choices.map((choice) => option(t(locale, choice.key), choice.value));
  // Slack needs the initial option to be one of the options, as the same object.
  const initial = options[choices.findIndex((choice) => known !== undefined && choice.flag === known)];
  return selectInput(blockId, t(locale, label), options, { initial, placeholder });
}

function unsupportedList(items: string[], locale: Locale): string | undefined {
  const shown = [...new Set(items)]
    .map((item) => escapedLine(item, UNSUPPORTED_ITEM_MAX))
    .filter((item) => item !== '');
  if (shown.length === 0) return undefined;
  const listed = shown.slice(0, UNSUPPORTED_LISTED_MAX).join(t(locale, 'list_separator'));
  return shown.length > UNSUPPORTED_LISTED_MAX ? `${listed}…` : listed;
}
