// The review room's forms as Slack sends them back: block ids, private_metadata, readers that never throw.
import { z } from 'zod';
import { DISLIKE_REASONS, type DislikeReason, type EditForm } from '../../review/types.js';
import { cardIdSchema, docIdSchema } from '../kit/button-values.js';
import { pickerValue, type StateValues, selectedOption, stateValues, textValue } from '../kit/inputs.js';
import { truncateCharacters } from '../kit/limits.js';
import { PRIVATE_METADATA_MAX, readPrivateMetadata } from '../kit/modal.js';
import type { MessageKey } from './messages.js';

// ---------------------------------------------------------------- the asker's reason modal

/** The reasons' block: the submission listener puts "choose a reason" errors on it. */
export const REASON_BLOCK_ID = 'dislike_reason';
export const REASON_ACTION_ID = 'reason';
export const REASON_TEXT_BLOCK_ID = 'dislike_reason_text';
export const REASON_TEXT_ACTION_ID = 'text';
/** The asker's own words on a 👎, as the core keeps them. */
export const REASON_TEXT_MAX = 500;

const slackId = z.string().regex(/^[A-Z0-9]{1,32}$/);
const slackTs = z.string().regex(/^\d{1,12}\.\d{1,8}$/);

const reasonMetadataSchema = z
  .object({
    v: z.literal(1),
    k: z.string().min(1).max(128),
    c: slackId.optional(),
    m: slackTs.optional(),
    // A private answer's rated line can be changed only through its click's response_url.
    u: z
      .string()
      .regex(/^https?:\/\//i)
      .max(1000)
      .optional(),
  })
  .strict();

/** The rated answer a reason is about: where a card links to, and whose button says the reason was sent. */
export interface RatedMessage {
  channel: string;
  ts: string;
}

export interface ReasonMetadata {
  contextKey: string;
  rated: RatedMessage | undefined;
  /** The response_url of the click on a private answer's rated line, which replaces that line. */
  responseUrl?: string | undefined;
}

/** The reason modal's private_metadata: the answer context key it was opened for, and the rated message. */
export function encodeReasonMetadata(contextKey: string, rated?: RatedMessage, responseUrl?: string): string {
  return JSON.stringify({
    v: 1,
    k: contextKey,
    ...(rated ? { c: rated.channel, m: rated.ts } : {}),
    ...(responseUrl ? { u: responseUrl } : {}),
  });
}

/** What a reason modal was opened for; undefined for anything else. */
export function readReasonMetadata(raw: unknown): ReasonMetadata | undefined {
  const metadata = readPrivateMetadata(raw, reasonMetadataSchema);
  if (!metadata) return undefined;
  const rated = metadata.c && metadata.m ? { channel: metadata.c, ts: metadata.m } : undefined;
  return { contextKey: metadata.k, rated, ...(metadata.u ? { responseUrl: metadata.u } : {}) };
}

export function readReasonForm(view: unknown): {
  reason: DislikeReason | undefined;
  text: string | undefined;
} {
  const values = stateValues(view);
  const reason = selectedOption(values, REASON_BLOCK_ID, REASON_ACTION_ID);
  return {
    reason: DISLIKE_REASONS.find((known) => known === reason),
    text: typedText(values, REASON_TEXT_BLOCK_ID, REASON_TEXT_ACTION_ID, REASON_TEXT_MAX),
  };
}

/** A text input's words, trimmed; undefined when blank. Slack enforces max_length: a forged one is cut. */
function typedText(values: StateValues, blockId: string, actionId: string, max: number): string | undefined {
  const text = textValue(values, blockId, actionId)?.trim();
  return text === undefined || text === '' ? undefined : truncateCharacters(text, max);
}

// ---------------------------------------------------------------- the operator's edit modal

/** Each input's one element has the action id of its block, so a reader needs only the block id. */
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
const ids = EDIT_BLOCK_IDS;

/** A select's option: the value Slack carries, the flag the core takes, the words shown. */
export interface Choice<F> {
  readonly value: string;
  readonly flag: F;
  readonly key: MessageKey;
}

export const MATCH_OPTIONS = [
  { value: 'smart', flag: 0, key: 'edit_match_smart' },
  { value: 'exact', flag: 1, key: 'edit_match_exact' },
  { value: 'contains', flag: 2, key: 'edit_match_contains' },
] as const;
export const STATE_OPTIONS = [
  { value: 'enabled', flag: 0, key: 'edit_state_enabled' },
  { value: 'disabled', flag: 1, key: 'edit_state_disabled' },
] as const;
export const KNOWLEDGE_BASE_OPTIONS = [
  { value: 'public', flag: 0, key: 'edit_kb_public' },
  { value: 'robot', flag: 1, key: 'edit_kb_robot' },
] as const;
export const VALIDITY_OPTIONS = [
  { value: 'permanent', flag: 'permanent', key: 'edit_validity_permanent' },
  { value: 'period', flag: 'period', key: 'edit_validity_period' },
] as const;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const editMetadataSchema = z
  .object({
    v: z.literal(1),
    d: docIdSchema,
    c: cardIdSchema.optional(),
    t: sha256Hex.optional(),
    a: sha256Hex.optional(),
  })
  .strict();

export type EditMetadata = z.infer<typeof editMetadataSchema>;

/** The edit modal's private_metadata, `{v:1, d, c?, t?, a?}`; a card id that does not fit is left out. */
export function encodeEditMetadata(input: {
  docId: string;
  cardId: string | undefined;
  titleHash: string | undefined;
  answerHash: string | undefined;
}): string {
  const hashes = {
    ...(input.titleHash === undefined ? {} : { t: input.titleHash }),
    ...(input.answerHash === undefined ? {} : { a: input.answerHash }),
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
  return readPrivateMetadata(raw, editMetadataSchema);
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

// ---------------------------------------------------------------- an unanswered card's two modals

export const ANSWER_TEXT_BLOCK_ID = 'review_answer_text';
export const LINK_DOC_BLOCK_ID = 'review_link_doc';
/** An operator's answer: what one section of the asker's message shows whole. */
export const OPERATOR_ANSWER_MAX = 2_900;

const cardModalMetadataSchema = z.object({ v: z.literal(1), c: cardIdSchema, ch: slackId }).strict();

/** The card a modal was opened from, and the channel it is in (where the operator is told how it went). */
export interface CardModalMetadata {
  cardId: string;
  channel: string;
}

export function encodeCardModalMetadata(input: CardModalMetadata): string {
  return JSON.stringify({ v: 1, c: input.cardId, ch: input.channel });
}

export function readCardModalMetadata(raw: unknown): CardModalMetadata | undefined {
  const metadata = readPrivateMetadata(raw, cardModalMetadataSchema);
  return metadata && { cardId: metadata.c, channel: metadata.ch };
}

export function readOperatorAnswer(view: unknown): string | undefined {
  return typedText(stateValues(view), ANSWER_TEXT_BLOCK_ID, ANSWER_TEXT_BLOCK_ID, OPERATOR_ANSWER_MAX);
}

/** The docId typed to link a question to; undefined when blank or not an id the platform could have made. */
export function readLinkedDocId(view: unknown): string | undefined {
  const text = textValue(stateValues(view), LINK_DOC_BLOCK_ID, LINK_DOC_BLOCK_ID)?.trim();
  const parsed = docIdSchema.safeParse(text);
  return parsed.success && !/\s/.test(parsed.data) ? parsed.data : undefined;
}
