// What our buttons carry to Slack and back; values come back from the network, so decoding never throws.
import { z } from 'zod';
import { parseJsonWith } from '../../util/json.js';
import { fitsCharacters } from '../../util/truncate.js';
import { BUTTON_VALUE_MAX, truncate, truncateCharacters } from './limits.js';

const CONTEXT_KEY_MAX = 128;
const DOC_ID_MAX = 256;
/** Suggestions are short; a small cap keeps 25 buttons well inside the per-message size budget. */
export const SUGGESTION_QUESTION_MAX = 300;
/** The longest question a Try again value carries whole, so MAX_QUESTION_LENGTH may not exceed it. */
export const TRY_AGAIN_QUESTION_MAX = 1800;

/** Question caps count characters (code points), as MAX_QUESTION_LENGTH does, not UTF-16 units. */
const questionText = (max: number) =>
  z
    .string()
    .min(1)
    .refine((text) => fitsCharacters(text, max), `must be at most ${max} characters`);

// Compiled: every answer's buttons check their ids against these before encoding (docs/decisions/019).
const contextKey = z.compile(z.string().min(1).max(CONTEXT_KEY_MAX));
const docId = z.compile(z.string().min(1).max(DOC_ID_MAX));

const isContextKey = (key: string) => contextKey.safeParse(key).success;
const isDocId = (id: string) => docId.safeParse(id).success;
/** A review card's id as the core makes it: `doc:<docId>` or `q:<hex of the normalised question>`. */
const cardId = z
  .string()
  .max(DOC_ID_MAX + 4)
  .regex(/^(?:doc:[\s\S]+|q:[0-9a-f]{1,64})$/);

/** Modals' private_metadata carries the same ids as buttons, checked the same way. */
export const docIdSchema = docId;
export const cardIdSchema = cardId;

const suggestionValueSchema = z.object({
  v: z.literal(1),
  k: contextKey,
  d: docId,
  q: questionText(SUGGESTION_QUESTION_MAX),
});
const ratingValueSchema = z.object({
  v: z.literal(1),
  k: contextKey,
  r: z.union([z.literal(1), z.literal(2)]),
});
const tryAgainValueSchema = z.object({
  v: z.literal(1),
  q: questionText(TRY_AGAIN_QUESTION_MAX),
  d: docId.optional(),
  /** With `d`: the answer that offered that suggestion, so the retry is checked against it. */
  k: contextKey.optional(),
});

/** "Ask again" on a notice: the question, and if linked to an entry (`l`) the robot `r` it was linked for. */
const askAgainValueSchema = z.object({
  v: z.literal(1),
  q: questionText(TRY_AGAIN_QUESTION_MAX),
  l: z.literal(1).optional(),
  r: z.number().int().min(0).optional(),
});

/** A dislike's reason, or "Get a person": the answer it is about (for the latter, the question to bring). */
const answerValueSchema = z.object({ v: z.literal(1), k: contextKey });
/** A review card's buttons: the card, and the entry for Edit entry. */
const reviewCardValueSchema = z.object({ v: z.literal(1), c: cardId, d: docId.optional() });

export type SuggestionValue = z.infer<typeof suggestionValueSchema>;
export type RatingValue = z.infer<typeof ratingValueSchema>;
export type TryAgainValue = z.infer<typeof tryAgainValueSchema>;
export type AskAgainValue = z.infer<typeof askAgainValueSchema>;

/** The value of a suggestion button, or undefined when the key or docId cannot fit in one. */
export function encodeSuggestionValue(input: {
  contextKey: string;
  docId: string;
  question: string;
}): string | undefined {
  if (!isContextKey(input.contextKey) || !isDocId(input.docId)) return undefined;
  return encodeWithQuestion(input.question, SUGGESTION_QUESTION_MAX, (q) => ({
    v: 1,
    k: input.contextKey,
    d: input.docId,
    q,
  }));
}

export function encodeRatingValue(input: { contextKey: string; rating: 1 | 2 }): string | undefined {
  if (!isContextKey(input.contextKey) || (input.rating !== 1 && input.rating !== 2)) return undefined;
  return fitting({ v: 1, k: input.contextKey, r: input.rating });
}

/** The value of a Try again button, or undefined when there is no question to ask again. */
export function encodeTryAgainValue(input: {
  question: string;
  docId: string | undefined;
  contextKey?: string | undefined;
}): string | undefined {
  if (input.docId && !isDocId(input.docId)) return undefined;
  if (input.docId && input.contextKey && !isContextKey(input.contextKey)) return undefined;
  const clicked = input.docId ? { d: input.docId, ...(input.contextKey ? { k: input.contextKey } : {}) } : {};
  return encodeWithQuestion(input.question, TRY_AGAIN_QUESTION_MAX, (q) => ({ v: 1, q, ...clicked }));
}

