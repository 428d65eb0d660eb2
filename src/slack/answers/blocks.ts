// Pure Block Kit rendering: a platform-neutral Reply becomes one or more Slack messages.
import type { types } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { replaceEmoticons } from '../../answer-html/emoticons.js';
import { answerToMrkdwn, convertAnswer, escapeMrkdwn, toPlainText } from '../../answer-html/mrkdwn.js';
import { type Locale, localeOfText } from '../../conversation/locale.js';
import type {
  AnswerReply,
  FailureReason,
  FailureReply,
  NoticeReply,
  Rating,
  Reply,
  SuggestionChoice,
} from '../../conversation/types.js';
import { BLOCK_KIT } from '../kit/block-kit-limits.js';
import {
  encodeAnswerValue,
  encodeRatingValue,
  encodeSuggestionValue,
  encodeTryAgainValue,
} from '../kit/button-values.js';
import { button, context, plainText, type RenderedMessage, section } from '../kit/elements.js';
import { failureText } from '../kit/failure-wording.js';
import {
  ACTIONS_ELEMENTS_MAX,
  BLOCKS_PER_MESSAGE_MAX,
  BUTTON_TEXT_MAX,
  FALLBACK_TEXT_MAX,
  SECTION_TEXT_MAX,
  SERIALIZED_BLOCKS_BUDGET,
  splitMrkdwn,
  truncate,
  truncateMrkdwn,
} from '../kit/limits.js';
import { ACTION_DISLIKE_REASON } from '../review/ids.js';
import {
  ACTION_ESCALATE,
  ACTION_RATE_DOWN,
  ACTION_RATE_FEEDBACK,
  ACTION_RATE_UP,
  ACTION_TRY_AGAIN,
  suggestionActionId,
} from './ids.js';
import { t } from './messages.js';

export interface RenderOptions {
  /** Images as image blocks (default), or as links: a second try after Slack could not fetch one. */
  images?: 'blocks' | 'links';
  /** True where the place names people to call (escalation.ts): the answer offers "Get a person". */
  escalate?: boolean;
  /** Slack's own feedback_buttons (native), or 👍/👎 buttons (classic, the default here). */
  rating?: RatingButtons;
}

export type RatingButtons = 'native' | 'classic';

export const RATING_BLOCK_ID = 'rating';
/** The "Get a person" button's block, replaced by who called once someone has (escalate-click.ts). */
export const ESCALATE_BLOCK_ID = 'escalate';
const TRY_AGAIN_BLOCK_ID = 'try_again';
const ENTRY_BLOCK_PREFIX = 'entry:';
const BLOCK_ID_MAX = BLOCK_KIT.id;
const FEEDBACK_BUTTON_TEXT_MAX = BLOCK_KIT.feedbackButton.text;
const FEEDBACK_LABEL_MAX = BLOCK_KIT.feedbackButton.accessibilityLabel;

/** The block id marking an answer with its entry, for the "Edit answer" shortcut; undefined if too long. */
export function entryBlockId(docId: string): string | undefined {
  const id = `${ENTRY_BLOCK_PREFIX}${docId}`;
  return docId !== '' && id.length <= BLOCK_ID_MAX ? id : undefined;
}

const withBlockIdSchema = z.object({ block_id: z.string() });
const blockIdsSchema = z.array(z.unknown()).transform((blocks) =>
  blocks.flatMap((block) => {
    const parsed = withBlockIdSchema.safeParse(block);
    return parsed.success ? [parsed.data.block_id] : [];
  }),
);

/** The docId an answer's message carries (see entryBlockId), read from untrusted blocks; never throws. */
export function docIdOfAnswerBlocks(blocks: unknown): string | undefined {
  const ids = blockIdsSchema.safeParse(blocks);
  if (!ids.success) return undefined;
  for (const id of ids.data) {
    if (!id.startsWith(ENTRY_BLOCK_PREFIX) || id.length > BLOCK_ID_MAX) continue;
    const docId = id.slice(ENTRY_BLOCK_PREFIX.length);
    if (docId !== '') return docId;
  }
  return undefined;
}

/** Suggestions are split over several actions blocks before one block could crowd out a message. */
const ACTIONS_BLOCK_BUDGET = Math.floor(SERIALIZED_BLOCKS_BUDGET / 2);
const ASKED_QUESTION_MAX = 500;
const DISPLAY_NAME_MAX = 100;

