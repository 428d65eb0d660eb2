// Pure Block Kit for the knowledge-base review loop: the review card, the asker's "what was wrong"
// modal, the operator's edit modal and its saved view, and the asker's "answer updated" notice.
// Views come back from Slack as untrusted data, so every reader checks with zod and never throws.
import type { types } from '@slack/bolt';
import { z } from 'zod';
import { answerToMrkdwn, escapeMrkdwn, toPlainText } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import { textHash } from '../../review/edit-plan.js';
import {
  DISLIKE_REASONS,
  type DislikeReason,
  type EditForm,
  type EditProblem,
  type ReasonNote,
  type ReviewCard,
} from '../../review/types.js';
import { parseJsonWith } from '../../util/json.js';
import { mention, type RenderedMessage } from '../answers/blocks.js';
import {
  cardIdSchema,
  docIdSchema,
  encodeReviewCardValue,
  encodeTryAgainValue,
} from '../kit/button-values.js';
import { button, context, mrkdwn, plainText, section } from '../kit/elements.js';
import {
  FALLBACK_TEXT_MAX,
  SECTION_TEXT_MAX,
  splitMrkdwn,
  truncateCharacters,
  truncateMrkdwn,
} from '../kit/limits.js';
import {
  ACTION_ASK_AGAIN,
  ACTION_REVIEW_DISMISS,
  ACTION_REVIEW_EDIT,
  VIEW_DISLIKE_REASON,
  VIEW_EDIT_ENTRY,
} from './ids.js';
import { type MessageKey, t } from './messages.js';

type ActionsBlock = types.ActionsBlock;
type Button = types.Button;
type InputBlock = types.InputBlock;
type KnownBlock = types.KnownBlock;
type ModalView = types.ModalView;
type PlainTextOption = types.PlainTextOption;

// Slack's limits on what these views use (Block Kit reference).
const MODAL_TITLE_MAX = 24;
const MODAL_BUTTON_MAX = 24;
const PRIVATE_METADATA_MAX = 3000;
const INPUT_LABEL_MAX = 2000;
const HINT_MAX = 2000;
const PLACEHOLDER_MAX = 150;
const OPTION_TEXT_MAX = 75;
const HEADER_TEXT_MAX = 150;
const FIELD_TEXT_MAX = 2000;
const CONFIRM_TITLE_MAX = 100;
const CONFIRM_TEXT_MAX = 300;
const CONFIRM_BUTTON_MAX = 30;
/** The most a plain_text_input holds: the editor's limit on the answer and on the question. */
const TEXT_INPUT_MAX = 3000;
const ANSWER_EDITOR_MAX = TEXT_INPUT_MAX;
/** The asker's own words on a 👎, as the core keeps them. */
const REASON_TEXT_MAX = 500;

// What a card shows: enough to judge the report, short enough to scan a channel of cards.
const CARD_QUESTION_MAX = 500;
const CARD_ANSWER_MAX = 700;
const CARD_TITLE_MAX = 500;
const CARD_REASONS_MAX = 3;
const DISPLAY_NAME_MAX = 100;
const NOTICE_QUESTION_MAX = 300;
const UNSUPPORTED_LISTED_MAX = 10;
const UNSUPPORTED_ITEM_MAX = 40;

const CARD_ACTIONS_BLOCK_ID = 'review_card';
const ASK_AGAIN_BLOCK_ID = 'ask_again';

// ---------------------------------------------------------------- review card

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