/** An asker's Ask again value; `linked`: asked by the entry its question is linked to, for that robot. */
export function encodeAskAgainValue(input: {
  question: string;
  linked?: { robotFlag: number | undefined } | undefined;
  /** Not linked: the robot the answer came from, asked again wherever the button is clicked. */
  robotFlag?: number | undefined;
}): string | undefined {
  const robot = input.linked ? input.linked.robotFlag : input.robotFlag;
  const linked = input.linked ? { l: 1 } : {};
  const robotPart = robot === undefined ? {} : { r: robot };
  return encodeWithQuestion(input.question, TRY_AGAIN_QUESTION_MAX, (q) => ({
    v: 1,
    q,
    ...linked,
    ...robotPart,
  }));
}

/** An Ask again value; the notices sent before links carried a Try again value, which reads as one. */
export function decodeAskAgainValue(raw: unknown): AskAgainValue | undefined {
  return decode(raw, askAgainValueSchema);
}

export function decodeSuggestionValue(raw: unknown): SuggestionValue | undefined {
  return decode(raw, suggestionValueSchema);
}

export function decodeRatingValue(raw: unknown): RatingValue | undefined {
  return decode(raw, ratingValueSchema);
}

export function decodeTryAgainValue(raw: unknown): TryAgainValue | undefined {
  return decode(raw, tryAgainValueSchema);
}

/** The value of a button about one answer: a dislike's reason, or "Get a person". */
export function encodeAnswerValue(contextKey: string): string | undefined {
  return isContextKey(contextKey) ? fitting({ v: 1, k: contextKey }) : undefined;
}

/** The answer context key such a button carries; the caller checks the gateway issued it. */
export function decodeAnswerValue(raw: unknown): string | undefined {
  return decode(raw, answerValueSchema)?.k;
}

/** A review card's button value (Edit entry with the docId, Dismiss without); undefined when it cannot fit. */
export function encodeReviewCardValue(input: {
  cardId: string;
  docId?: string | undefined;
}): string | undefined {
  return encodeChecked(reviewCardValueSchema, {
    v: 1,
    c: input.cardId,
    ...(input.docId === undefined ? {} : { d: input.docId }),
  });
}

export function decodeReviewCardValue(
  raw: unknown,
): { cardId: string; docId: string | undefined } | undefined {
  const value = decode(raw, reviewCardValueSchema);
  return value && { cardId: value.c, docId: value.d };
}

/** JSON of a value the schema accepts and a button can hold; undefined otherwise. */
function encodeChecked<T>(schema: z.ZodType<T>, value: T): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? fitting(parsed.data) : undefined;
}

/** JSON of a value built to its schema's bounds, when a button can hold it. */
function fitting(value: unknown): string | undefined {
  const json = JSON.stringify(value);
  return json.length <= BUTTON_VALUE_MAX ? json : undefined;
}

/** `build`'s value with the question (collapsed, cut to `max` characters) shortened until it fits. */
function encodeWithQuestion(question: string, max: number, build: (q: string) => object): string | undefined {
  let q = truncateCharacters(question.replace(/\s+/g, ' ').trim(), max);
  // JSON escaping can lengthen a question (quotes, control characters): shorten until the value fits.
  for (let attempt = 0; attempt < 8 && q !== ''; attempt += 1) {
    const value = JSON.stringify(build(q));
    if (value.length <= BUTTON_VALUE_MAX) return value;
    q = truncate(q, Math.max(1, q.length - (value.length - BUTTON_VALUE_MAX) - 1));
  }
  return undefined;
}

function decode<T>(raw: unknown, schema: z.ZodType<T>): T | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > BUTTON_VALUE_MAX) return undefined;
  return parseJsonWith(raw, schema);
}

/** A ticket result's buttons carry the whole filter and the page, so any replica can redraw it. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const ticketQueryValueSchema = z.object({
  v: z.literal(1),
  f: day,
  t: day,
  z: z.string().min(1).max(64),
  s: z.array(z.number().int()).max(6),
  o: z.array(z.number().int()).max(17),
  c: z.string().min(1).max(36).optional(),
  p: z.number().int().min(1).max(100_000),
});

export interface TicketQueryValue {
  from: string;
  to: string;
  timeZone: string;
  statuses: number[];
  sources: number[];
  categoryId?: string | undefined;
  page: number;
}

export function encodeTicketQueryValue(query: TicketQueryValue): string | undefined {
  return encodeChecked(ticketQueryValueSchema, {
    v: 1,
    f: query.from,
    t: query.to,
    z: query.timeZone,
    s: query.statuses,
    o: query.sources,
    ...(query.categoryId ? { c: query.categoryId } : {}),
    p: query.page,
  });
}

/** The filter and page a ticket button carries; the caller checks the filter's values again. */
export function decodeTicketQueryValue(raw: unknown): TicketQueryValue | undefined {
  const value = decode(raw, ticketQueryValueSchema);
  return (
    value && {
      from: value.f,
      to: value.t,
      timeZone: value.z,
      statuses: value.s,
      sources: value.o,
      categoryId: value.c,
      page: value.p,
    }
  );
}
