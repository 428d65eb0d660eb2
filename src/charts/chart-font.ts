// The one font the charts are drawn with, loaded by path: resvg drops any glyph it has no font for.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Noto Sans SC (Latin and Chinese), cut down to the characters the charts draw so that loading it
 * stays cheap on every draw; `npm run charts:font` makes it again from the registry package.
 */
export const CHART_FONT = {
  family: 'Noto Sans SC',
  path: fileURLToPath(new URL('./fonts/noto-sans-sc-chart.ttf', import.meta.url)),
  /** The characters the subset holds, one line of text, written beside it by the same script. */
  charactersPath: fileURLToPath(new URL('./fonts/noto-sans-sc-chart.txt', import.meta.url)),
} as const;

let fontFound = false;

/** The font's path, checked on first use: resvg given a missing file draws every label as nothing. */
export function chartFontPath(): string {
  if (!fontFound) {
    if (!existsSync(CHART_FONT.path)) throw new Error(`the charts' font is missing at ${CHART_FONT.path}`);
    fontFound = true;
  }
  return CHART_FONT.path;
}
