// The contracts of the conversation core's stores (answer contexts, ratings) and the Slack side's
// name cache: what one replica writes, every replica reads back exactly.
import { describe, expect, it } from 'vitest';
import { answerContext } from '../../../support/answer-context.js';
import { openFleet, type StoreImplementation } from './fleet.js';

const context = answerContext;

export function describeContextStoreContract(implementation: StoreImplementation): void {
  describe('ContextStore', () => {
    it.each([
      ['a full context', context()],
      ['no uid and no thread', context({ threadId: undefined })],
      ['no placement (stored before placements were kept)', context({ placement: undefined })],
      [
        'a placement with the defaults',
        context({
          placement: { robotFlag: undefined, source: undefined, language: 'auto', reply: 'thread' },
        }),
      ],
      ['a visitor uid', context({ uid: 'visitor-7' })],
      [
        'no uid, no thread, no suggestions, not rateable',
        context({ threadId: undefined, suggestions: [], rateable: false }),
      ],
      ['a docName equal to the question', context({ docName: 'reset password' })],
      [
        'Chinese text, quotes and several suggestions',
        context({
          uid: 'u-0123456789abcdef',
          question: '如何"重置"密码？',
          docName: '如何重置密码',
          suggestions: [
            { question: '账号被锁定怎么办？', docId: 'doc-9' },
            { question: 'Change "email"', docId: 'doc-2' },
          ],
        }),
      ],
    ])('gives back %s exactly as it was stored, on every replica', async (_name, stored) => {
      const [{ contexts: writer }, { contexts: reader }] = (await openFleet(implementation)).replicas;
      await writer.put('k1', stored);
      // Strict: every field is there, undefined ones included, as the core reads them.
      expect(await writer.get('k1')).toStrictEqual(stored);
      expect(await reader.get('k1')).toStrictEqual(stored);
      expect(await reader.get('unknown')).toBeUndefined();
    });

    it('keeps the latest put of a key', async () => {
      const [{ contexts: writer }, { contexts: reader }] = (await openFleet(implementation)).replicas;
      await writer.put('k1', context());
      await writer.put('k1', context({ uid: 'visitor-7', msgId: 'msg-2' }));
      expect(await reader.get('k1')).toStrictEqual(context({ uid: 'visitor-7', msgId: 'msg-2' }));
    });

    it('keeps its own copy: changing the object after put changes nothing stored', async () => {
      const [{ contexts: store }] = (await openFleet(implementation)).replicas;
      const stored = context();
      await store.put('k1', stored);
      stored.suggestions.push({ question: 'later', docId: 'doc-3' });
      stored.rateable = false;
      expect(await store.get('k1')).toEqual(context());
    });
  });
}

export function describeRatingStoreContract(implementation: StoreImplementation): void {
  describe('RatingStore', () => {
    it('records the first rating, reports it to later ones, and forgets', async () => {
      const [{ ratings: store }] = (await openFleet(implementation)).replicas;
      expect(await store.get('k1')).toBeUndefined();
      expect(await store.recordOnce('k1', 2, 60)).toEqual({ recorded: true, rating: 2 });
      expect(await store.recordOnce('k1', 1, 60)).toEqual({ recorded: false, rating: 2 });
      expect(await store.get('k1')).toBe(2);
      await store.forget('k1');
      expect(await store.get('k1')).toBeUndefined();
      expect(await store.recordOnce('k1', 1, 60)).toEqual({ recorded: true, rating: 1 });
    });

    it('lets one of two replicas win a race and reports the winner to both', async () => {
      const [{ ratings: a }, { ratings: b }] = (await openFleet(implementation)).replicas;
      for (let round = 0; round < 20; round++) {
        const key = `k${round}`;
        const [first, second] = await Promise.all([a.recordOnce(key, 1, 60), b.recordOnce(key, 2, 60)]);
        expect([first.recorded, second.recorded].sort()).toEqual([false, true]);
        expect(first.rating).toBe(second.rating);
        expect(await a.get(key)).toBe(first.rating);
        expect(await b.get(key)).toBe(first.rating);
      }
    });
  });
}

export function describeNameCacheContract(implementation: StoreImplementation): void {
  describe('NameCache', () => {
    it('gives a name back on every replica, quotes included, and misses an unknown user', async () => {
      const [{ names: writer }, { names: reader }] = (await openFleet(implementation)).replicas;
      await writer.set('U1', 'Ada "the first" Lovelace', 300);
      expect(await reader.get('U1')).toBe('Ada "the first" Lovelace');
      await writer.set('U1', 'Ada', 300);
      expect(await reader.get('U1')).toBe('Ada');
      expect(await reader.get('U-unknown')).toBeUndefined();
    });
  });
}
