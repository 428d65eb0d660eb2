// Without what no person types: escape sequences, controls and the bidi overrides that disguise text.
/** Whole, so no "[31m" is left behind. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const ESCAPE_SEQUENCE = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?)/g;
/** Bidi marks U+200E, U+200F and U+061C stay: people writing Arabic or Hebrew type them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNTYPABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

export function typedText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(UNTYPABLE, '');
}