/** A review card: what was reported, the latest reasons, and its buttons while it is open. */
export function renderReviewCard(
  card: ReviewCard,
  options: { locale: Locale; showAsker: boolean },
): RenderedMessage {
  const { locale } = options;
  const headline = cardHeadline(card, locale);
  const blocks: KnownBlock[] = [{ type: 'header', text: plainText(headline, HEADER_TEXT_MAX) }];

  const question = escapedLine(card.question, CARD_QUESTION_MAX);
  if (question !== '') blocks.push(section(`*${t(locale, 'card_question')}*\n>${question}`));

  if (card.kind === 'disliked' && card.answerHtml !== undefined) {
    const answer = shortenMrkdwn(answerToMrkdwn(card.answerHtml), CARD_ANSWER_MAX);
    if (answer !== '') blocks.push(section(`*${t(locale, 'card_answer')}*\n${answer}`));
  }
  const fields = entryFields(card, locale);
  if (fields.length > 0) blocks.push({ type: 'section', fields });

  const latest = latestLine(card, options);
  if (latest !== undefined) blocks.push(context(latest));
  const reasons = reasonLines(card.reasons, locale);
  if (reasons !== undefined) blocks.push(section(`*${t(locale, 'card_reasons')}*\n${reasons}`));

  if (card.status === 'open') {
    const actions = cardActions(card, locale);
    if (actions !== undefined) blocks.push(actions);
  } else {
    blocks.push(context(handledLine(card, locale)));
  }

  const text = question === '' ? headline : t(locale, 'card_fallback', { headline, question });
  return { text: truncateMrkdwn(text, FALLBACK_TEXT_MAX), blocks };
}

function cardHeadline(card: ReviewCard, locale: Locale): string {
  const count = Math.max(1, Math.floor(card.count));
  return t(locale, card.kind === 'disliked' ? 'card_disliked' : 'card_unanswered', { count });
}

function entryFields(card: ReviewCard, locale: Locale): types.MrkdwnElement[] {
  const fields: types.MrkdwnElement[] = [];
  if (card.docId !== undefined || card.entryTitle !== undefined) {
    const title =
      card.entryTitle === undefined || card.entryTitle.trim() === ''
        ? t(locale, 'card_entry_untitled')
        : escapedLine(card.entryTitle, CARD_TITLE_MAX);
    const id = card.docId === undefined ? '' : `\n${code(card.docId)}`;
    fields.push(mrkdwn(truncateMrkdwn(`*${t(locale, 'card_entry')}*\n${title}${id}`, FIELD_TEXT_MAX)));
  }
  if (card.answerType !== undefined) {
    fields.push(mrkdwn(`*${t(locale, 'card_answer_type')}*\n${card.answerType}`));
  }
  return fields;
}

/** Who reported last and where; the name only when the workspace lets operators see askers. */
function latestLine(card: ReviewCard, options: { locale: Locale; showAsker: boolean }): string | undefined {
  const parts: string[] = [];
  if (options.showAsker && card.latestAsker) {
    const name = escapedLine(card.latestAsker.displayName, DISPLAY_NAME_MAX);
    if (name !== '') parts.push(name);
  }
  if (card.latestLink === 'direct_message') {
    parts.push(t(options.locale, 'card_in_dm'));
  } else if (card.latestLink !== undefined && isLinkable(card.latestLink)) {
    parts.push(`<${card.latestLink}|${t(options.locale, 'card_view_message')}>`);
  }
  return parts.length === 0 ? undefined : t(options.locale, 'card_latest', { details: parts.join(' · ') });
}

/** Only a plain http(s) URL goes inside <…|…>: a | or > would let it rewrite the label or the link. */
function isLinkable(url: string): boolean {
  return url.length <= 1000 && /^https?:\/\/[^\s<>|]+$/.test(url);
}

function reasonLines(reasons: ReasonNote[], locale: Locale): string | undefined {
  const lines = reasons.slice(0, CARD_REASONS_MAX).map((note) => {
    const word = t(locale, REASON_KEYS[note.reason]);
    const text = note.text === undefined ? '' : escapedLine(note.text, REASON_TEXT_MAX);
    return `• ${text === '' ? word : t(locale, 'card_reason_with_text', { reason: word, text })}`;
  });
  return lines.length === 0 ? undefined : lines.join('\n');
}

