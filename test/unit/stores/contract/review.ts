// The contracts of the review loop's stores: a card changed by two replicas at once keeps every
// change; open cards are listed alike everywhere; snapshots and operator groups read back as written.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ReviewCardBusyError, type ReviewStore } from '../../../../src/review/stores.js';
import type { ReviewCard } from '../../../../src/review/types.js';
import { entrySnapshot, questionLink, reviewCard } from '../../../support/review-values.js';
import { openFleet, type StoreImplementation, timed } from './fleet.js';

const newId = (): string => `doc:${randomBytes(4).toString('hex')}`;

const increment = (id: string) => async (current: ReviewCard | undefined) => {
  const count = (current?.count ?? 0) + 1;
  // A change that waits on Slack: the others must wait for it, not read the old count meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 2));
  return { card: reviewCard(id, count), result: count };
};

async function put(store: ReviewStore, value: ReviewCard): Promise<void> {
  await store.change(value.id, async () => ({ card: value, result: undefined }));
}

export function describeReviewStoreContract(implementation: StoreImplementation): void {
  describe('ReviewStore', () => {
    it('creates a card, reads it back whole, updates it, and keeps it when a change returns none', async () => {
      const [{ reviewCards: store }, { reviewCards: other }] = (await openFleet(implementation)).replicas;
      const id = newId();
      expect(await store.get(id)).toBeUndefined();
      const seen: (ReviewCard | undefined)[] = [];
      await store.change(id, async (current) => {
        seen.push(current);
        return { card: reviewCard(id, 1), result: undefined };
      });
      expect(await other.get(id)).toEqual(reviewCard(id, 1));
      await expect(
        other.change(id, async (current) => {
          seen.push(current);
          return { card: { ...reviewCard(id, 2), status: 'fixed', handledBy: 'U9' }, result: 'fixed' };
        }),
      ).resolves.toBe('fixed');
      expect(seen).toEqual([undefined, reviewCard(id, 1)]);
      expect(await store.get(id)).toEqual({ ...reviewCard(id, 2), status: 'fixed', handledBy: 'U9' });
      await expect(store.change(id, async () => ({ result: 42 }))).resolves.toBe(42);
      expect(await store.get(id)).toEqual({ ...reviewCard(id, 2), status: 'fixed', handledBy: 'U9' });
    });

    it('counts every one of 20 concurrent changes from two replicas', async () => {
      const [{ reviewCards: a }, { reviewCards: b }] = (await openFleet(implementation)).replicas;
      const id = newId();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? a : b).change(id, increment(id))),
      );
      expect(results.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
      expect((await a.get(id))?.count).toBe(20);
    });

    it('writes nothing when a change fails, even what it changed in place, and lets the next change run', async () => {
      const [{ reviewCards: store }] = (await openFleet(implementation)).replicas;
      const id = newId();
      await expect(store.change(id, async () => Promise.reject(new Error('Slack said no')))).rejects.toThrow(
        'Slack said no',
      );
      expect(await store.get(id)).toBeUndefined();
      await expect(store.change(id, increment(id))).resolves.toBe(1);

      const read = await store.get(id);
      if (read) read.count = 50;
      await expect(
        store.change(id, async (current) => {
          if (current) current.count = 99;
          throw new Error('Slack timed out');
        }),
      ).rejects.toThrow('Slack timed out');
      expect((await store.get(id))?.count).toBe(1);
      // Released at once: a lock left behind would make this wait and fail with ReviewCardBusyError.
      await expect(store.change(id, increment(id))).resolves.toBe(2);
    });

    it('changes a card whose id holds braces like any other, on every replica', async () => {
      const fleet = await openFleet(implementation);
      const [{ reviewCards: a }, { reviewCards: b }] = fleet.replicas;
      const id = `doc:{${randomBytes(2).toString('hex')}}x}{`;
      await put(a, reviewCard(id, 1));
      expect(await b.change(id, increment(id))).toBe(2);
      expect((await a.get(id))?.count).toBe(2);
    });

    it('gives up with ReviewCardBusyError once the wait passes while someone else holds the card', async () => {
      const fleet = await openFleet(implementation, { lockWaitMs: 300 });
      const [{ reviewCards: store }] = fleet.replicas;
      const id = newId();
      const release = await fleet.holdCard(id);
      let ran = false;
      const attempt = await timed(
        store.change(id, async () => {
          ran = true;
          return { card: reviewCard(id, 100), result: undefined };
        }),
      );
      expect(attempt.error).toBeInstanceOf(ReviewCardBusyError);
      // Roughly the wait: not before it, and not long after it (generous for a busy machine).
      expect(attempt.ms).toBeGreaterThanOrEqual(250);
      expect(attempt.ms).toBeLessThan(300 + 4_000);
      await release();
      // The change that gave up never runs later, not even once the card is free.
      await expect(store.change(id, increment(id))).resolves.toBe(1);
      expect(ran).toBe(false);
    });

    it('lists the open cards of a kind, most reported first, with how many are open, on every replica', async () => {
      const [{ reviewCards: store }, { reviewCards: other }] = (await openFleet(implementation)).replicas;
      await put(store, reviewCard('doc:three', 1, { count: 3 }));
      await put(store, reviewCard('doc:one', 1, { count: 1 }));
      await put(other, reviewCard('doc:five', 1, { count: 5 }));
      await put(store, reviewCard('doc:handled', 1, { count: 9, status: 'dismissed' }));
      await put(other, reviewCard('q:llama', 1, { kind: 'unanswered', docId: undefined, count: 2 }));

      const disliked = await other.openCards('disliked', 2);
      expect(disliked.total).toBe(3);
      expect(disliked.cards.map((open) => [open.id, open.count])).toEqual([
        ['doc:five', 5],
        ['doc:three', 3],
      ]);
      expect(disliked.cards[0]).toEqual(reviewCard('doc:five', 1, { count: 5 }));
      const unanswered = await store.openCards('unanswered', 5);
      expect(unanswered).toEqual({
        total: 1,
        cards: [reviewCard('q:llama', 1, { kind: 'unanswered', docId: undefined, count: 2 })],
      });

      // Handled: no longer waiting. Counted again: moves up.
      await put(other, reviewCard('doc:five', 1, { count: 5, status: 'fixed' }));
      await put(store, reviewCard('doc:one', 1, { count: 4 }));
      const after = await store.openCards('disliked', 5);
      expect(after.total).toBe(2);
      expect(after.cards.map((open) => open.id)).toEqual(['doc:one', 'doc:three']);
      expect(await store.openCards('disliked', 0)).toEqual({ total: 2, cards: [] });
    });

    it('lists nothing when there are no cards', async () => {
      const [{ reviewCards: store }] = (await openFleet(implementation)).replicas;
      expect(await store.openCards('unanswered', 3)).toEqual({ total: 0, cards: [] });
    });

    it("keeps each workspace's cards apart: one id is a card per workspace, listed in its own only, on every replica", async () => {
      const [{ reviewCards: store }, { reviewCards: other }] = (await openFleet(implementation)).replicas;
      // T0ACME1 starts like T0ACME: a prefix is not a workspace.
      const [acme, acmeOne, globex] = ['T0ACME', 'T0ACME1', 'T0GLOBEX'].map((workspace) =>
        store.of(workspace),
      );
      if (!acme || !acmeOne || !globex) throw new Error('no workspace view');
      await put(acme, reviewCard('doc:wifi', 1, { count: 3 }));
      await put(acme, reviewCard('q:llama', 1, { kind: 'unanswered', docId: undefined, count: 2 }));
      await put(acmeOne, reviewCard('doc:vpn', 1, { count: 7 }));

      // Another workspace, on another replica, knows none of them; nor does the one set of a single workspace.
      expect(await other.of('T0GLOBEX').get('doc:wifi')).toBeUndefined();
      expect(await other.get('doc:wifi')).toBeUndefined();
      expect(await other.of('T0GLOBEX').openCards('disliked', 5)).toEqual({ total: 0, cards: [] });
      expect(await other.of('T0GLOBEX').openCards('unanswered', 5)).toEqual({ total: 0, cards: [] });
      expect(await other.openCards('disliked', 5)).toEqual({ total: 0, cards: [] });
      expect(await other.of('T0ACME').get('doc:wifi')).toEqual(reviewCard('doc:wifi', 1, { count: 3 }));

      // The same id in another workspace is another card, counted and changed apart.
      const [acmeCount, globexCount] = await Promise.all([
        other.of('T0ACME').change('doc:wifi', increment('doc:wifi')),
        globex.change('doc:wifi', increment('doc:wifi')),
      ]);
      expect([acmeCount, globexCount]).toEqual([4, 1]);
      await put(globex, reviewCard('doc:wifi', 1, { count: 1, status: 'dismissed' }));
      expect((await acme.get('doc:wifi'))?.status).toBe('open');

      const listed = async (view: typeof acme, kind: ReviewCard['kind']) =>
        (await view.openCards(kind, 5)).cards.map((open) => [open.id, open.count]);
      expect(await listed(other.of('T0ACME'), 'disliked')).toEqual([['doc:wifi', 4]]);
      expect(await listed(other.of('T0ACME'), 'unanswered')).toEqual([['q:llama', 2]]);
      expect(await listed(other.of('T0ACME1'), 'disliked')).toEqual([['doc:vpn', 7]]);
      expect(await other.of('T0GLOBEX').openCards('disliked', 5)).toEqual({ total: 0, cards: [] });
    });
  });
}

