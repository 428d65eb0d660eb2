// Block Kit limits, and cutting text to fit them without breaking what Slack parses.
import { avoidSurrogateSplit, truncate } from '../../util/truncate.js';
import { BLOCK_KIT } from './block-kit-limits.js';

export { truncate };

export const SECTION_TEXT_MAX = BLOCK_KIT.section.text;
export const BUTTON_TEXT_MAX = BLOCK_KIT.button.text;
export const BUTTON_VALUE_MAX = BLOCK_KIT.button.value;
export const ACTIONS_ELEMENTS_MAX = BLOCK_KIT.actions.elements;
export const BLOCKS_PER_MESSAGE_MAX = BLOCK_KIT.message.blocks;
/** Our own limit on the notification fallback: it is a preview, not the answer. */
export const FALLBACK_TEXT_MAX = 3000;
/**
 * JSON.stringify(blocks).length we allow per message. Slack documents no byte limit, but rejects
 * some messages from about 13,000 characters of blocks with `invalid_blocks` / `msg_too_long`.
 */
export const SERIALIZED_BLOCKS_BUDGET = 12_000;

const ELLIPSIS = '…';

/**
 * Like `truncate`, but `max` counts characters as people (and MAX_QUESTION_LENGTH) do: an emoji is
 * one character here, two UTF-16 units for `truncate`.
 */
export function truncateCharacters(text: string, max: number): string {
  if (text.length <= max) return text;
  const characters = [...text];
  if (characters.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));
  return `${characters
    .slice(0, max - ELLIPSIS.length)
    .join('')
    .trimEnd()}${ELLIPSIS}`;
}

/** Like `truncate`, for mrkdwn: never cuts inside a <url|label> link or an &amp; entity either. */
export function truncateMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));
  const cut = safeCut(text, max - ELLIPSIS.length);
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

/**
 * Splits mrkdwn into chunks of at most `max` UTF-16 units: at a paragraph break, else a line break,
 * else a sentence end, else a space (each only when the chunk stays at least half full), else hard.
 * Never inside a <url|label> link or an &amp; entity, never between the halves of a surrogate pair.
 * Breaks outside *bold*, _italic_, ~strike~, `code` and ``` blocks come first; when there is none,
 * the chunk closes what is open at the cut and the next one reopens it, so no part shows a stray marker.
 */
export function splitMrkdwn(text: string, max: number): string[] {
  const limit = Math.max(1, Math.floor(max));
  const chunks: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const spans = limit >= BALANCE_MIN_LIMIT ? findSpans(rest, limit) : [];
    const part = (spans.length > 0 ? cutAroundSpans(rest, limit, spans) : undefined) ?? plainCut(rest, limit);
    if (part.head !== '') chunks.push(part.head);
    rest = part.rest;
  }
  if (rest !== '') chunks.push(rest);
  return chunks;
}

interface Part {
  head: string;
  rest: string;
}

/** A formatting span: where its markers are, and what closes and reopens it around a cut. */
interface Span {
  /** Index of the opening marker. */
  open: number;
  /** Index of the first character after the opening marker. */
  contentStart: number;
  /** Index of the closing marker. */
  contentEnd: number;
  /** Index just past the closing marker. */
  end: number;
  close: string;
  reopen: string;
}

const FENCE = '```';
/** Closing markers take at most four units: "\n```" for a block, or `~_* for nested inline spans. */
const CLOSE_RESERVE = 4;
/** How far past the cut a span's closing marker is looked for; longer spans are cut as plain text. */
const SPAN_LOOKAHEAD = 3000;
/** Below this a chunk has no room for markers around its text; such limits only occur in tests. */
const BALANCE_MIN_LIMIT = 16;
const INLINE_MARKERS = ['`', '*', '_', '~'] as const;
// Pairs as toPlainText reads them (Slack's rule as far as it shows): an opening marker after a
// boundary and before a non-space, a closing one after a non-space and before a boundary, one line.
const INLINE_PATTERNS = INLINE_MARKERS.map((marker) => {
  // With the u flag only syntax characters may be escaped.
  const m = marker === '*' ? '\\*' : marker;
  return new RegExp(
    `(^|[\\s\\u200B\\p{P}\\p{S}])${m}(?=\\S)([^\\n]*?\\S)${m}(?=$|[\\s\\u200B\\p{P}\\p{S}])`,
    'gu',
  );
});

