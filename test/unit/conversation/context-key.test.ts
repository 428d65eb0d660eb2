import { describe, expect, it } from 'vitest';
import { isContextKey, newContextKey } from '../../../src/conversation/context-key.js';

describe('newContextKey', () => {
  it('makes 12 URL-safe characters that isContextKey accepts', () => {
    for (let i = 0; i < 1_000; i++) {
      const key = newContextKey();
      expect(key).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(isContextKey(key)).toBe(true);
    }
  });

  it('does not repeat itself', () => {
    const keys = new Set(Array.from({ length: 10_000 }, () => newContextKey()));
    expect(keys.size).toBe(10_000);
  });
});

describe('isContextKey', () => {
  it.each([
    ['empty', ''],
    ['too short', 'abcdefghijk'],
    ['too long', 'abcdefghijklm'],
    ['with padding', 'abcdefghij=='],
    ['standard base64 characters', 'abcdefghij+/'],
    ['a line break', 'abcdefghijk\n'],
    ['a separator', 'abcdef:ghijk'],
  ])('rejects %s', (_name, value) => {
    expect(isContextKey(value)).toBe(false);
  });

  it('rejects values that are not strings', () => {
    expect(isContextKey(123456789012)).toBe(false);
    expect(isContextKey(undefined)).toBe(false);
  });
});
