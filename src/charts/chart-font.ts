// The fonts the charts are drawn with, loaded by path: resvg drops any glyph it has no font for.
import { existsSync, readFileSync } from 'node:fs';
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

/**
 * The system's Noto Sans CJK where Debian's and Alpine's packages put it: text from outside (a
 * platform's group names) may hold any character, and resvg takes a glyph the subset lacks from it.
 */
const FALLBACK_FONT_PATHS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
] as const;

/** What the fallback font is trusted to hold: Latin, Greek, Cyrillic, Chinese, kana, Hangul, punctuation. */
const FALLBACK_COVERS =
  /^(?:(?!\p{Extended_Pictographic})[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Common}\p{Script=Inherited}])*$/u;

let fontFound = false;
let subsetCharacters: ReadonlySet<string> | undefined;
let fallback: { path: string | undefined } | undefined;

/** The font's path, checked on first use: resvg given a missing file draws every label as nothing. */
function chartFontPath(): string {
  if (!fontFound) {
    if (!existsSync(CHART_FONT.path)) throw new Error(`the charts' font is missing at ${CHART_FONT.path}`);
    fontFound = true;
  }
  return CHART_FONT.path;
}

function inSubset(): ReadonlySet<string> {
  subsetCharacters ??= new Set(readFileSync(CHART_FONT.charactersPath, 'utf8').replace(/\n$/, ''));
  return subsetCharacters;
}

/** Looked for once: fonts are not installed while the process runs. */
function fallbackFontPath(): string | undefined {
  fallback ??= { path: FALLBACK_FONT_PATHS.find((path) => existsSync(path)) };
  return fallback.path;
}

function outsideSubset(text: string): boolean {
  const subset = inSubset();
  for (const character of text) {
    // Control characters are the SVG's own line breaks and tabs, never drawn.
    if (character >= ' ' && !subset.has(character)) return true;
  }
  return false;
}

/** Whether `text` is drawn whole: by the shipped subset, else by the system's fallback font. */
export function canDraw(text: string): boolean {
  if (!outsideSubset(text)) return true;
  return fallbackFontPath() !== undefined && FALLBACK_COVERS.test(text);
}

/** The shipped font, and the fallback only where `text` needs it: loading it costs ~20 ms a draw. */
export function chartFontFiles(text: string): string[] {
  const fallbackPath = outsideSubset(text) ? fallbackFontPath() : undefined;
  return fallbackPath ? [chartFontPath(), fallbackPath] : [chartFontPath()];
}
