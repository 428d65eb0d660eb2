// What only the memory stores promise (TTLs on an injected clock, LRU bounds); what every store
// promises is in contract.test.ts.
import { describe, expect, it } from 'vitest';
import { newContextKey } from '../../../src/conversation/context-key.js';
import { MemoryContextStore, MemoryOnceStore } from '../../../src/stores/memory.js';
import { memoryNamespaces } from '../../../src/stores/namespace.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';
import { answerContext } from '../../support/answer-context.js';
import { memoryRatings } from '../../support/memory-stores.js';

const context = answerContext;

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
  };
}

describe('MemoryContextStore', () => {
  it('forgets a context once its TTL has passed', async () => {
    const clock = manualClock();
    const store = new MemoryContextStore({ maxEntries: 10, ttlSeconds: 60, now: clock.now });
    await store.put('k1', context());
    clock.advance(59_999);
    expect(await store.get('k1')).toBeDefined();
    clock.advance(2);
    expect(await store.get('k1')).toBeUndefined();
  });

  it('evicts the least recently used context at maxEntries', async () => {
    const store = new MemoryContextStore({ maxEntries: 3, ttlSeconds: 60 });
    await store.put('a', context({ cid: 'a' }));
    await store.put('b', context({ cid: 'b' }));
    await store.put('c', context({ cid: 'c' }));
    // Reading a makes b the least recently used.
    await store.get('a');
    await store.put('d', context({ cid: 'd' }));
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeUndefined();
    expect((await store.get('a'))?.cid).toBe('a');
    expect((await store.get('c'))?.cid).toBe('c');
    expect((await store.get('d'))?.cid).toBe('d');
  });

  it('holds 100,000 contexts at a cap of 100,000', async () => {
    const store = new MemoryContextStore({ maxEntries: 100_000, ttlSeconds: 3600 });
    const keys: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const key = newContextKey();
      keys.push(key);
      await store.put(key, context({ msgId: `msg-${i}` }));
    }
    expect(store.size).toBe(100_000);
    for (const [i, key] of keys.entries()) {
      if ((await store.get(key))?.msgId !== `msg-${i}`) throw new Error(`context ${i} missing`);
    }
  });

  it('rejects a cap that would make it unbounded', () => {
    expect(() => new MemoryContextStore({ maxEntries: 0, ttlSeconds: 60 })).toThrow(RangeError);
  });
});

describe('MemoryOnceStore', () => {
  it('grants a claim again after its own TTL', async () => {
    const clock = manualClock();
    const store = new MemoryOnceStore({ maxEntries: 10, now: clock.now });
    expect(await store.claim('short', 1)).toBe(true);
    expect(await store.claim('long', 600)).toBe(true);
    expect(await store.has('short')).toBe(true);
    clock.advance(1_001);
    expect(await store.has('short')).toBe(false);
    expect(await store.has('long')).toBe(true);
    expect(await store.claim('short', 1)).toBe(true);
    expect(await store.claim('long', 600)).toBe(false);
  });

  it('keeps a short claim for longer once its work is done', async () => {
    const clock = manualClock();
    const store = new MemoryOnceStore({ maxEntries: 10, now: clock.now });
    expect(await store.claim('delivery', 2)).toBe(true);
    await store.keep('delivery', 3600);
    clock.advance(60_000);
    expect(await store.claim('delivery', 2)).toBe(false);
    clock.advance(3_600_000);
    expect(await store.claim('delivery', 2)).toBe(true);
  });
});

describe('ratings in memory', () => {
  it('forgets a rating after its TTL', async () => {
    const clock = manualClock();
    const store = memoryRatings({ maxEntries: 10, now: clock.now });
    await store.recordOnce('k1', 1, 60);
    clock.advance(60_001);
    expect(await store.get('k1')).toBeUndefined();
  });
});

/** The user-name cache as the memory stores declare it. */
function nameCache(bounds: { maxEntries: number; now?: () => number }) {
  return declaredNamespaces(memoryNamespaces(bounds), 3600).names;
}

describe('the name cache in memory', () => {
  it('returns a name until its TTL has passed', async () => {
    const clock = manualClock();
    const cache = nameCache({ maxEntries: 10, now: clock.now });
    await cache.set('U1', 'Ada', 300);
    expect(await cache.get('U1')).toBe('Ada');
    expect(await cache.get('U2')).toBeUndefined();
    clock.advance(299_000);
    expect(await cache.get('U1')).toBe('Ada');
    clock.advance(1_001);
    expect(await cache.get('U1')).toBeUndefined();
  });

  it('keeps at most maxEntries names', async () => {
    const cache = nameCache({ maxEntries: 2 });
    await cache.set('U1', 'Ada', 300);
    await cache.set('U2', 'Grace', 300);
    await cache.set('U3', 'Edsger', 300);
    expect(await cache.get('U1')).toBeUndefined();
    expect(await cache.get('U3')).toBe('Edsger');
  });
});
