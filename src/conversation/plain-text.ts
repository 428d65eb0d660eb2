// What a person typed, without what no person types: terminal escape sequences, control characters
// and the bidirectional overrides that make text read differently from how it is stored.

/** ANSI/VT100 CSI and OSC sequences whole (ESC [ 31 m, ESC ] … BEL), so no "[31m" is left behind. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const ESCAPE_SEQUENCE = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?)/g;
/**
 * C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069). The bidi marks U+200E, U+200F and U+061C stay: people writing
 * Arabic or Hebrew type them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNTYPABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

export function typedText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(UNTYPABLE, '');
}
