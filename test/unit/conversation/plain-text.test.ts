import { describe, expect, it } from 'vitest';
import { typedText } from '../../../src/conversation/plain-text.js';

describe('typedText', () => {
  it.each([
    ['C0 controls', 'a\u0000b\u0007c\u001Fd', 'abcd'],
    ['DEL and C1 controls', 'a\u007Fb\u0085c\u009Bd', 'abcd'],
    ['a terminal colour sequence, whole', 'hours\u001B[31m?\u001B[0m', 'hours?'],
    ['an OSC title sequence, whole', 'x\u001B]0;owned\u0007y', 'xy'],
    [
      'bidi embeddings, overrides and isolates',
      '\u202Aa\u202Bb\u202Cc\u202Dd\u202Ee\u2066f\u2067g\u2068h\u2069',
      'abcdefgh',
    ],
  ])('strips %s', (_name, input, expected) => {
    expect(typedText(input)).toBe(expected);
  });

  it.each([
    ['tab and newline', 'line 1\tx\nline 2'],
    ['Chinese and full-width punctuation', '怎么重置密码？（急）'],
    ['Arabic with the right-to-left mark people type', 'كيف\u200F أتصل؟ \u061C'],
    ['emoji with joiners and skin tones', '👩🏽‍💻 👨‍👩‍👧'],
    ['accents and combining marks', 'Café e\u0301'],
  ])('keeps %s', (_name, input) => {
    expect(typedText(input)).toBe(input);
  });
});
