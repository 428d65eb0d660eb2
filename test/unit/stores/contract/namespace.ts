// The contract of a store namespace: values one replica sets, every replica reads; a claim is won by
// one caller until it is released or expires; what does not parse is no value; names keep keys apart.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claimsOnly } from '../../../../src/stores/namespace.js';
import { openFleet, type StoreImplementation } from './fleet.js';

const person = z.object({ name: z.string(), visits: z.number().int() });
// Generous: expiry is only waited for, never raced.
const EXPIRED_WITHIN = { timeout: 10_000, interval: 100 };

export function describeNamespaceContract(implementation: StoreImplementation): void {
  describe('Namespace', () => {
    it('gives every replica what one set, the latest write, and nothing once deleted', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      const people = a.namespace('people', { schema: person, ttlSeconds: 60 });
      const samePeople = b.namespace('people', { schema: person, ttlSeconds: 60 });
      expect(await samePeople.get('U1')).toBeUndefined();
      await people.set('U1', { name: 'Ada', visits: 1 });
      expect(await samePeople.get('U1')).toEqual({ name: 'Ada', visits: 1 });
      await samePeople.set('U1', { name: 'Ada', visits: 2 }, 120);
      expect(await people.get('U1')).toEqual({ name: 'Ada', visits: 2 });
      await people.delete('U1');
      expect(await samePeople.get('U1')).toBeUndefined();
      // Deleting what is not there is no error.
      await samePeople.delete('U-never');
    });

    it('gives a claim to one of two replicas claiming at once, and to the next once released', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      const calls = a.namespace('calls', { schema: claimsOnly, ttlSeconds: 60 });
      const sameCalls = b.namespace('calls', { schema: claimsOnly, ttlSeconds: 60 });
      const results = await Promise.all([calls.claim('answer-1'), sameCalls.claim('answer-1')]);
      expect(results.sort()).toEqual([false, true]);
      expect(await calls.claim('answer-1', 60)).toBe(false);
      expect(await sameCalls.claim('answer-2')).toBe(true);
      // A claim holds no value.
      expect(await calls.get('answer-1')).toBeUndefined();
      await sameCalls.release('answer-1');
      expect(await calls.claim('answer-1')).toBe(true);
      expect(await sameCalls.claim('answer-1')).toBe(false);
      // Releasing what is not claimed is no error.
      await calls.release('answer-never');
    });

    it('claims only a free key, and a release never removes a value', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      const people = a.namespace('people', { schema: person, ttlSeconds: 60 });
      const samePeople = b.namespace('people', { schema: person, ttlSeconds: 60 });
      await people.set('U1', { name: 'Ada', visits: 1 });
      expect(await samePeople.claim('U1')).toBe(false);
      await samePeople.release('U1');
      expect(await people.get('U1')).toEqual({ name: 'Ada', visits: 1 });
      // A value set over a claim replaces it: the claimed work is done, and kept.
      expect(await people.claim('U2')).toBe(true);
      await samePeople.set('U2', { name: 'Grace', visits: 1 });
      await people.release('U2');
      expect(await samePeople.get('U2')).toEqual({ name: 'Grace', visits: 1 });
      expect(await people.claim('U2')).toBe(false);
    });

    it('forgets a value and a claim after their TTL, the declared one or the one written', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      const brief = a.namespace('brief', { schema: person, ttlSeconds: 1 });
      const sameBrief = b.namespace('brief', { schema: person, ttlSeconds: 1 });
      const lasting = a.namespace('lasting', { schema: claimsOnly, ttlSeconds: 3600 });
      await brief.set('U1', { name: 'Ada', visits: 1 });
      await brief.set('U2', { name: 'Grace', visits: 1 }, 3600);
      expect(await lasting.claim('answer-1', 1)).toBe(true);
      expect(await brief.claim('answer-2')).toBe(true);
      await expect.poll(() => sameBrief.get('U1'), EXPIRED_WITHIN).toBeUndefined();
      await expect.poll(() => lasting.claim('answer-1'), EXPIRED_WITHIN).toBe(true);
      await expect.poll(() => sameBrief.claim('answer-2'), EXPIRED_WITHIN).toBe(true);
      expect(await sameBrief.get('U2')).toEqual({ name: 'Grace', visits: 1 });
      expect(await lasting.claim('answer-1')).toBe(false);
    });

    it('reads a value that does not parse with the schema as absent', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      // The same name declared with another shape, as a release that changed it would read it.
      const older = a.namespace('shapes', { schema: z.object({ name: z.string() }), ttlSeconds: 60 });
      const newer = b.namespace('shapes', { schema: person, ttlSeconds: 60 });
      await older.set('U1', { name: 'Ada' });
      expect(await newer.get('U1')).toBeUndefined();
      expect(await older.get('U1')).toEqual({ name: 'Ada' });
      // Absent to the schema, it is still there to a claim: no write is lost behind one's back.
      expect(await newer.claim('U1')).toBe(false);
      await newer.set('U1', { name: 'Ada', visits: 3 });
      expect(await newer.get('U1')).toEqual({ name: 'Ada', visits: 3 });
    });

    it('keeps each namespace apart from the others and from the stores beside it', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      const people = a.namespace('people', { schema: z.string(), ttlSeconds: 60 });
      const pets = b.namespace('pets', { schema: z.string(), ttlSeconds: 60 });
      await people.set('k1', 'Ada');
      expect(await pets.get('k1')).toBeUndefined();
      expect(await pets.claim('k1')).toBe(true);
      expect(await people.get('k1')).toBe('Ada');
      expect(await people.claim('k2')).toBe(true);
      expect(await pets.claim('k2')).toBe(true);
      // A tick, a name and an escalation with one key are three keys.
      expect(await a.ticks.claim('k3', 60)).toBe(true);
      expect(await b.escalations.claim('k3')).toBe(true);
      expect(await b.panelTitles.claim('k3')).toBe(true);
      await a.names.set('k3', 'Grace', 60);
      expect(await b.names.get('k3')).toBe('Grace');
    });

    it('deletes the keys that start with a prefix, claims too, and none that only look alike', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      const people = a.namespace('people', { schema: z.string(), ttlSeconds: 60 });
      const samePeople = b.namespace('people', { schema: z.string(), ttlSeconds: 60 });
      const pets = b.namespace('pets', { schema: z.string(), ttlSeconds: 60 });
      await people.set('T1:U1', 'Ada');
      await people.set('T1:U2', 'Grace');
      expect(await people.claim('T1:U3')).toBe(true);
      const alike = { 'T10:U1': 'Alan', T1: 'no colon', 't1:U1': 'lower case', 'T:U1': 'shorter' };
      for (const [key, name] of Object.entries(alike)) await people.set(key, name);
      await pets.set('T1:U1', 'Rex');

      expect(await samePeople.deleteStartingWith('T1:')).toBe(3);
      for (const key of ['T1:U1', 'T1:U2']) expect(await people.get(key)).toBeUndefined();
      for (const [key, name] of Object.entries(alike)) expect(await samePeople.get(key)).toBe(name);
      expect(await pets.get('T1:U1')).toBe('Rex');
      // Nothing left to delete; the claim is free again.
      expect(await people.deleteStartingWith('T1:')).toBe(0);
      expect(await samePeople.claim('T1:U3')).toBe(true);

      // A pattern character is itself, not a pattern.
      await people.set('a*b:1', 'star');
      await people.set('axb:1', 'x');
      expect(await samePeople.deleteStartingWith('a*b:')).toBe(1);
      expect(await people.get('axb:1')).toBe('x');
      for (const prefix of ['', 'naïve:', 'with space:']) {
        await expect(people.deleteStartingWith(prefix)).rejects.toBeInstanceOf(RangeError);
      }
    });

    it('refuses a name no engine can keep apart, and a TTL no engine keeps', async () => {
      const [a] = (await openFleet(implementation)).replicas;
      for (const name of ['', 'Upper', 'with:colon', 'nul\u0000', 'space d']) {
        expect(() => a.namespace(name, { schema: z.string(), ttlSeconds: 60 })).toThrow(RangeError);
      }
      expect(() => a.namespace('zero', { schema: z.string(), ttlSeconds: 0 })).toThrow(RangeError);
      const names = a.namespace('names', { schema: z.string(), ttlSeconds: 60 });
      await expect(names.set('U1', 'Ada', 0)).rejects.toBeInstanceOf(RangeError);
      await expect(names.claim('U1', -1)).rejects.toBeInstanceOf(RangeError);
    });
  });
}