/** Renders a reply; long answers become several messages, with every button on the last one. */
export function renderReply(reply: Reply, options: RenderOptions = {}): RenderedMessage[] {
  switch (reply.kind) {
    case 'answer':
      return renderAnswer(reply, options);
    case 'failure':
      return [renderFailure(reply)];
    case 'notice':
      return [renderNotice(reply)];
    case 'pass':
      return [];
  }
}

export function renderThinking(locale: Locale): RenderedMessage {
  const text = t(locale, 'thinking');
  return { text, blocks: [context(`:hourglass_flowing_sand: ${text}`)] };
}

/** Who rated the answer and how, in words (the rated line's text, and its notification). */
export function ratedText(locale: Locale, userId: string, rating: Rating): string {
  const user = mention(userId);
  return rating === 1 ? t(locale, 'rated_up', { user }) : t(locale, 'rated_down', { user });
}

/** The line in place of the rating buttons; after a 👎 with a context key, a button to say what was wrong. */
export function renderRatedLine(
  locale: Locale,
  userId: string,
  rating: Rating,
  options: { reasonContextKey?: string } = {},
): types.ContextBlock | types.SectionBlock {
  const text = ratedText(locale, userId, rating);
  const value =
    rating === 2 && options.reasonContextKey !== undefined
      ? encodeAnswerValue(options.reasonContextKey)
      : undefined;
  if (value === undefined) return { ...context(text), block_id: RATING_BLOCK_ID };
  return {
    ...section(text),
    block_id: RATING_BLOCK_ID,
    accessory: button(t(locale, 'reason_button'), ACTION_DISLIKE_REASON, { value }),
  };
}

/** Untrusted blocks with `blockId` replaced (appended when missing); unrecognisable blocks dropped. */
export function replaceBlock(
  blocks: unknown,
  blockId: string,
  replacement: types.KnownBlock,
): types.KnownBlock[] {
  const result: types.KnownBlock[] = [];
  let replaced = false;
  for (const block of Array.isArray(blocks) ? blocks : []) {
    if (!isBlockLike(block)) continue;
    if (block.block_id === blockId) {
      if (!replaced) result.push(replacement);
      replaced = true;
      continue;
    }
    result.push(block);
  }
  if (!replaced) result.push(replacement);
  return result;
}

/** A block of Slack's own making, passed back unchanged: we only check enough to find ours. */
function isBlockLike(value: unknown): value is types.KnownBlock {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const type: unknown = Reflect.get(value, 'type');
  const blockId: unknown = Reflect.get(value, 'block_id');
  return typeof type === 'string' && type !== '' && (blockId === undefined || typeof blockId === 'string');
}

/** A part of a message that must not be split across messages, and its share of the fallback text. */
interface Unit {
  readonly blocks: readonly types.KnownBlock[];
  readonly plain: string;
  /** Fallback for a message that carries no answer text (only buttons, only an image). */
  readonly note?: string;
}

interface AnswerBody {
  readonly units: readonly Unit[];
  /** False when nothing would be seen (tags, spaces, invisible characters): told as empty. */
  readonly visible: boolean;
}

/** Converted bodies by their HTML: few entries answer most questions, and a parse costs most. Shared. */
const answerBodies = new LRUCache<string, AnswerBody>({
  max: 1_000,
  maxSize: 8_000_000,
  sizeCalculation: (_body, key) => Math.max(1, key.length),
});

/** The lead-in above the suggestions, in mrkdwn and as plain text: as repetitive as the answers. */
const stripes = new LRUCache<string, { mrkdwn: string; plain: string }>({
  max: 1_000,
  maxSize: 1_000_000,
  sizeCalculation: (_v, key) => Math.max(1, key.length),
});

function stripeOf(html: string, locale: Locale): { mrkdwn: string; plain: string } {
  let stripe = stripes.get(html);
  if (stripe === undefined) {
    const mrkdwn = truncateMrkdwn(answerToMrkdwn(html), SECTION_TEXT_MAX);
    stripe = { mrkdwn, plain: toPlainText(mrkdwn) };
    stripes.set(html, stripe);
  }
  if (stripe.mrkdwn !== '' && localeOfText(stripe.plain) === locale) return stripe;
  const header = t(locale, 'suggestions_header');
  return { mrkdwn: header, plain: toPlainText(header) };
}

