import { describe, expect, it } from 'vitest';
import {
  decodeAnswerValue,
  decodeRatingValue,
  decodeReviewCardValue,
  decodeSuggestionValue,
  decodeTryAgainValue,
  encodeAnswerValue,
  encodeRatingValue,
  encodeReviewCardValue,
  encodeSuggestionValue,
  encodeTryAgainValue,
  SUGGESTION_QUESTION_MAX,
  TRY_AGAIN_QUESTION_MAX,
} from '../../../../src/slack/kit/button-values.js';
import { BUTTON_VALUE_MAX } from '../../../../src/slack/kit/limits.js';

const GARBAGE: unknown[] = [
  undefined,
  null,
  42,
  '',
  'not json',
  '{"v":1',
  '[]',
  'null',
  '"string"',
  '{}',
  JSON.stringify({ v: 2, k: 'key', d: 'doc', q: 'question', r: 1 }),
  JSON.stringify({ v: '1', k: 'key', d: 'doc', q: 'question', r: 1 }),
  JSON.stringify({ v: 1, k: 7, d: ['doc'], q: { text: 'question' }, r: '1' }),
  JSON.stringify({ v: 1, k: '', d: '', q: '', r: 3 }),
  JSON.stringify({ v: 1, k: 'key', d: 'doc', q: 'x'.repeat(5000), r: 1 }),
  `{"v":1,"k":"${'k'.repeat(3000)}"}`,
  '{"__proto__":{"polluted":true},"v":1}',
];

describe('suggestion values', () => {
  it('round-trip', () => {
    const value = encodeSuggestionValue({ contextKey: 'ctx-1', docId: 'doc-9', question: '如何退款？' });
    expect(decodeSuggestionValue(value)).toEqual({ v: 1, k: 'ctx-1', d: 'doc-9', q: '如何退款？' });
  });

  it('carry a long question shortened, always within the button value limit', () => {
    const value = encodeSuggestionValue({
      contextKey: 'ctx-1',
      docId: 'doc-9',
      question: '"问'.repeat(3000),
    });
    expect(value?.length).toBeLessThanOrEqual(BUTTON_VALUE_MAX);
    const decoded = decodeSuggestionValue(value);
    expect(decoded?.q.length).toBeLessThanOrEqual(SUGGESTION_QUESTION_MAX);
    expect(decoded?.q.endsWith('…')).toBe(true);
  });

  it('cannot be made for a blank question or an oversized docId', () => {
    expect(encodeSuggestionValue({ contextKey: 'k', docId: 'd', question: '   ' })).toBeUndefined();
    expect(
      encodeSuggestionValue({ contextKey: 'k', docId: 'd'.repeat(1000), question: 'q' }),
    ).toBeUndefined();
  });
});

describe('rating values', () => {
  it('round-trip both ratings', () => {
    expect(decodeRatingValue(encodeRatingValue({ contextKey: 'ctx', rating: 1 }))).toEqual({
      v: 1,
      k: 'ctx',
      r: 1,
    });
    expect(decodeRatingValue(encodeRatingValue({ contextKey: 'ctx', rating: 2 }))).toEqual({
      v: 1,
      k: 'ctx',
      r: 2,
    });
  });

  it('still read the buttons of answers given before context keys had a time lead (12 characters)', () => {
    expect(decodeRatingValue('{"v":1,"k":"abcdefghij_-","r":1}')).toEqual({ v: 1, k: 'abcdefghij_-', r: 1 });
  });

  it('reject ratings other than 1 and 2', () => {
    expect(decodeRatingValue('{"v":1,"k":"ctx","r":3}')).toBeUndefined();
    expect(decodeRatingValue('{"v":1,"k":"ctx","r":"1"}')).toBeUndefined();
  });
});

describe('try-again values', () => {
  it('round-trip with and without a docId', () => {
    expect(decodeTryAgainValue(encodeTryAgainValue({ question: 'Q?', docId: 'd1' }))).toEqual({
      v: 1,
      q: 'Q?',
      d: 'd1',
    });
    expect(decodeTryAgainValue(encodeTryAgainValue({ question: 'Q?', docId: undefined }))).toEqual({
      v: 1,
      q: 'Q?',
    });
  });

  it('keep a 1000-character question whole, so Try again asks the same thing', () => {
    const question = '问'.repeat(1000);
    expect(decodeTryAgainValue(encodeTryAgainValue({ question, docId: undefined }))?.q).toBe(question);
  });

  it('fit questions full of characters JSON must escape', () => {
    const question = '"\\'.repeat(1500);
    const value = encodeTryAgainValue({ question, docId: 'd' });
    expect(value?.length).toBeLessThanOrEqual(BUTTON_VALUE_MAX);
    // What fits of the question, cut with an ellipsis: the button still asks something recognisable.
    const asked = decodeTryAgainValue(value)?.q ?? '';
    expect(asked.endsWith('…')).toBe(true);
    expect(asked.length).toBeGreaterThan(100);
    expect(question.startsWith(asked.slice(0, -1))).toBe(true);
  });

  it('are not made when there is nothing to ask again', () => {
    expect(encodeTryAgainValue({ question: '', docId: undefined })).toBeUndefined();
  });
});