function cardActions(card: ReviewCard, locale: Locale): ActionsBlock | undefined {
  const elements: Button[] = [];
  const edit =
    card.docId === undefined ? undefined : encodeReviewCardValue({ cardId: card.id, docId: card.docId });
  if (edit !== undefined) {
    elements.push(button(t(locale, 'card_edit'), ACTION_REVIEW_EDIT, { value: edit, style: 'primary' }));
  }
  const dismiss = encodeReviewCardValue({ cardId: card.id });
  if (dismiss !== undefined) {
    elements.push(
      button(t(locale, 'card_dismiss'), ACTION_REVIEW_DISMISS, {
        value: dismiss,
        style: 'danger',
        confirm: {
          title: plainText(t(locale, 'card_dismiss_confirm_title'), CONFIRM_TITLE_MAX),
          text: plainText(t(locale, 'card_dismiss_confirm_text'), CONFIRM_TEXT_MAX),
          confirm: plainText(t(locale, 'card_dismiss'), CONFIRM_BUTTON_MAX),
          deny: plainText(t(locale, 'modal_cancel'), CONFIRM_BUTTON_MAX),
          style: 'danger',
        },
      }),
    );
  }
  return elements.length === 0 ? undefined : { type: 'actions', block_id: CARD_ACTIONS_BLOCK_ID, elements };
}

function handledLine(card: ReviewCard, locale: Locale): string {
  const user = card.handledBy === undefined ? t(locale, 'card_someone') : mention(card.handledBy);
  const date = slackDate(card.handledAt ?? card.updatedAt);
  if (card.status === 'dismissed') return tidy(t(locale, 'card_dismissed', { user, date }));
  const fields = fieldWords(card.changedFields, locale);
  return tidy(
    fields === ''
      ? t(locale, 'card_fixed_no_fields', { user, date })
      : t(locale, 'card_fixed', { user, date, fields }),
  );
}

/** Changed fields as words, each once; a name we do not know is shown as it is. */
function fieldWords(fields: string[], locale: Locale): string {
  const words = fields.map((field) => {
    const key = FIELD_KEYS.get(field);
    return key === undefined ? escapedLine(field, 40) : t(locale, key);
  });
  return [...new Set(words.filter((word) => word !== ''))].join(t(locale, 'list_separator'));
}

/**
 * Slack's date token: every reader sees the time in their own time zone. The fallback (ISO, UTC) is
 * for clients that cannot format it; an impossible time gives nothing rather than a broken token.
 */