// Platform docIds are arbitrary strings of up to 256 characters; each must stay its own entry.
const oddDocIds = [
  'd',
  'd:',
  'd:x',
  'd x',
  '*',
  'review-card:d',
  'línea\nnueva 🎉',
  `${'é:'.repeat(100)}${'z'.repeat(56)}`,
];

export function describeEntrySnapshotStoreContract(implementation: StoreImplementation): void {
  describe('EntrySnapshotStore', () => {
    it('keeps a snapshot per docId, the latest put winning', async () => {
      const [{ entrySnapshots: writer }, { entrySnapshots: reader }] = (await openFleet(implementation))
        .replicas;
      const docId = `doc-${randomBytes(4).toString('hex')}`;
      expect(await reader.get(docId)).toBeUndefined();
      await writer.put(entrySnapshot(docId));
      expect(await reader.get(docId)).toEqual(entrySnapshot(docId));
      await writer.put({ ...entrySnapshot(docId, '<p>new</p>'), answerType: undefined, seenAt: 9 });
      expect(await reader.get(docId)).toEqual({
        ...entrySnapshot(docId, '<p>new</p>'),
        answerType: undefined,
        seenAt: 9,
      });
    });

    it('keeps docIds of any characters apart, however alike', async () => {
      const [{ entrySnapshots: writer }, { entrySnapshots: reader }] = (await openFleet(implementation))
        .replicas;
      const run = randomBytes(4).toString('hex');
      const ids = oddDocIds.map((id) => `${run}${id}`);
      for (const [index, docId] of ids.entries()) await writer.put(entrySnapshot(docId, `<p>${index}</p>`));
      for (const [index, docId] of ids.entries()) {
        expect(await reader.get(docId)).toEqual(entrySnapshot(docId, `<p>${index}</p>`));
      }
      expect(ids.at(-1)?.length).toBeGreaterThanOrEqual(256);
    });

    it("keeps each workspace's snapshots and links apart from another's and from a single workspace's", async () => {
      const [writer, reader] = (await openFleet(implementation)).replicas;
      const docId = `doc-${randomBytes(4).toString('hex')}`;
      await writer.entrySnapshots.of('T0ACME').put(entrySnapshot(docId, '<p>acme</p>'));
      await writer.questionLinks.of('T0ACME').put(`1:${docId}`, questionLink(docId));
      expect(await reader.entrySnapshots.of('T0ACME').get(docId)).toEqual(
        entrySnapshot(docId, '<p>acme</p>'),
      );
      expect(await reader.entrySnapshots.of('T0GLOBEX').get(docId)).toBeUndefined();
      expect(await reader.entrySnapshots.get(docId)).toBeUndefined();
      expect(await reader.questionLinks.of('T0ACME').get(`1:${docId}`)).toEqual(questionLink(docId));
      expect(await reader.questionLinks.of('T0GLOBEX').get(`1:${docId}`)).toBeUndefined();
      expect(await reader.questionLinks.get(`1:${docId}`)).toBeUndefined();
    });
  });
}

