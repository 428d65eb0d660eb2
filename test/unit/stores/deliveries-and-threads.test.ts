// In memory, the threads the app answers and the deliveries it has seen must not evict each other.
import { afterEach, describe, expect, it } from 'vitest';
import { createStores } from '../../../src/stores/index.js';
import type { Stores } from '../../../src/stores/stores.js';

const HOUR = 3600;
/** Keys shaped as the gateway builds them. */
const thread = (n: number) => `thread:T1:C0LAN2Q65:1700000000.${String(n).padStart(6, '0')}`;
const delivery = (n: number) => `msg:T1:C0LAN2Q65:1700000100.${String(n).padStart(6, '0')}`;

let stores: Stores | undefined;
afterEach(async () => {
  await stores?.close();
});

async function memoryStores(maxEntries: number): Promise<Stores> {
  stores = await createStores({ state: { kind: 'memory' }, maxEntries, ttlSeconds: HOUR });
  return stores;
}

describe('the in-memory delivery memory and thread registry', () => {
  it('keeps listening in a thread however many deliveries a busy workspace brings', async () => {
    const { deliveries, threads } = await memoryStores(3);
    expect(await threads.claim(thread(1), HOUR)).toBe(true);
    for (let n = 0; n < 10; n += 1) expect(await deliveries.claim(delivery(n), HOUR)).toBe(true);
    expect(await threads.has(thread(1))).toBe(true);
  });

  it('still recognises a retried delivery however many threads the app is answering', async () => {
    const { deliveries, threads } = await memoryStores(3);
    expect(await deliveries.claim(delivery(1), HOUR)).toBe(true);
    for (let n = 0; n < 10; n += 1) expect(await threads.claim(thread(n), HOUR)).toBe(true);
    expect(await deliveries.claim(delivery(1), HOUR)).toBe(false);
  });

  it('bounds each kind by the cap: the oldest deliveries and threads are the ones forgotten', async () => {
    const { deliveries, threads } = await memoryStores(3);
    for (let n = 0; n < 4; n += 1) await deliveries.claim(delivery(n), HOUR);
    for (let n = 0; n < 4; n += 1) await threads.claim(thread(n), HOUR);
    expect(await deliveries.has(delivery(0))).toBe(false);
    expect(await threads.has(thread(0))).toBe(false);
    expect(await deliveries.has(delivery(3))).toBe(true);
    expect(await threads.has(thread(3))).toBe(true);
  });
});