/** Where the robot offers suggestions in both languages, those in the reader's; else all of them. */
function inReadersLanguage(suggestions: SuggestionChoice[], locale: Locale): SuggestionChoice[] {
  const readers = suggestions.filter((suggestion) => localeOfText(suggestion.question) === locale);
  return readers.length > 0 ? readers : suggestions;
}

/** Serialized length of a unit's blocks; kept for the units of cached answer bodies, which recur. */
const unitLengths = new WeakMap<Unit, number>();
/** Serialized length of a block whose maker counted it as it built it (the suggestions' buttons). */
const blockLengths = new WeakMap<types.KnownBlock, number>();

function unitLength(unit: Unit): number {
  let length = unitLengths.get(unit);
  if (length === undefined) {
    length = unit.blocks.reduce(
      (sum, block) => sum + (blockLengths.get(block) ?? serializedLength(block)),
      0,
    );
    unitLengths.set(unit, length);
  }
  return length;
}

function answerBody(html: string, images: 'segments' | 'links'): AnswerBody {
  const key = `${images}\u0000${html}`;
  const cached = answerBodies.get(key);
  if (cached) return cached;
  const units: Unit[] = [];
  for (const segment of convertAnswer(html, { images })) {
    if (segment.kind === 'image') {
      const image: types.ImageBlock = { type: 'image', image_url: segment.url, alt_text: segment.alt };
      units.push({ blocks: [image], plain: '', note: segment.alt });
      continue;
    }
    for (const chunk of splitMrkdwn(segment.mrkdwn, SECTION_TEXT_MAX)) {
      units.push({ blocks: [section(chunk)], plain: toPlainText(chunk) });
    }
  }
  // The converter keeps only segments with something visible in them.
  const body: AnswerBody = { units, visible: units.length > 0 };
  answerBodies.set(key, body);
  return body;
}

function renderAnswer(reply: AnswerReply, options: RenderOptions): RenderedMessage[] {
  const { locale } = reply;
  const units: Unit[] = [];
  if (reply.clickedBy) {
    const asked = replaceEmoticons(reply.clickedBy.question.replace(/\s+/g, ' ').trim());
    const question = truncate(asked, ASKED_QUESTION_MAX);
    const line = t(locale, 'asked', {
      name: escapeMrkdwn(truncate(reply.clickedBy.displayName, DISPLAY_NAME_MAX)),
      question: escapeMrkdwn(question),
    });
    units.push({ blocks: [context(line)], plain: line });
  }
  if (reply.demo) units.push({ blocks: [context(`:test_tube: ${t(locale, 'demo_marker')}`)], plain: '' });
  // An answer the robot did not have says so first, with the way to a person as its most prominent button.
  const escalation = options.escalate ? escalateActions(locale, reply.contextKey, !reply.matched) : undefined;
  if (escalation && !reply.matched) {
    const line = t(locale, 'no_answer');
    units.push({ blocks: [section(line), escalation], plain: line });
  }

  const body = answerBody(reply.answerHtml, options.images === 'links' ? 'links' : 'segments');
  // Our no-answer line has said it, in the reader's language: the robot's own apology would be a second.
  const saidNoAnswer = escalation !== undefined && !reply.matched;
  if (!saidNoAnswer) units.push(...body.units);
  // Said even above suggestions: a lead-in like "You may also want to ask:" under nothing reads as a glitch.
  if (!body.visible && !saidNoAnswer) {
    const empty = t(locale, 'empty_answer');
    units.push({ blocks: [section(empty)], plain: empty });
  }

  const suggestionBlocks = suggestionActions(reply.contextKey, inReadersLanguage(reply.suggestions, locale));
  const [firstActions, ...moreActions] = suggestionBlocks;
  if (firstActions) {
    const { mrkdwn: stripe, plain: note } = stripeOf(reply.stripe ?? '', locale);
    // The lead-in stays with the first buttons it introduces.
    units.push({ blocks: [section(stripe), firstActions], plain: '', note });
    for (const actions of moreActions) units.push({ blocks: [actions], plain: '', note });
  }
  // Only the renderer knows whether the HTML shows anything; the core judges the rest (answer type, msgId).
  const ratings =
    reply.rateable && body.visible ? ratingActions(locale, reply.contextKey, options.rating) : undefined;
  if (ratings) units.push({ blocks: [ratings], plain: '', note: t(locale, 'rate_up') });
  if (escalation && reply.matched) {
    units.push({ blocks: [escalation], plain: '', note: t(locale, 'escalate_button') });
  }

  const entryId = reply.docId === undefined ? undefined : entryBlockId(reply.docId);
  return pack(units).map((message, index) => {
    const blocks = message.flatMap((unit) => unit.blocks);
    return {
      text: fallbackText(message, index === 0 ? '' : `${t(locale, 'continued')} `),
      blocks: entryId === undefined ? blocks : markEntry(blocks, entryId),
    };
  });
}

