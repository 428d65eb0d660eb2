// Block Kit limits, and cutting text to fit them without breaking what Slack parses.

export const SECTION_TEXT_MAX = 3000;
export const MARKDOWN_BLOCK_TEXT_MAX = 12_000;
export const CONTEXT_TEXT_MAX = 3000;
export const BUTTON_TEXT_MAX = 75;
export const BUTTON_VALUE_MAX = 2000;
export const ACTION_ID_MAX = 255;
export const BLOCK_ID_MAX = 255;
export const ACTIONS_ELEMENTS_MAX = 25;
export const BLOCKS_PER_MESSAGE_MAX = 50;
export const IMAGE_ALT_MAX = 2000;
export const IMAGE_URL_MAX = 3000;
/** Slack's hard limit on the top-level `text`. */
export const MESSAGE_TEXT_MAX = 40_000;
/** Our own limit on the notification fallback: it is a preview, not the answer. */
export const FALLBACK_TEXT_MAX = 3000;
/**
 * JSON.stringify(blocks).length we allow per message. Slack documents no byte limit, but rejects
 * some messages from about 13,000 characters of blocks with `invalid_blocks` / `msg_too_long`.
 */
export const SERIALIZED_BLOCKS_BUDGET = 12_000;

export const ELLIPSIS = '…';

/** Shortens plain text to at most `max` UTF-16 units, ending in '…'; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));
  const cut = avoidSurrogateSplit(text, max - ELLIPSIS.length);
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

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
 */
export function splitMrkdwn(text: string, max: number): string[] {
  const limit = Math.max(1, Math.floor(max));
  const chunks: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    let cut = safeCut(rest, preferredCut(rest, limit));
    // Only a one-unit limit meeting a surrogate pair gets here: keep the pair whole rather than loop.
    if (cut <= 0) cut = (rest.codePointAt(0) ?? 0) > 0xffff ? 2 : 1;
    const head = rest.slice(0, cut).trimEnd();
    if (head !== '') chunks.push(head);
    rest = rest.slice(cut).replace(/^\s+/, '');
  }
  if (rest !== '') chunks.push(rest);
  return chunks;
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

function avoidSurrogateSplit(text: string, cut: number): number {
  const code = text.charCodeAt(cut - 1);
  return code >= 0xd800 && code <= 0xdbff ? cut - 1 : cut;
}
