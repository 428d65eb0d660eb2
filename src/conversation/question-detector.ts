// Runs on every message of a busy channel: one anchored regex and a backward scan, nothing copied.
// "<@U123>: how do I …" is asked as "how do I …".
const LEADING = String.raw`(?:\s|<[@!][^<>]*>|[,:，：])*`;
const ENGLISH_WORDS = 'how|what|where|when|why|who|which|can|could|do|does|is|are|should|may|will|would';
// A whole word: "Is it" asks, "Isaac said" does not; an apostrophe ends a word.
const STARTS_WITH_QUESTION_WORD = new RegExp(`^${LEADING}(?:${ENGLISH_WORDS})(?![\\p{L}\\p{N}_-])`, 'iu');
// Anywhere, often without "？"; a false positive costs a robot call and nothing else.
const CHINESE_QUESTION_WORD =
  /怎么|怎样|如何|为什么|为何|什么|哪|谁|能否|是否|能不能|可不可以|有没有|是不是|会不会|多少|几[点个天号次时]/u;
// "好了吗。", "在哪呢！！", "可以吗~".
const PUNCTUATION = /[\p{P}\p{S}]/u;

/** The `questions` mode's rule: ends with ?, starts with a question word, or ends with 吗/呢. */
export function readsAsQuestion(text: string): boolean {
  let end = text.length - 1;
  while (end >= 0 && isWhitespace(text.charCodeAt(end))) end -= 1;
  if (end < 0) return false;
  const last = text[end];
  if (last === '?' || last === '？') return true;
  if (endsWithParticle(text, end)) return true;
  return STARTS_WITH_QUESTION_WORD.test(text) || CHINESE_QUESTION_WORD.test(text);
}

function endsWithParticle(text: string, end: number): boolean {
  for (let index = end; index >= 0; index -= 1) {
    const char = text[index];
    if (char === '吗' || char === '呢') return true;
    if (char === undefined || !(PUNCTUATION.test(char) || isWhitespace(text.charCodeAt(index)))) return false;
  }
  return false;
}

/** Enough for a message's ends. */
function isWhitespace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000;
}
