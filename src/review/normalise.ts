// Card ids: one per entry, one per unanswered question however typed ("How do I…?", "how do i"), or none.
import { createHash } from 'node:crypto';

/** Joiners inside a word ("don't", "wi-fi", "e_mail"): dropped, so "dont" and "don't" are one word. */
const JOINERS = /['’‘`´ʼ\p{Pd}\p{Pc}]/gu;
/** Anything that is not a letter, a mark or a digit of some script separates words. */
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/gu;
/** Scripts written without spaces between words: a space beside one of their characters says nothing. */
const UNSPACED = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}';
const SPACE_BESIDE_UNSPACED = new RegExp(`(?<=[${UNSPACED}]) | (?=[${UNSPACED}])`, 'gu');
const UNSPACED_CHARACTER = new RegExp(`[${UNSPACED}]`, 'gu');

/** Words only: NFKC, lower case, each run of non-word one space, no space beside Chinese or Japanese. */
export function normaliseQuestion(question: string): string {
  // toLowerCase cases as en-US does (only tr, az and lt differ), without an ICU locale lookup per call.
  return question
    .normalize('NFKC')
    .toLowerCase()
    .replace(JOINERS, '')
    .replace(NOT_WORD, ' ')
    .trim()
    .replace(SPACE_BESIDE_UNSPACED, '');
}

/** No question in itself: Slack's markup, the same made plain (@name, a bare URL), :emoji: codes. */
const MARKUP =
  /<[@#!][^>]*>|<[a-z][a-z0-9+.-]*:[^>]*>|[a-z][a-z0-9+.-]*:\/\/\S+|(?<!\S)[@#]\S+|:[a-z0-9_+'-]+:/giu;

/** Too little to review: only emoji, markup or punctuation, or under two words (characters, unspaced). */
export function isTooLittleToReview(question: string): boolean {
  if (isMostlyHtml(question)) return true;
  const words = normaliseQuestion(question.replace(MARKUP, ' ').replace(HTML_TAG, ' '));
  if (words === '') return true;
  const unspaced = words.match(UNSPACED_CHARACTER)?.length ?? 0;
  if (unspaced >= 2) return false;
  // A lone unspaced character beside one spaced word ("我 ok") is two words as well.
  const spacedWords = words
    .replace(UNSPACED_CHARACTER, ' ')
    .split(' ')
    .filter((word) => word !== '');
  if (spacedWords.length + unspaced < 2) return true;
  return unspaced === 0 && isKeyboardMash(spacedWords);
}

/** An HTML tag typed as text (`<div>`, `</b>`, `<img src=x>`): the robot is asked it as typed. */
const HTML_TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/giu;

/** HTML typed as text: more of it is tags than anything else (`<script>alert(1)</script>`). */
function isMostlyHtml(question: string): boolean {
  let tagged = 0;
  for (const tag of question.matchAll(HTML_TAG)) tagged += tag[0].length;
  return tagged > 0 && tagged * 2 >= question.trim().length;
}

/** Rows of a QWERTY keyboard, both ways: four keys in a row are a hand on the keys, not a word. */
const KEY_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'poiuytrewq', 'lkjhgfdsa', 'mnbvcxz'];
const VOWEL = /[aeiouy]/;

/** Keyboard mash ("asdfgh qwerty", "jjjjjj"): at least half the words are runs of keys, repeats or vowelless. */
function isKeyboardMash(words: readonly string[]): boolean {
  const mashed = words.filter(
    (word) =>
      /^[a-z]+$/.test(word) &&
      ((word.length >= 4 && KEY_ROWS.some((row) => row.includes(word))) ||
        (word.length >= 4 && /^(.)\1+$/.test(word)) ||
        (word.length >= 6 && !VOWEL.test(word))),
  );
  return mashed.length * 2 >= words.length;
}

export function cardIdOfQuestion(question: string): string {
  const normalised = normaliseQuestion(question) || question;
  return `q:${createHash('sha256').update(normalised).digest('hex').slice(0, 32)}`;
}

export function cardIdOfEntry(docId: string): string {
  return `doc:${docId}`;
}

/** A question link's key: the normalised question (hashed, as its card's id) and the robot asked. */
export function linkKeyOf(question: string, robotFlag: number | undefined): string {
  return `${robotFlag ?? 'default'}:${cardIdOfQuestion(question).slice('q:'.length)}`;
}