/** The entry's id on each part's first block without one, so the shortcut works on any part; copied. */
function markEntry(blocks: types.KnownBlock[], entryId: string): types.KnownBlock[] {
  const index = blocks.findIndex((block) => block.block_id === undefined);
  const first = blocks[index];
  if (first === undefined) return blocks;
  const marked = [...blocks];
  marked[index] = { ...first, block_id: entryId };
  return marked;
}

function suggestionActions(contextKey: string, suggestions: SuggestionChoice[]): types.ActionsBlock[] {
  const buttons: types.Button[] = [];
  for (const suggestion of suggestions) {
    // Only the label shows emoji; the value carries the question as the robot wrote it, to ask it back.
    const shown = replaceEmoticons(suggestion.question.replace(/\s+/g, ' ').trim());
    const label = truncate(shown, BUTTON_TEXT_MAX);
    const value = encodeSuggestionValue({
      contextKey,
      docId: suggestion.docId,
      question: suggestion.question,
    });
    // A suggestion that cannot round-trip (blank, oversized ids) would be a button that does nothing.
    if (label === '' || value === undefined) continue;
    buttons.push(button(label, suggestionActionId(buttons.length), { value }));
  }
  const blocks: types.ActionsBlock[] = [];
  let current: types.Button[] = [];
  let currentLength = 0;
  const flush = () => {
    if (current.length > 0) {
      const block: types.ActionsBlock = {
        type: 'actions',
        block_id: `suggestions:${blocks.length}`,
        elements: [],
      };
      // The block's JSON is its JSON with no elements, plus theirs and a comma between each two.
      blockLengths.set(block, serializedLength(block) + currentLength + current.length - 1);
      block.elements = current;
      blocks.push(block);
    }
    current = [];
    currentLength = 0;
  };
  for (const button of buttons) {
    const buttonLength = serializedLength(button);
    const full = current.length >= ACTIONS_ELEMENTS_MAX;
    // The JSON of [...current, button]: brackets, the buttons, and a comma between each two.
    const withButton = 2 + currentLength + buttonLength + current.length;
    if (full || (current.length > 0 && withButton > ACTIONS_BLOCK_BUDGET)) flush();
    current.push(button);
    currentLength += buttonLength;
  }
  flush();
  return blocks;
}

function ratingActions(
  locale: Locale,
  contextKey: string,
  shape: RatingButtons = 'classic',
): types.ActionsBlock | types.ContextActionsBlock | undefined {
  const up = encodeRatingValue({ contextKey, rating: 1 });
  const down = encodeRatingValue({ contextKey, rating: 2 });
  if (up === undefined || down === undefined) return undefined;
  // Both shapes carry the same values, so one listener rates either (rating-click.ts).
  if (shape === 'native') {
    return {
      type: 'context_actions',
      block_id: RATING_BLOCK_ID,
      elements: [
        {
          type: 'feedback_buttons',
          action_id: ACTION_RATE_FEEDBACK,
          positive_button: {
            text: plainText(t(locale, 'feedback_up'), FEEDBACK_BUTTON_TEXT_MAX),
            value: up,
            accessibility_label: truncate(t(locale, 'rate_up_label'), FEEDBACK_LABEL_MAX),
          },
          negative_button: {
            text: plainText(t(locale, 'feedback_down'), FEEDBACK_BUTTON_TEXT_MAX),
            value: down,
            accessibility_label: truncate(t(locale, 'rate_down_label'), FEEDBACK_LABEL_MAX),
          },
        },
      ],
    };
  }
  return {
    type: 'actions',
    block_id: RATING_BLOCK_ID,
    elements: [
      button(t(locale, 'rate_up'), ACTION_RATE_UP, { value: up }),
      button(t(locale, 'rate_down'), ACTION_RATE_DOWN, { value: down }),
    ],
  };
}

