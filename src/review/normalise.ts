// Card ids: one card per knowledge entry, and one per unanswered question however it is typed
// ("How do I…?", "how do i …", "How do I…？" are one question).
import { createHash } from 'node:crypto';

/** Marks around or after a question that do not change what is asked, in English and Chinese. */
const EDGE_PUNCTUATION = /^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu;

export function normaliseQuestion(question: string): string {
  return question
    .normalize('NFKC')
    .toLocaleLowerCase('en-US')
    .replace(/\s+/g, ' ')
    .replace(EDGE_PUNCTUATION, '')
    .trim();
}

export function cardIdOfQuestion(question: string): string {
  const normalised = normaliseQuestion(question) || question;
  return `q:${createHash('sha256').update(normalised).digest('hex').slice(0, 32)}`;
}

export function cardIdOfEntry(docId: string): string {
  return `doc:${docId}`;
}
