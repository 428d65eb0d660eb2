// What the review room's view tests share: a time, the planner's hash, an edit modal's input, an empty form.
import { createHash } from 'node:crypto';
import type { EditForm } from '../../src/review/types.js';
import type { EditModalInput } from '../../src/slack/review/edit-modal.js';

export const AT = Date.UTC(2025, 2, 4, 9, 30, 0);
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function modalInput(overrides: Partial<EditModalInput> = {}): EditModalInput {
  return {
    locale: 'en',
    timeZone: 'Europe/Paris',
    docId: 'd-42',
    cardId: 'doc:d-42',
    robotFlag: undefined,
    prefill: {
      questionTitle: 'How do I reset my password?',
      answerMarkup: 'Go to **Settings** and click [Reset](https://example.com/reset).',
      answerLength: undefined,
      seenAt: AT,
      unsupportedMarkup: [],
    },
    ...overrides,
  };
}

export const emptyForm: EditForm = {
  questionTitle: undefined,
  answerMarkup: undefined,
  matchFlag: undefined,
  usedFlag: undefined,
  robotFlag: undefined,
  validity: undefined,
  effectDate: undefined,
  effectClock: undefined,
  invalidDate: undefined,
  invalidClock: undefined,
};