/** "Get a person"; `prominent` (primary style) when the robot had no answer and a person is the way on. */
function escalateActions(
  locale: Locale,
  contextKey: string,
  prominent: boolean,
): types.ActionsBlock | undefined {
  const value = encodeAnswerValue(contextKey);
  if (value === undefined) return undefined;
  const escalate = button(t(locale, 'escalate_button'), ACTION_ESCALATE, {
    value,
    ...(prominent ? { style: 'primary' } : {}),
  });
  return { type: 'actions', block_id: ESCALATE_BLOCK_ID, elements: [escalate] };
}

/** Greedy packing in order: a new message starts when the next unit would break a limit. */
function pack(units: Unit[]): Unit[][] {
  const messages: Unit[][] = [];
  let current: Unit[] = [];
  // Running totals: JSON of an array is '[' + its elements' JSON joined by ',' + ']'.
  let blockCount = 0;
  let blocksLength = 0;
  for (const unit of units) {
    const unitSize = unitLength(unit);
    const count = blockCount + unit.blocks.length;
    const length = 2 + blocksLength + unitSize + Math.max(0, count - 1);
    if (current.length > 0 && (count > BLOCKS_PER_MESSAGE_MAX || length > SERIALIZED_BLOCKS_BUDGET)) {
      messages.push(current);
      current = [];
      blockCount = 0;
      blocksLength = 0;
    }
    current.push(unit);
    blockCount += unit.blocks.length;
    blocksLength += unitSize;
  }
  if (current.length > 0) messages.push(current);
  return messages;
}

function fallbackText(units: Unit[], prefix: string): string {
  const plain = units
    .map((unit) => unit.plain)
    .filter((text) => text !== '')
    .join('\n');
  const body = plain || units.find((unit) => unit.note)?.note || '…';
  return truncateMrkdwn(`${prefix}${body}`, FALLBACK_TEXT_MAX);
}

function renderFailure(reply: FailureReply): RenderedMessage {
  const text = failureText(reply.locale, reply.reason);
  const blocks: types.KnownBlock[] = [section(text)];
  // A failure with nothing to re-ask, or a question no button value can carry, gets no button.
  const value = reply.retry && encodeTryAgainValue(reply.retry);
  if (value !== undefined) {
    blocks.push({
      type: 'actions',
      block_id: TRY_AGAIN_BLOCK_ID,
      elements: [button(t(reply.locale, 'try_again'), ACTION_TRY_AGAIN, { value })],
    });
  }
  return { text, blocks };
}

/** A rating that could not be sent: says the rating was not recorded, and why, with nothing to click. */
export function renderRatingNotRecorded(locale: Locale, reason: FailureReason): RenderedMessage {
  const text = t(locale, 'rating_not_recorded', { reason: failureText(locale, reason) });
  return { text, blocks: [section(text)] };
}

function renderNotice(reply: NoticeReply): RenderedMessage {
  const { locale } = reply;
  let text: string;
  switch (reply.notice) {
    case 'question_too_long':
      text =
        reply.limit === undefined
          ? t(locale, 'question_too_long_no_limit')
          : t(locale, 'question_too_long', { limit: reply.limit });
      break;
    case 'not_set_up':
      text = t(locale, 'not_set_up', {
        contact: reply.contact === undefined ? 'none' : mention(reply.contact),
      });
      break;
    default:
      text = t(locale, reply.notice);
  }
  return { text: toPlainText(text), blocks: [section(text)] };
}

/** A user mention, only for something shaped like a Slack user id; anything else is shown as text. */
export function mention(userId: string): string {
  return /^[A-Z0-9]{2,32}$/.test(userId) ? `<@${userId}>` : escapeMrkdwn(userId);
}

function serializedLength(value: unknown): number {
  return JSON.stringify(value).length;
}
