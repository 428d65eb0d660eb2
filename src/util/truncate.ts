// Shared by the Slack renderers and the answer's conversion, which may not import the Slack side.
const ELLIPSIS = '…';

/** In UTF-16 units, ending in '…'; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));
  const cut = avoidSurrogateSplit(text, max - ELLIPSIS.length);
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

export function avoidSurrogateSplit(text: string, cut: number): number {
  const code = text.charCodeAt(cut - 1);
  return code >= 0xd800 && code <= 0xdbff ? cut - 1 : cut;
}

/** Code points, as zod counts a string's length. */
export function fitsCharacters(text: string, max: number): boolean {
  return text.length <= max || [...text].length <= max;
}
