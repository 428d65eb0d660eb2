import { describe, expect, it } from 'vitest';
import { isContextKey, newContextKey } from '../../../src/conversation/context-key.js';

describe('newContextKey', () => {
  it('makes the time it was made then 12 random URL-safe characters, which isContextKey accepts', () => {
    for (let i = 0; i < 1_000; i++) {
      const key = newContextKey();
      expect(key).toMatch(/^[0-9a-z]{7}[A-Za-z0-9_-]{12}$/);
      expect(isContextKey(key)).toBe(true);
    }
  });

  it('sorts a key made later after one made earlier, byte by byte, as SQLite orders ids', () => {
    const made = [0, 999, 1_000, 59_000, 1_700_000_000_000, 1_700_000_001_000, 4_000_000_000_000].map((ms) =>
      newContextKey(ms).slice(0, 7),
    );
    const bytewise = [...made].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(bytewise).toEqual(made);
    expect(new Set(made.slice(1)).size).toBe(made.length - 1);
  });

  it('still accepts the keys of answers given before the time lead (12 random characters)', () => {
    expect(isContextKey('abcdefghij_-')).toBe(true);
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
    ['between the two lengths', '0000000abcdefghijk'],
    ['a time lead in capitals', 'S4A9C00abcdefghijkl'],
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
