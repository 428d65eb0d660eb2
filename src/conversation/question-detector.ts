// Whether a message reads as a question, for channels in `questions` mode. It runs on
// every message of a busy channel: one anchored regex and a backward scan, nothing copied.

// Leading mentions (`<@U123>`, `<!subteam^S1|@it>`, `<!here>`), whitespace and the `,`/`:` after a
// mention: "<@U123>: how do I …" is asked as "how do I …".
const LEADING = String.raw`(?:\s|<[@!][^<>]*>|[,:，：])*`;
const ENGLISH_WORDS = 'how|what|where|when|why|who|which|can|could|do|does|is|are|should|may|will|would';
// A whole English word: "Is it" asks, "Isaac said" does not; "What's" does (an apostrophe ends a word).
const STARTS_WITH_QUESTION_WORD = new RegExp(`^${LEADING}(?:${ENGLISH_WORDS})(?![\\p{L}\\p{N}_-])`, 'iu');
// Chinese asks with these words anywhere in the sentence ("无线网络连不上怎么办", "打印机在哪"), often
// without "？"; a false positive costs a robot call and nothing else (a no-match there is passed over).
const CHINESE_QUESTION_WORD =
  /怎么|怎样|如何|为什么|为何|什么|哪|谁|能否|是否|能不能|可不可以|有没有|是不是|会不会|多少|几[点个天号次时]/u;
// What may follow a final 吗 or 呢: "好了吗。", "在哪呢！！", "可以吗~".
const PUNCTUATION = /[\p{P}\p{S}]/u;

/**
 * True when `text` (a Slack message's text) ends with `?` or `？`, starts with an English question
 * word, holds a Chinese one anywhere, or ends with 吗 or 呢 before any punctuation or symbols: the
 * `questions` mode's rule, word for word.
 */
export function readsAsQuestion(text: string): boolean {
  let end = text.length - 1;
  while (end >= 0 && isWhitespace(text.charCodeAt(end))) end -= 1;
  if (end < 0) return false;
  const last = text[end];
  if (last === '?' || last === '？') return true;
  if (endsWithParticle(text, end)) return true;
  return STARTS_WITH_QUESTION_WORD.test(text) || CHINESE_QUESTION_WORD.test(text);
}

/** 吗 or 呢 at `end`, or before the punctuation and whitespace that end the text there. */
function endsWithParticle(text: string, end: number): boolean {
  for (let index = end; index >= 0; index -= 1) {
    const char = text[index];
    if (char === '吗' || char === '呢') return true;
    if (char === undefined || !(PUNCTUATION.test(char) || isWhitespace(text.charCodeAt(index)))) return false;
  }
  return false;
}

/** ASCII whitespace and the ideographic space; enough for a message's ends. */
function isWhitespace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000;
}
