import { describe, expect, it } from 'vitest';
import { newContextKey } from '../../../src/conversation/context-key.js';

describe('newContextKey', () => {
  it('makes the time it was made then 12 random URL-safe characters', () => {
    for (let i = 0; i < 1_000; i++) {
      const key = newContextKey();
      expect(key).toMatch(/^[0-9a-z]{7}[A-Za-z0-9_-]{12}$/);
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

  it('does not repeat itself', () => {
    const keys = new Set(Array.from({ length: 10_000 }, () => newContextKey()));
    expect(keys.size).toBe(10_000);
  });
});
