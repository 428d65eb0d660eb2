import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import type { OnceStore } from '../../../src/slack/handling/stores.js';
import { FallbackOnceStore } from '../../../src/stores/fallback-once-store.js';
import { MemoryOnceStore } from '../../../src/stores/memory.js';

const LEASE = 60;
const HOUR = 3600;

/** A shared store (one for every replica) that the test can take down, as Redis going away. */
function sharedStore(now: () => number) {
  const backing = new MemoryOnceStore({ maxEntries: 100, now });
  const state = { down: false as boolean | Error };
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    if (state.down instanceof Error) throw state.down;
    if (state.down) throw new StoreUnavailableError('redis SET skipped: Redis did not answer');
    return work();
  };
  const store: OnceStore = {
    claim: (key, ttl) => guard(() => backing.claim(key, ttl)),
    has: (key) => guard(() => backing.has(key)),
    release: (key) => guard(() => backing.release(key)),
    keep: (key, ttl) => guard(() => backing.keep(key, ttl)),
  };
  return { store, state, backing };
}

function clock() {
  let ms = 1_700_000_000_000;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

function setup(maxEntries = 100) {
  const time = clock();
  const shared = sharedStore(time.now);
  const replica = () => new FallbackOnceStore(shared.store, { maxEntries, now: time.now });
  return { time, shared, a: replica(), b: replica() };
}

describe('FallbackOnceStore', () => {
  it('lets the shared store decide while it is up: one replica of two gets a claim', async () => {
    const { a, b } = setup();
    expect(await a.claim('msg:1', LEASE)).toBe(true);
    expect(await b.claim('msg:1', LEASE)).toBe(false);
    expect(await b.has('msg:1')).toBe(true);
    await a.release('msg:1');
    expect(await b.claim('msg:1', LEASE)).toBe(true);
  });

  it('decides in process while the shared store is down: once, until the claim expires', async () => {
    const { a, shared, time } = setup();
    shared.state.down = true;
    expect(await a.claim('msg:1', LEASE)).toBe(true);
    expect(await a.claim('msg:1', LEASE)).toBe(false);
    expect(await a.has('msg:1')).toBe(true);
    time.advance(LEASE * 1000 + 1);
    expect(await a.claim('msg:1', LEASE)).toBe(true);
  });

  it('recognises during an outage a retry of a delivery it claimed and kept while up', async () => {
    const { a, shared, time } = setup();
    expect(await a.claim('msg:1', LEASE)).toBe(true);
    await a.keep('msg:1', HOUR);
    shared.state.down = true;
    time.advance(LEASE * 1000 * 2);
    expect(await a.claim('msg:1', LEASE)).toBe(false);
  });

  it('refuses after the outage a delivery it claimed during it, though the shared store never saw it', async () => {
    const { a, b, shared } = setup();
    shared.state.down = true;
    expect(await a.claim('msg:1', LEASE)).toBe(true);
    await expect(a.keep('msg:1', HOUR)).rejects.toBeInstanceOf(StoreUnavailableError);
    shared.state.down = false;
    expect(await a.claim('msg:1', LEASE)).toBe(false);
    // The shared claim its refusal left in place keeps the other replicas off it too.
    expect(await b.claim('msg:1', LEASE)).toBe(false);
  });

  it('only knows its own claims: another replica may act once more during an outage', async () => {
    const { a, b, shared } = setup();
    expect(await a.claim('msg:1', LEASE)).toBe(true);
    shared.state.down = true;
    expect(await b.claim('msg:1', LEASE)).toBe(true);
    expect(await b.claim('msg:1', LEASE)).toBe(false);
  });

  it('gives a claim back in process even when the shared store cannot be told', async () => {
    const { a, shared } = setup();
    expect(await a.claim('msg:1', LEASE)).toBe(true);
    shared.state.down = true;
    await expect(a.release('msg:1')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await a.claim('msg:1', LEASE)).toBe(true);
  });

  it('remembers a kept key in process for the TTL it was kept for', async () => {
    const { a, shared, time } = setup();
    expect(await a.claim('msg:1', LEASE)).toBe(true);
    await a.keep('msg:1', HOUR);
    shared.state.down = true;
    time.advance(HOUR * 1000 + 1);
    expect(await a.has('msg:1')).toBe(false);
    expect(await a.claim('msg:1', LEASE)).toBe(true);
  });

  it('bounds its memory: the oldest claims are the ones forgotten', async () => {
    const { a, shared } = setup(2);
    for (const key of ['msg:1', 'msg:2', 'msg:3']) expect(await a.claim(key, LEASE)).toBe(true);
    shared.state.down = true;
    expect(await a.claim('msg:3', LEASE)).toBe(false);
    expect(await a.claim('msg:1', LEASE)).toBe(true);
  });

  it('lets any other error through: a bug must not pass for an outage', async () => {
    const { a, shared } = setup();
    shared.state.down = new TypeError('not a store outage');
    await expect(a.claim('msg:1', LEASE)).rejects.toBeInstanceOf(TypeError);
    await expect(a.has('msg:1')).rejects.toBeInstanceOf(TypeError);
  });
});