function slackDate(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return '';
  const fallback = date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${fallback}>`;
}

// ---------------------------------------------------------------- the asker's reason modal

/** The reasons' block: the submission listener puts "choose a reason" errors on it. */
export const REASON_BLOCK_ID = 'dislike_reason';
const REASON_ACTION_ID = 'reason';
const REASON_TEXT_BLOCK_ID = 'dislike_reason_text';
const REASON_TEXT_ACTION_ID = 'text';

const reasonMetadataSchema = z.object({ v: z.literal(1), k: z.string().min(1).max(128) }).strict();

export function renderReasonModal(input: { contextKey: string; locale: Locale }): ModalView {
  const { locale } = input;
  const options: PlainTextOption[] = DISLIKE_REASONS.map((reason) => ({
    text: plainText(t(locale, REASON_KEYS[reason]), OPTION_TEXT_MAX),
    value: reason,
  }));
  return {
    type: 'modal',
    callback_id: VIEW_DISLIKE_REASON,
    title: plainText(t(locale, 'reason_title'), MODAL_TITLE_MAX),
    submit: plainText(t(locale, 'modal_send'), MODAL_BUTTON_MAX),
    close: plainText(t(locale, 'modal_cancel'), MODAL_BUTTON_MAX),
    private_metadata: JSON.stringify({ v: 1, k: input.contextKey }),
    blocks: [
      context(t(locale, 'reason_intro')),
      // Optional in Slack's eyes: words alone are a reason too, and the listener asks for one of the two.
      {
        type: 'input',
        block_id: REASON_BLOCK_ID,
        optional: true,
        label: plainText(t(locale, 'reason_label'), INPUT_LABEL_MAX),
        element: { type: 'radio_buttons', action_id: REASON_ACTION_ID, options },
      },
      {
        type: 'input',
        block_id: REASON_TEXT_BLOCK_ID,
        optional: true,
        label: plainText(t(locale, 'reason_text_label'), INPUT_LABEL_MAX),
        hint: plainText(t(locale, 'reason_text_hint'), HINT_MAX),
        element: {
          type: 'plain_text_input',
          action_id: REASON_TEXT_ACTION_ID,
          multiline: true,
          max_length: REASON_TEXT_MAX,
        },
      },
    ],
  };
}

/** The answer context key a reason modal was opened for; undefined for anything else. */
export function readReasonMetadata(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > PRIVATE_METADATA_MAX) return undefined;
  return parseJsonWith(raw, reasonMetadataSchema)?.k;
}

export function readReasonForm(view: unknown): {
  reason: DislikeReason | undefined;
  text: string | undefined;
} {
  const values = stateValues(view);
  const reason = selectedOption(values, REASON_BLOCK_ID, REASON_ACTION_ID);
  const text = textValue(values, REASON_TEXT_BLOCK_ID, REASON_TEXT_ACTION_ID)?.trim();
  return {
    reason: DISLIKE_REASONS.find((known) => known === reason),
    // Slack enforces max_length; a forged payload is cut rather than refused.
    text: text === undefined || text === '' ? undefined : truncateCharacters(text, REASON_TEXT_MAX),
  };
}

// ---------------------------------------------------------------- the operator's edit modal

export const EDIT_BLOCK_IDS: Record<
  | 'questionTitle'
  | 'answerDesc'
  | 'matchFlag'
  | 'usedFlag'
  | 'robotFlag'
  | 'validity'
  | 'effectDate'
  | 'effectClock'
  | 'invalidDate'
  | 'invalidClock',
  string
> = {
  questionTitle: 'edit_question_title',
  answerDesc: 'edit_answer',
  matchFlag: 'edit_match_flag',
  usedFlag: 'edit_used_flag',
  robotFlag: 'edit_robot_flag',
  validity: 'edit_validity',
  effectDate: 'edit_effect_date',
  effectClock: 'edit_effect_clock',
  invalidDate: 'edit_invalid_date',
  invalidClock: 'edit_invalid_clock',
};

/** Each input's one element has the action id of its block, so a reader needs only the block id. */
const ids = EDIT_BLOCK_IDS;

export interface EditModalInput {
  locale: Locale;
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
  banner?: { kind: 'saving' | 'failed'; text: string };
}

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const editMetadataSchema = z
  .object({
    v: z.literal(1),
    d: docIdSchema,
    c: cardIdSchema.optional(),
    t: sha256Hex.optional(),
    a: sha256Hex.optional(),
    /** Set on the "saving" view: its Save must not send the same change a second time. */
    s: z.literal(1).optional(),
  })
  .strict();

/** The edit modal's private_metadata: the entry, the card, and hashes of what was prefilled. */
export type EditMetadata = z.infer<typeof editMetadataSchema>;

const MATCH_OPTIONS = [
  { value: 'smart', flag: 0, key: 'edit_match_smart' },
  { value: 'exact', flag: 1, key: 'edit_match_exact' },
  { value: 'contains', flag: 2, key: 'edit_match_contains' },
] as const;
const STATE_OPTIONS = [
  { value: 'enabled', flag: 0, key: 'edit_state_enabled' },
  { value: 'disabled', flag: 1, key: 'edit_state_disabled' },
] as const;
const KNOWLEDGE_BASE_OPTIONS = [
  { value: 'public', flag: 0, key: 'edit_kb_public' },
  { value: 'robot', flag: 1, key: 'edit_kb_robot' },
] as const;
const VALIDITY_OPTIONS = [
  { value: 'permanent', flag: 'permanent', key: 'edit_validity_permanent' },
  { value: 'period', flag: 'period', key: 'edit_validity_period' },
] as const;

interface Choice<F> {
  readonly value: string;
  readonly flag: F;
  readonly key: MessageKey;
}

export function renderEditModal(input: EditModalInput): ModalView {
  const { locale, prefill, values } = input;
  const blocks: KnownBlock[] = [];
  if (input.banner) {
    const mark = input.banner.kind === 'saving' ? '⏳' : '⚠️';
    blocks.push(section(truncateMrkdwn(`${mark} ${escapeMrkdwn(input.banner.text)}`, SECTION_TEXT_MAX)));
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
      : tidy(t(locale, 'edit_prefill_seen', { date: slackDate(prefill.seenAt) })),
    t(locale, 'edit_unknown_settings'),
  ];
  blocks.push(context(truncateMrkdwn(notes.join('\n'), SECTION_TEXT_MAX)));
  const unsupported = unsupportedList(prefill.unsupportedMarkup, locale);
  if (unsupported !== undefined)
    blocks.push(context(`:warning: ${t(locale, 'edit_unsupported', { items: unsupported })}`));

  blocks.push(
    textInput(ids.questionTitle, t(locale, 'edit_question_label'), {
      initial: values ? values.questionTitle : title,
      max: TEXT_INPUT_MAX,
      // A one-line input would flatten a title with line breaks, and saving would change it unasked.
      multiline: title?.includes('\n') ?? false,
    }),
  );
  if (answerTooLong === undefined) {
    blocks.push(
      textInput(ids.answerDesc, t(locale, 'edit_answer_label'), {
        initial: values ? values.answerMarkup : markup,
        max: ANSWER_EDITOR_MAX,
        multiline: true,
      }),
    );
  } else {
    const note = t(locale, 'edit_answer_too_long', { length: answerTooLong, limit: ANSWER_EDITOR_MAX });
    blocks.push(section(`:warning: ${note}`));
  }

  const unchanged = t(locale, 'edit_unchanged');
  blocks.push(
    select(ids.matchFlag, t(locale, 'edit_match_label'), MATCH_OPTIONS, values?.matchFlag, locale, unchanged),
    select(ids.usedFlag, t(locale, 'edit_state_label'), STATE_OPTIONS, values?.usedFlag, locale, unchanged),
    select(
      ids.robotFlag,
      t(locale, 'edit_kb_label'),
      KNOWLEDGE_BASE_OPTIONS,
      values?.robotFlag ?? input.robotFlag,
      locale,
      undefined,
    ),
    select(
      ids.validity,
      t(locale, 'edit_validity_label'),
      VALIDITY_OPTIONS,
      values?.validity,
      locale,
      unchanged,
    ),
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

  return {
    type: 'modal',
    callback_id: VIEW_EDIT_ENTRY,
    title: plainText(t(locale, 'edit_title'), MODAL_TITLE_MAX),
    submit: plainText(t(locale, 'modal_save'), MODAL_BUTTON_MAX),
    close: plainText(t(locale, 'modal_cancel'), MODAL_BUTTON_MAX),
    private_metadata: encodeEditMetadata({
      docId: input.docId,
      cardId: input.cardId,
      // The planner compares these with what is submitted: only texts that were put in the form count.
      titleHash: title === undefined ? undefined : textHash(title),
      answerHash: markup === undefined || answerTooLong !== undefined ? undefined : textHash(markup),
      saving: input.banner?.kind === 'saving',
    }),
    blocks,
  };
}

/**
 * The edit modal's private_metadata, `{v:1, d, c?, t?, a?}`. A card id that would not fit beside
 * the docId is left out: saving still works, only the card is not marked fixed.
 */
export function encodeEditMetadata(input: {
  docId: string;
  cardId: string | undefined;
  titleHash: string | undefined;
  answerHash: string | undefined;
  saving?: boolean;
}): string {
  const hashes = {
    ...(input.titleHash === undefined ? {} : { t: input.titleHash }),
    ...(input.answerHash === undefined ? {} : { a: input.answerHash }),
    ...(input.saving ? { s: 1 as const } : {}),
  };
  const full = JSON.stringify({
    v: 1,
    d: input.docId,
    ...(input.cardId ? { c: input.cardId } : {}),
    ...hashes,
  });
  return full.length <= PRIVATE_METADATA_MAX ? full : JSON.stringify({ v: 1, d: input.docId, ...hashes });
}

export function readEditMetadata(raw: unknown): EditMetadata | undefined {
  if (typeof raw !== 'string' || raw.length > PRIVATE_METADATA_MAX) return undefined;
  return parseJsonWith(raw, editMetadataSchema);
}

/** The edit form as submitted; anything missing, blank or not one of ours is undefined. */
export function readEditForm(view: unknown): EditForm {
  const values = stateValues(view);
  const text = (blockId: string) => {
    const value = textValue(values, blockId, blockId);
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  const choice = <F>(blockId: string, choices: readonly Choice<F>[]): F | undefined => {
    const value = selectedOption(values, blockId, blockId);
    return choices.find((known) => known.value === value)?.flag;
  };
  return {
    questionTitle: text(ids.questionTitle),
    answerMarkup: text(ids.answerDesc),
    matchFlag: choice(ids.matchFlag, MATCH_OPTIONS),
    usedFlag: choice(ids.usedFlag, STATE_OPTIONS),
    robotFlag: choice(ids.robotFlag, KNOWLEDGE_BASE_OPTIONS),
    validity: choice(ids.validity, VALIDITY_OPTIONS),
    effectDate: pickerValue(values, ids.effectDate, 'selected_date'),
    effectClock: pickerValue(values, ids.effectClock, 'selected_time'),
    invalidDate: pickerValue(values, ids.invalidDate, 'selected_date'),
    invalidClock: pickerValue(values, ids.invalidClock, 'selected_time'),
  };
}

/** The view that replaces the edit modal once the platform accepted the change: no submit, one close. */
export function renderEditSaved(input: {
  locale: Locale;
  docId: string;
  changedFields: string[];
}): ModalView {
  const { locale } = input;
  const blocks: KnownBlock[] = [
    section(truncateMrkdwn(t(locale, 'edit_saved', { docId: code(input.docId) }), SECTION_TEXT_MAX)),
  ];
  const fields = fieldWords(input.changedFields, locale);
  if (fields !== '') blocks.push(section(t(locale, 'edit_saved_fields', { fields })));
  return {
    type: 'modal',
    title: plainText(t(locale, 'edit_saved_title'), MODAL_TITLE_MAX),
    close: plainText(t(locale, 'modal_done'), MODAL_BUTTON_MAX),
    blocks,
  };
}

/** The inline error text for a problem the edit planner found. */
export function problemText(locale: Locale, problem: EditProblem, limit: number = ANSWER_EDITOR_MAX): string {
  switch (problem) {
    case 'empty_question':
      return t(locale, 'problem_empty_question');
    case 'empty_answer':
      return t(locale, 'problem_empty_answer');
    case 'answer_too_long':
      return t(locale, 'problem_answer_too_long', { limit });
    case 'period_incomplete':
      return t(locale, 'problem_period_incomplete');
    case 'period_not_a_date':
      return t(locale, 'problem_period_not_a_date');
    case 'period_ends_before_start':
      return t(locale, 'problem_period_ends_before_start');
    case 'nothing_changed':
      return t(locale, 'problem_nothing_changed');
  }
}

// ---------------------------------------------------------------- the asker's notice

/**
 * Told to an asker in their thread once the entry behind their answer was fixed. "Ask again" carries
 * a Try again value, so the Try again listener can ask the question again.
 */
export function renderAnswerUpdatedNotice(input: { locale: Locale; question: string }): RenderedMessage {
  const text = t(input.locale, 'answer_updated', {
    question: escapedLine(input.question, NOTICE_QUESTION_MAX),
  });
  const blocks: KnownBlock[] = [section(text)];
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

// ---------------------------------------------------------------- view state

const stateSchema = z.object({
  state: z.object({ values: z.record(z.string(), z.record(z.string(), z.unknown())) }),
});
const textElementSchema = z.object({ value: z.string().nullish() });
const selectElementSchema = z.object({ selected_option: z.object({ value: z.string() }).nullish() });
const pickerElementSchema = z.object({
  selected_date: z.string().max(32).nullish(),
  selected_time: z.string().max(32).nullish(),
});

type StateValues = Record<string, Record<string, unknown>>;

function stateValues(view: unknown): StateValues {
  const parsed = stateSchema.safeParse(view);
  return parsed.success ? parsed.data.state.values : {};
}

function element(values: StateValues, blockId: string, actionId: string): unknown {
  return Object.hasOwn(values, blockId) ? values[blockId]?.[actionId] : undefined;
}

function textValue(values: StateValues, blockId: string, actionId: string): string | undefined {
  const parsed = textElementSchema.safeParse(element(values, blockId, actionId));
  return parsed.success ? (parsed.data.value ?? undefined) : undefined;
}

function selectedOption(values: StateValues, blockId: string, actionId: string): string | undefined {
  const parsed = selectElementSchema.safeParse(element(values, blockId, actionId));
  return parsed.success ? parsed.data.selected_option?.value : undefined;
}

function pickerValue(
  values: StateValues,
  blockId: string,
  field: 'selected_date' | 'selected_time',
): string | undefined {
  const parsed = pickerElementSchema.safeParse(element(values, blockId, blockId));
  const value = parsed.success ? parsed.data[field] : undefined;
  return value === null || value === undefined || value.trim() === '' ? undefined : value;
}

// ---------------------------------------------------------------- small builders

function textInput(
  blockId: string,
  label: string,
  options: { initial: string | undefined; max: number; multiline: boolean },
): InputBlock {
  const initial = fitting(options.initial, options.max);
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label, INPUT_LABEL_MAX),
    element: {
      type: 'plain_text_input',
      action_id: blockId,
      multiline: options.multiline,
      max_length: options.max,
      ...(initial === undefined ? {} : { initial_value: initial }),
    },
  };
}

function select<F>(
  blockId: string,
  label: string,
  choices: readonly Choice<F>[],
  known: F | undefined,
  locale: Locale,
  placeholder: string | undefined,
): InputBlock {
  const options: PlainTextOption[] = choices.map((choice) => ({
    text: plainText(t(locale, choice.key), OPTION_TEXT_MAX),
    value: choice.value,
  }));
  // Slack needs the initial option to be one of the options, as the same object.
  const initial = options[choices.findIndex((choice) => known !== undefined && choice.flag === known)];
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label, INPUT_LABEL_MAX),
    element: {
      type: 'static_select',
      action_id: blockId,
      options,
      ...(placeholder === undefined ? {} : { placeholder: plainText(placeholder, PLACEHOLDER_MAX) }),
      ...(initial === undefined ? {} : { initial_option: initial }),
    },
  };
}

function dateInput(blockId: string, label: string, initial: string | undefined, hint: string): InputBlock {
  // Slack refuses a view whose initial date is not yyyy-MM-dd.
  const date = initial !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(initial) ? initial : undefined;
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label, INPUT_LABEL_MAX),
    hint: plainText(hint, HINT_MAX),
    element: {
      type: 'datepicker',
      action_id: blockId,
      ...(date === undefined ? {} : { initial_date: date }),
    },
  };
}

function timeInput(blockId: string, label: string, initial: string | undefined): InputBlock {
  const time = initial !== undefined && /^([01]\d|2[0-3]):[0-5]\d$/.test(initial) ? initial : undefined;
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label, INPUT_LABEL_MAX),
    element: {
      type: 'timepicker',
      action_id: blockId,
      ...(time === undefined ? {} : { initial_time: time }),
    },
  };
}

function unsupportedList(items: string[], locale: Locale): string | undefined {
  const shown = [...new Set(items)]
    .map((item) => escapedLine(item, UNSUPPORTED_ITEM_MAX))
    .filter((item) => item !== '');
  if (shown.length === 0) return undefined;
  const listed = shown.slice(0, UNSUPPORTED_LISTED_MAX).join(t(locale, 'list_separator'));
  return shown.length > UNSUPPORTED_LISTED_MAX ? `${listed}…` : listed;
}

/** A text that fits an input whole, or undefined: an input's initial_value may not exceed its max_length. */
function fitting(text: string | undefined, max: number): string | undefined {
  return text === undefined || text === '' || text.length > max ? undefined : text;
}

/** Untrusted text on one line, escaped for mrkdwn, at most `max` units without cutting an entity. */
function escapedLine(text: string, max: number): string {
  return truncateMrkdwn(escapeMrkdwn(text.replace(/\s+/g, ' ').trim()), max);
}

/** Mrkdwn shortened at a clean break, its formatting closed, with '…' when anything was left out. */
function shortenMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  const [first = ''] = splitMrkdwn(text, max - 1);
  return `${first}…`;
}

/** An id in code formatting, escaped; one that would break out of the code span is shown plain. */
function code(id: string): string {
  const escaped = escapeMrkdwn(id);
  return /[`\n\r]/.test(id) ? escaped : `\`${escaped}\``;
}

/** Collapses the gap an empty placeholder (no date) leaves. */
function tidy(text: string): string {
  return text.replace(/ {2,}/g, ' ').trim();
}