export function describeQuestionLinkStoreContract(implementation: StoreImplementation): void {
  describe('QuestionLinkStore', () => {
    it('shares a link by its key, the latest put winning, until it is deleted', async () => {
      const [{ questionLinks: writer }, { questionLinks: reader }] = (await openFleet(implementation))
        .replicas;
      const key = `1:${randomBytes(16).toString('hex')}`;
      expect(await reader.get(key)).toBeUndefined();
      await writer.put(key, questionLink('doc-wifi'));
      expect(await reader.get(key)).toEqual(questionLink('doc-wifi'));
      // The default robot and an unknown title come back as they went in: undefined.
      const relinked = { ...questionLink('doc-vpn'), robotFlag: undefined, entryTitle: undefined };
      await writer.put(key, relinked);
      expect(await reader.get(key)).toEqual(relinked);
      // Another robot's link of the same words is another key, untouched by this one's delete.
      const otherRobot = key.replace(/^1:/, '2:');
      await writer.put(otherRobot, questionLink('doc-printer'));
      await reader.delete(key);
      expect(await writer.get(key)).toBeUndefined();
      expect(await writer.get(otherRobot)).toEqual(questionLink('doc-printer'));
      // Deleting what is not there is no error.
      await expect(reader.delete(key)).resolves.toBeUndefined();
    });
  });
}

export function describeOperatorCacheContract(implementation: StoreImplementation): void {
  describe('OperatorCache', () => {
    it('shares an operator group and reads back what was set', async () => {
      const [{ operators: writer }, { operators: reader }] = (await openFleet(implementation)).replicas;
      const group = `S${randomBytes(4).toString('hex').toUpperCase()}`;
      expect(await reader.get(group)).toBeUndefined();
      await writer.set(group, { members: ['U1', 'U2'], fetchedAt: 7 }, 60);
      expect(await reader.get(group)).toEqual({ members: ['U1', 'U2'], fetchedAt: 7 });
      await writer.set(group, { members: [], fetchedAt: 8 }, 60);
      expect(await reader.get(group)).toEqual({ members: [], fetchedAt: 8 });
    });
  });
}