function plainCut(text: string, limit: number): Part {
  let cut = safeCut(text, preferredCut(text, limit));
  // Only a one-unit limit meeting a surrogate pair gets here: keep the pair whole rather than loop.
  if (cut <= 0) cut = (text.codePointAt(0) ?? 0) > 0xffff ? 2 : 1;
  return { head: text.slice(0, cut).trimEnd(), rest: text.slice(cut).replace(/^\s+/, '') };
}

/** Spans that start within the first `max` units, where a cut can fall. */
function findSpans(text: string, max: number): Span[] {
  const spans: Span[] = [];
  // Fences pair up in order; nothing inside a code block is formatting.
  let from = 0;
  for (let open = text.indexOf(FENCE); open >= 0 && open < max; open = text.indexOf(FENCE, from)) {
    const close = text.indexOf(FENCE, open + FENCE.length);
    if (close < 0) break;
    inlineSpans(text, from, open, spans);
    spans.push({
      open,
      contentStart: open + FENCE.length,
      contentEnd: close,
      end: close + FENCE.length,
      close: `\n${FENCE}`,
      reopen: `${FENCE}\n`,
    });
    from = close + FENCE.length;
  }
  // A long line is read only so far past the cut: reading all of it on every cut would be quadratic.
  const window = Math.min(nextLineEnd(text, max), max + Math.max(max, SPAN_LOOKAHEAD));
  if (from < max) inlineSpans(text, from, window, spans);
  return spans;
}

function nextLineEnd(text: string, position: number): number {
  const end = text.indexOf('\n', position);
  return end < 0 ? text.length : end;
}

/** Inline spans of text[from, to), line by line; links and inline code hide what is inside them. */
function inlineSpans(text: string, from: number, to: number, spans: Span[]): void {
  let lineStart = from;
  while (lineStart < to) {
    const lineEnd = Math.min(nextLineEnd(text, lineStart), to);
    let line = text
      .slice(lineStart, lineEnd)
      .replace(/<[^<>\n]*>/g, (link) => `<${'x'.repeat(link.length - 2)}>`);
    INLINE_MARKERS.forEach((marker, index) => {
      const pattern = INLINE_PATTERNS[index];
      if (pattern === undefined || !line.includes(marker)) return;
      pattern.lastIndex = 0;
      for (let match = pattern.exec(line); match !== null; match = pattern.exec(line)) {
        const open = lineStart + match.index + (match[1] ?? '').length;
        const contentEnd = open + 1 + (match[2] ?? '').length;
        spans.push({
          open,
          contentStart: open + 1,
          contentEnd,
          end: contentEnd + 1,
          close: marker,
          reopen: marker,
        });
      }
      // Inline code is literal: markers inside it format nothing.
      if (marker === '`') {
        line = line.replace(
          pattern,
          (whole, before: string) => `${before}\`${'x'.repeat(whole.length - before.length - 2)}\``,
        );
      }
    });
    lineStart = lineEnd + 1;
  }
}

/**
 * A break outside every span if there is one; else a cut inside, with the open spans closed at the
 * end of the chunk and reopened at the start of the next. Undefined when neither fits the limit.
 */
