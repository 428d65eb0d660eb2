// The filter of a SQLite file's keys: it may admit a key never added (then the file is asked), but
// must never deny one that was, or a delivery answered before would be answered again.
import { describe, expect, it } from 'vitest';
import { KeyFilter } from '../../../src/stores/key-filter.js';

const keys = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, n) => `${prefix}\u0000T0BENCH:D${n % 997}:17000${n}.${n % 1_000_000}`);

describe('KeyFilter', () => {
  it('never denies a key it was given, up to and past its capacity', () => {
    const filter = new KeyFilter(10_000);
    const added = keys('once', 30_000);
    for (const key of added) filter.add(key);
    expect(added.filter((key) => !filter.mayHold(key))).toEqual([]);
  });

  it('denies almost every key it was not given while within its capacity', () => {
    const filter = new KeyFilter(20_000);
    for (const key of keys('once', 20_000)) filter.add(key);
    const admitted = keys('thread', 20_000).filter((key) => filter.mayHold(key)).length;
    // Sized for about 1%; keys that differ only in their namespace must not collide more.
    expect(admitted / 20_000).toBeLessThan(0.02);
  });

  it('keeps denying absent keys as it grows far past its first capacity', () => {
    const filter = new KeyFilter(10_000);
    for (const key of keys('once', 150_000)) filter.add(key);
    // Layers of 10,000, 20,000, 40,000 and 80,000 keys, each admitting about 1%.
    const admitted = keys('thread', 20_000).filter((key) => filter.mayHold(key)).length;
    expect(admitted / 20_000).toBeLessThan(0.06);
  });
});