describe('decoding garbage', () => {
  it('returns undefined and never throws', () => {
    for (const raw of GARBAGE) {
      expect(() => decodeSuggestionValue(raw)).not.toThrow();
      expect(decodeSuggestionValue(raw)).toBeUndefined();
      expect(decodeRatingValue(raw)).toBeUndefined();
      expect(decodeTryAgainValue(raw)).toBeUndefined();
    }
  });

  it('does not accept one kind of value as another', () => {
    const rating = encodeRatingValue({ contextKey: 'ctx', rating: 1 });
    expect(decodeSuggestionValue(rating)).toBeUndefined();
    expect(decodeTryAgainValue(rating)).toBeUndefined();
  });
});

describe('question caps', () => {
  it('count characters as the user does: an emoji is one, so a full-length question with one stays whole', () => {
    const question = `😀${'问'.repeat(TRY_AGAIN_QUESTION_MAX - 1)}`;
    expect(decodeTryAgainValue(encodeTryAgainValue({ question, docId: undefined }))?.q).toBe(question);
    const longer = `${question}问`;
    const shortened = decodeTryAgainValue(encodeTryAgainValue({ question: longer, docId: undefined }))?.q;
    expect([...(shortened ?? '')]).toHaveLength(TRY_AGAIN_QUESTION_MAX);
    expect(shortened?.endsWith('…')).toBe(true);
  });
});

describe('review card button values', () => {
  it('round-trip and refuse anything else', () => {
    const value = encodeReviewCardValue({ cardId: 'doc:d-1', docId: 'd-1' });
    expect(decodeReviewCardValue(value)).toEqual({ cardId: 'doc:d-1', docId: 'd-1' });
    expect(encodeReviewCardValue({ cardId: 'not-a-card' })).toBeUndefined();
    expect(encodeReviewCardValue({ cardId: `doc:${'x'.repeat(300)}` })).toBeUndefined();
    for (const raw of [undefined, 3, '', '{', '{"v":1}', '{"v":1,"c":"q:XYZ"}', '{"v":2,"c":"q:ab"}']) {
      expect(decodeReviewCardValue(raw)).toBeUndefined();
    }
  });
});

// A value is made exactly when the decoder takes it, whatever the ids' lengths.
describe('encoders and decoders agree on every bound', () => {
  const keys = [
    '',
    'k',
    'C0123:1700000000.000100',
    'k'.repeat(128),
    'k'.repeat(129),
    '😀'.repeat(64),
    '😀'.repeat(65),
  ];
  const docIds = ['', 'd', 'doc-1', 'd'.repeat(256), 'd'.repeat(257), '"\\'.repeat(128)];
  const questions = [
    '',
    '   ',
    'Q?',
    ' How  do\nI? ',
    '"\\'.repeat(400),
    '😀'.repeat(SUGGESTION_QUESTION_MAX + 1),
  ];

  it('suggestions, Try again after a suggestion, and ratings', () => {
    for (const k of keys) {
      const keyTaken = decodeRatingValue(JSON.stringify({ v: 1, k, r: 1 })) !== undefined;
      expect(decodeRatingValue(encodeRatingValue({ contextKey: k, rating: 2 })) ?? 'refused').toEqual(
        keyTaken ? { v: 1, k, r: 2 } : 'refused',
      );
      expect(decodeAnswerValue(encodeAnswerValue(k)) ?? 'refused').toBe(keyTaken ? k : 'refused');
      for (const d of docIds) {
        for (const question of questions) {
          const taken =
            decodeSuggestionValue(JSON.stringify({ v: 1, k, d, q: 'Q' })) !== undefined &&
            question.trim() !== '';
          const suggestion = decodeSuggestionValue(
            encodeSuggestionValue({ contextKey: k, docId: d, question }),
          );
          expect(suggestion === undefined ? 'refused' : { k: suggestion.k, d: suggestion.d }).toEqual(
            taken ? { k, d } : 'refused',
          );
          const retryTaken =
            decodeTryAgainValue(
              JSON.stringify({ v: 1, q: 'Q', ...(d ? { d, ...(k ? { k } : {}) } : {}) }),
            ) !== undefined && question.trim() !== '';
          const retry = decodeTryAgainValue(encodeTryAgainValue({ question, docId: d, contextKey: k }));
          expect(retry === undefined ? 'refused' : { k: retry.k, d: retry.d }).toEqual(
            retryTaken ? { k: d && k ? k : undefined, d: d || undefined } : 'refused',
          );
        }
      }
    }
  });
});
