// Block Kit limits, and cutting text to fit them without breaking what Slack parses.
import { avoidSurrogateSplit, truncate } from '../../util/truncate.js';
import { BLOCK_KIT } from './block-kit-limits.js';

export { truncate };

export const SECTION_TEXT_MAX = BLOCK_KIT.section.text;
export const BUTTON_TEXT_MAX = BLOCK_KIT.button.text;
export const BUTTON_VALUE_MAX = BLOCK_KIT.button.value;
export const ACTIONS_ELEMENTS_MAX = BLOCK_KIT.actions.elements;
export const BLOCKS_PER_MESSAGE_MAX = BLOCK_KIT.message.blocks;
/** A preview, not the answer. */
export const FALLBACK_TEXT_MAX = 3000;
/** Slack documents no byte limit but rejects some messages from about 13,000 characters of blocks. */
export const SERIALIZED_BLOCKS_BUDGET = 12_000;

const ELLIPSIS = '…';

/** `max` counts characters as people (and MAX_QUESTION_LENGTH) do: an emoji is one. */
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

/** Never cuts inside a <url|label> link or an &amp; entity either. */
export function truncateMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));
  const cut = safeCut(text, max - ELLIPSIS.length);
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

/**
 * Cuts at the best break that keeps the chunk half full, never inside a link, entity or surrogate pair;
 * a cut inside *bold* or `code` closes it and the next chunk reopens it, so no part shows a stray marker.
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

interface Span {
  open: number;
  contentStart: number;
  contentEnd: number;
  end: number;
  close: string;
  reopen: string;
}

const FENCE = '```';
/** "\n```" for a block, or `~_* for nested inline spans. */
const CLOSE_RESERVE = 4;
/** Longer spans are cut as plain text. */
const SPAN_LOOKAHEAD = 3000;
/** Such limits only occur in tests. */
const BALANCE_MIN_LIMIT = 16;
const INLINE_MARKERS = ['`', '*', '_', '~'] as const;
// Pairs as toPlainText reads them (Slack's rule as far as it shows), within one line.
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

function findSpans(text: string, max: number): Span[] {
  const spans: Span[] = [];
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
  // Reading all of a long line on every cut would be quadratic.
  const window = Math.min(nextLineEnd(text, max), max + Math.max(max, SPAN_LOOKAHEAD));
  if (from < max) inlineSpans(text, from, window, spans);
  return spans;
}

function nextLineEnd(text: string, position: number): number {
  const end = text.indexOf('\n', position);
  return end < 0 ? text.length : end;
}

/** Links and inline code hide what is inside them. */
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

/** A break outside every span, else a cut inside closing and reopening the open spans. */
function cutAroundSpans(text: string, limit: number, spans: Span[]): Part | undefined {
  const broken = new Uint8Array(limit + 1);
  for (const span of spans) broken.fill(1, span.open + 1, Math.min(span.end, limit + 1));
  const clean = cleanCut(text, limit, (position) => broken[position] === 1);
  if (clean !== undefined)
    return { head: text.slice(0, clean).trimEnd(), rest: text.slice(clean).replace(/^\s+/, '') };

  const hollowAt = (position: number) =>
    openAt(spans, position).find(
      (span) =>
        !hasContent(text, span.contentStart, position) || !hasContent(text, position, span.contentEnd),
    );
  let cut = safeCut(text, preferredCut(text, limit - CLOSE_RESERVE));
  for (let hollow = hollowAt(cut); hollow !== undefined && cut > 0; hollow = hollowAt(cut)) cut = hollow.open;
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
  // Every round must shorten the text, or the split would not end.
  if (head.length > limit || rest.length >= text.length) return undefined;
  return { head, rest };
}

function openAt(spans: Span[], position: number): Span[] {
  return spans.filter((span) => span.open < position && position < span.end).sort((a, b) => a.open - b.open);
}

function hasContent(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const char = text[index] ?? '';
    if (char !== '\u200B' && !/\s/.test(char)) return true;
  }
  return false;
}

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
    if (endsSentence(text, index) && fits(index + 1)) return index + 1;
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
    if (endsSentence(text, index)) return index + 1;
  }
  const space = text.lastIndexOf(' ', max);
  if (space >= floor) return space;
  return max;
}

/** A full stop at `index`; a Latin period only before a space, so 3.14 stays whole. */
function endsSentence(text: string, index: number): boolean {
  const char = text[index];
  return (
    (char !== undefined && '。！？；!?;'.includes(char)) || (char === '.' && /\s/.test(text[index + 1] ?? ''))
  );
}

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
  return cut > 0 ? cut : avoidSurrogateSplit(text, Math.max(1, position));
}