function cutAroundSpans(text: string, limit: number, spans: Span[]): Part | undefined {
  const broken = new Uint8Array(limit + 1);
  for (const span of spans) broken.fill(1, span.open + 1, Math.min(span.end, limit + 1));
  const clean = cleanCut(text, limit, (position) => broken[position] === 1);
  if (clean !== undefined)
    return { head: text.slice(0, clean).trimEnd(), rest: text.slice(clean).replace(/^\s+/, '') };

  // A span with nothing on one side of the cut would leave an empty pair of markers: cut before it.
  const hollowAt = (position: number) =>
    openAt(spans, position).find(
      (span) =>
        !hasContent(text, span.contentStart, position) || !hasContent(text, position, span.contentEnd),
    );
  let cut = safeCut(text, preferredCut(text, limit - CLOSE_RESERVE));
  for (let hollow = hollowAt(cut); hollow !== undefined && cut > 0; hollow = hollowAt(cut)) cut = hollow.open;
  // Only a link or entity longer than the limit, first in a span, gets here: it cannot stay whole.
  if (cut <= 0) cut = avoidSurrogateSplit(text, limit - CLOSE_RESERVE);
  if (hollowAt(cut) !== undefined) return undefined;
  const open = openAt(spans, cut);
  const inCodeBlock = open.some((span) => span.reopen === `${FENCE}\n`);
  const tail = inCodeBlock ? text.slice(cut).replace(/^\n/, '') : text.slice(cut).replace(/^\s+/, '');
  const head = `${text.slice(0, cut).trimEnd()}${open
    .map((span) => span.close)
    .reverse()
    .join('')}`;
  const rest = `${open.map((span) => span.reopen).join('')}${tail}`;
  // Every chunk must fit and every round must shorten the text, or the split would not end.
  if (head.length > limit || rest.length >= text.length) return undefined;
  return { head, rest };
}

/** Spans a cut at `position` would break, outermost first. */
function openAt(spans: Span[], position: number): Span[] {
  return spans.filter((span) => span.open < position && position < span.end).sort((a, b) => a.open - b.open);
}

/** Whether text[from, to) holds more than whitespace; stops at the first such character. */
function hasContent(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const char = text[index] ?? '';
    if (char !== '\u200B' && !/\s/.test(char)) return true;
  }
  return false;
}

/** The latest break of the best kind that is outside every span and safe to cut at. */
function cleanCut(text: string, max: number, broken: (position: number) => boolean): number | undefined {
  const floor = Math.max(1, Math.floor(max / 2));
  const fits = (position: number) => !broken(position) && safeCut(text, position) === position;
  const top = Math.min(max, text.length - 1);
  for (let index = top; index >= floor; index -= 1) {
    if (text[index] === '\n' && text[index + 1] === '\n' && fits(index)) return index;
  }
  for (let index = top; index >= floor; index -= 1) {
    if (text[index] === '\n' && fits(index)) return index;
  }
  for (let index = max - 1; index >= floor; index -= 1) {
    const char = text[index];
    const sentenceEnd =
      (char !== undefined && '。！？；!?;'.includes(char)) ||
      (char === '.' && /\s/.test(text[index + 1] ?? ''));
    if (sentenceEnd && fits(index + 1)) return index + 1;
  }
  for (let index = top; index >= floor; index -= 1) {
    if (text[index] === ' ' && fits(index)) return index;
  }
  return undefined;
}

function preferredCut(text: string, max: number): number {
  const floor = Math.floor(max / 2);
  const paragraph = text.lastIndexOf('\n\n', max);
  if (paragraph >= floor) return paragraph;
  const line = text.lastIndexOf('\n', max);
  if (line >= floor) return line;
  for (let index = max - 1; index >= floor; index -= 1) {
    const char = text[index];
    if (char !== undefined && '。！？；!?;'.includes(char)) return index + 1;
    if (char === '.' && /\s/.test(text[index + 1] ?? '')) return index + 1;
  }
  const space = text.lastIndexOf(' ', max);
  if (space >= floor) return space;
  return max;
}

/** Moves a cut position back so that it falls outside links, entities and surrogate pairs. */
function safeCut(text: string, position: number): number {
  let cut = Math.min(position, text.length);
  const open = text.lastIndexOf('<', cut - 1);
  if (open >= 0) {
    const close = text.indexOf('>', open);
    if (close >= cut && open > 0) cut = open;
  }
  const entity = /&[#A-Za-z0-9]{0,8}$/.exec(text.slice(Math.max(0, cut - 9), cut));
  if (entity && cut - entity[0].length > 0) cut -= entity[0].length;
  cut = avoidSurrogateSplit(text, cut);
  // A single link or entity longer than the limit cannot be kept whole: cut it rather than loop.
  return cut > 0 ? cut : avoidSurrogateSplit(text, Math.max(1, position));
}
