import { describe, expect, it } from 'vitest';
import { cardIdOfEntry, cardIdOfQuestion, normaliseQuestion } from '../../../src/review/normalise.js';

describe('unanswered questions are one card however they are typed', () => {
  it('ignores case, spacing, full-width forms and closing punctuation', () => {
    const id = cardIdOfQuestion('Where is the parking garage?');
    expect(cardIdOfQuestion('  where is   the PARKING garage ？')).toBe(id);
    expect(cardIdOfQuestion('Where is the parking garage!!')).toBe(id);
    expect(cardIdOfQuestion('Where is the parking lot?')).not.toBe(id);
  });

  it('keeps Chinese questions apart and whole', () => {
    expect(normaliseQuestion('停车场在哪里？')).toBe('停车场在哪里');
    expect(cardIdOfQuestion('停车场在哪里？')).toBe(cardIdOfQuestion('停车场在哪里?'));
    expect(cardIdOfQuestion('停车场在哪里')).not.toBe(cardIdOfQuestion('食堂在哪里'));
  });

  it('gives a question of punctuation only a card of its own', () => {
    expect(cardIdOfQuestion('???')).toMatch(/^q:[0-9a-f]{32}$/);
  });

  it('names entry cards by docId', () => {
    expect(cardIdOfEntry('doc-wifi')).toBe('doc:doc-wifi');
  });
});
