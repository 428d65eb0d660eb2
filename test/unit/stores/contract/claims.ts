// The contract of OnceStore (deliveries, threads) and TickClaims (the digest): one claim per key, fleet-wide.
import { describe, expect, it } from 'vitest';
import { openFleet, type StoreImplementation } from './fleet.js';

export function describeOnceStoreContract(implementation: StoreImplementation): void {
  describe('OnceStore', () => {
    it('grants a claim once, again after release', async () => {
      const [{ claims: store }] = (await openFleet(implementation)).replicas;
      expect(await store.claim('event-1', 60)).toBe(true);
      expect(await store.claim('event-1', 60)).toBe(false);
      expect(await store.claim('event-2', 60)).toBe(true);
      await store.release('event-1');
      expect(await store.claim('event-1', 60)).toBe(true);
      expect(await store.claim('event-1', 60)).toBe(false);
    });

    it('grants a claim to one of two replicas, and again after release', async () => {
      const [{ claims: a }, { claims: b }] = (await openFleet(implementation)).replicas;
      expect(await a.has('event-1')).toBe(false);
      const results = await Promise.all([a.claim('event-1', 60), b.claim('event-1', 60)]);
      expect(results.sort()).toEqual([false, true]);
      expect(await a.has('event-1')).toBe(true);
      await b.release('event-1');
      expect(await b.has('event-1')).toBe(false);
      expect(await a.claim('event-1', 60)).toBe(true);
      expect(await b.claim('event-1', 60)).toBe(false);
    });

    it('keeps a short claim for longer once its work is done, for every replica', async () => {
      const [{ claims: a }, { claims: b }] = (await openFleet(implementation)).replicas;
      expect(await a.claim('delivery', 5)).toBe(true);
      await a.keep('delivery', 7200);
      expect(await b.claim('delivery', 5)).toBe(false);
      // Keeping holds a key that was never claimed too.
      await b.keep('unclaimed', 60);
      expect(await a.has('unclaimed')).toBe(true);
    });
  });
}

export function describeTickClaimsContract(implementation: StoreImplementation): void {
  describe('TickClaims', () => {
    it('gives each tick to one of two replicas claiming it at once, and to no one after', async () => {
      const [{ ticks: a }, { ticks: b }] = (await openFleet(implementation)).replicas;
      const tick = 'digest:C1:2024-05-06T01:00:00.000Z';
      const results = await Promise.all([a.claim(tick, 60), b.claim(tick, 60)]);
      expect(results.sort()).toEqual([false, true]);
      expect(await a.claim(tick, 60)).toBe(false);
      expect(await b.claim('digest:C1:2024-05-13T01:00:00.000Z', 60)).toBe(true);
    });

    it('keeps ticks apart from the deliveries: a delivery with the same key takes no tick', async () => {
      const [replica] = (await openFleet(implementation)).replicas;
      expect(await replica.claims.claim('digest:C1:tick', 60)).toBe(true);
      expect(await replica.ticks.claim('digest:C1:tick', 60)).toBe(true);
    });
  });
}
