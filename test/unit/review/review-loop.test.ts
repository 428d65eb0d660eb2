import { describe, expect, it } from 'vitest';
import { PlatformCodeError } from '../../../src/platform/errors.js';
import type { ReviewBoard } from '../../../src/review/review-cards.js';
import { accountKnowledge } from '../../../src/review/review-desk.js';
import { reviewLoop as composeReview } from '../../../src/review/review-loop.js';
import type { ReviewCard } from '../../../src/review/types.js';
import { memoryNamespaces } from '../../../src/stores/namespace.js';
import { MemoryReviewStore } from '../../../src/stores/review-memory.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';
import { sleep, waitFor } from '../../support/wait.js';

interface Logged {
  level: 'info' | 'warn' | 'error';
  object: Record<string, unknown>;
  message: string;
}

function reviewLoop(
  options: { updateFails?: Error; cardRefreshMs?: number; failingSnapshotWrites?: number } = {},
) {
  let failingSnapshotWrites = options.failingSnapshotWrites ?? 0;
  const logged: Logged[] = [];
  const shown: ReviewCard[] = [];
  const answers: Array<{ userId: string; operatorId: string; text: string }> = [];
  const board: ReviewBoard = {
    async show(card) {
      shown.push(card);
      return card.posted ?? { conversationId: 'C0REVIEW', messageId: `${shown.length}.0` };
    },
    async tellAskerFixed() {},
    async tellAskerLinked() {},
    async linkTo() {
      return undefined;
    },
    async tellAskerAnswered(asker, answer) {
      if (asker.userId === 'U_GONE') throw new Error('channel_not_found');
      answers.push({ userId: asker.userId, ...answer });
    },
  };
  const log = (level: Logged['level']) => (object: object, message: string) => {
    logged.push({ level, object: object as Record<string, unknown>, message });
  };
  const snapshots = declaredNamespaces(memoryNamespaces({ maxEntries: 100 }), 60).entrySnapshots;
  const snapshotWrites: string[] = [];
  const review = composeReview({
    cards: new MemoryReviewStore({ maxEntries: 100 }),
    snapshots: {
      get: (docId) => snapshots.get(docId),
      put: async (snapshot) => {
        snapshotWrites.push(snapshot.docId);
        if (failingSnapshotWrites-- > 0) throw new Error('store unavailable');
        return snapshots.put(snapshot);
      },
    },
    links: declaredNamespaces(memoryNamespaces({ maxEntries: 100 }), 60).questionLinks,
    board,
    platform: accountKnowledge(
      {
        askRobot: () => Promise.reject(new Error('no entry is read in this test')),
        async updateRobotDoc() {
          if (options.updateFails) throw options.updateFails;
          return { retCode: '000000', retMsg: undefined };
        },
      },
      'sys1',
    ),
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    settings: {
      cardsEnabled: true,
      notifyAskersOnFix: false,
      cardRefreshMs: options.cardRefreshMs ?? 0,
    },
  });
  return { review, logged, shown, answers, snapshotWrites };
}

const report = {
  context: {
    uid: 'u1',
    cid: 'c1',
    msgId: 'm1',
    docId: 'doc-wifi',
    docName: 'How do I join the Wi-Fi?',
    robotFlag: 1,
    placement: undefined,
    partnerId: 'p1',
    askerUserId: 'U1',
    question: 'wifi password?',
    suggestions: [],
    rateable: true,
    conversationId: 'C1',
    threadId: '1.0',
    createdAt: 1,
  },
  asker: { userId: 'U1', displayName: 'Jane' },
  link: 'https://acme.slack.com/archives/C1/p1',
};
let linksAsked = 0;
const reasonReport = {
  ...report,
  link: async () => {
    linksAsked += 1;
    return report.link;
  },
};

describe('a reason given after its card was handled', () => {
  it('opens a new card, counted once, with the reason; a reason on an open card is only added', async () => {
    const { review, shown } = reviewLoop();
    await review.observer.disliked(report);
    const [first] = shown;
    expect(first?.count).toBe(1);
    if (!first) throw new Error('no card shown');

    expect(await review.observer.reasonGiven(reasonReport, { reason: 'wrong_answer', at: 2 })).toBe('noted');
    expect(shown.at(-1)).toMatchObject({ count: 1, reasons: [{ reason: 'wrong_answer' }] });
    // The open card has its link: none asked for.
    expect(linksAsked).toBe(0);

    expect(await review.desk.dismiss(first.id, 'U0OP')).toBe('dismissed');
    const outcome = await review.observer.reasonGiven(reasonReport, {
      reason: 'out_of_date',
      text: ' moved ',
      at: 3,
    });
    expect(outcome).toBe('reopened');
    const reopened = shown.at(-1);
    expect(reopened).toMatchObject({
      status: 'open',
      count: 1,
      docId: 'doc-wifi',
      question: 'wifi password?',
      reasons: [{ reason: 'out_of_date', text: 'moved', at: 3 }],
      latestLink: report.link,
      notify: [{ userId: 'U1', conversationId: 'C1', threadId: '1.0' }],
    });
    // A new post, not the dismissed one changed: the dismissed card keeps its record.
    expect(reopened?.posted).toBeUndefined();
  });
});

describe('a failed knowledge update', () => {
  it('is logged as a warning with its context, and no stack for a code the platform answered', async () => {
    const { review, logged } = reviewLoop({
      updateFails: new PlatformCodeError('update_robot_doc', '100012', 'doc not found'),
    });
    const outcome = await review.desk.applyEdit(
      { docId: 'doc-gone', robotFlag: 1, usedFlag: 1 },
      ['usedFlag'],
      'U0OP',
      { requestId: 'req-1' },
    );
    expect(outcome).toEqual({ kind: 'refused', platformCode: '100012', message: 'doc not found' });
    const line = logged.find((entry) => entry.message === 'knowledge entry update failed');
    expect(line?.level).toBe('warn');
    expect(line?.object).toMatchObject({
      requestId: 'req-1',
      operator: 'U0OP',
      docId: 'doc-gone',
      result: 'refused',
      platformCode: '100012',
      platformMessage: 'doc not found',
    });
    expect(line?.object).not.toHaveProperty('err');
  });

  it('logs an unexpected error with its stack, and the update as a warning', async () => {
    const { review, logged } = reviewLoop({ updateFails: new TypeError('bug') });
    const outcome = await review.desk.applyEdit(
      { docId: 'd', robotFlag: 1, usedFlag: 0 },
      ['usedFlag'],
      'U0OP',
    );
    expect(outcome).toEqual({ kind: 'unavailable', reason: 'internal' });
    expect(logged.find((entry) => entry.level === 'error')?.object.err).toBeInstanceOf(TypeError);
    expect(logged.find((entry) => entry.message === 'knowledge entry update failed')?.level).toBe('warn');
  });
});

const unanswered = (userId: string, question: string) => ({
  asker: { userId, displayName: userId },
  question,
  conversationId: 'C1',
  threadId: `${userId}.0`,
  docId: undefined,
  matchedQuestion: undefined,
  answerHtml: '',
  answerType: 3,
  robotFlag: undefined,
});

describe("an operator's answer to an unanswered question", () => {
  it('marks the card answered once and gives each asker the answer; one not reached is counted', async () => {
    const { review, shown, answers } = reviewLoop();
    review.observer.answered(unanswered('U1', 'Can I bring my llama to work?'));
    await review.settled();
    review.observer.answered(unanswered('U_GONE', 'can i bring my llama to work'));
    await review.settled();
    const card = shown.at(-1);
    if (!card) throw new Error('no card shown');
    expect(card).toMatchObject({ kind: 'unanswered', count: 2 });

    const outcome = await review.desk.answerAskers(card.id, { operatorId: 'U0OP', text: 'Only on Fridays.' });
    expect(outcome).toEqual({ kind: 'answered', told: 1, notTold: 1 });
    expect(answers).toEqual([{ userId: 'U1', operatorId: 'U0OP', text: 'Only on Fridays.' }]);
    expect(shown.at(-1)).toMatchObject({ status: 'answered', handledBy: 'U0OP', notify: [] });

    // A second operator (or a second click) finds it handled, and nobody is told twice.
    expect(await review.desk.answerAskers(card.id, { operatorId: 'U0OP2', text: 'No.' })).toEqual({
      kind: 'already_handled',
    });
    expect(answers).toHaveLength(1);
    expect(await review.desk.answerAskers('q:0', { operatorId: 'U0OP', text: 'x' })).toEqual({
      kind: 'no_card',
    });
  });
});

describe("a disliked entry's card, answered or linked as if it were an unanswered question", () => {
  it('is refused as no such card, as the Slack side says, and changes nothing', async () => {
    const { review, shown, answers } = reviewLoop();
    await review.observer.disliked(report);
    const card = shown.at(-1);
    if (!card) throw new Error('no card shown');
    expect(await review.desk.answerAskers(card.id, { operatorId: 'U0OP', text: 'x' })).toEqual({
      kind: 'no_card',
    });
    expect(await review.desk.link(card.id, { docId: 'doc-x', entryTitle: undefined }, 'U0OP')).toBe(
      'no_card',
    );
    expect(answers).toEqual([]);
    expect(await review.desk.card(card.id)).toMatchObject({ kind: 'disliked', status: 'open' });
  });
});

describe('a card asked about by many at once', () => {
  it('counts every report at once, and refreshes its message once for them after the interval', async () => {
    // An interval a busy machine's pause cannot pass before the three reports are counted and checked.
    const { review, shown } = reviewLoop({ cardRefreshMs: 1_000 });
    review.observer.answered(unanswered('U1', 'Can I bring my llama to work?'));
    await review.settled();
    expect(shown).toHaveLength(1);
    const cardId = shown[0]?.id ?? '';
    for (const userId of ['U2', 'U3', 'U4'])
      review.observer.answered(unanswered(userId, 'can I bring my llama to work?'));
    await waitFor(async () => (await review.desk.card(cardId))?.count === 4);
    // Counted and stored, the message not updated per report.
    expect(shown).toHaveLength(1);
    await waitFor(() => shown.length === 2, { timeoutMs: 5_000 });
    expect(shown[1]).toMatchObject({ id: cardId, count: 4, latestAsker: { userId: 'U4' } });
    await sleep(1_100);
    expect(shown).toHaveLength(2);
    // Once the interval has passed, the next report shows at once.
    review.observer.answered(unanswered('U5', 'Can I bring my llama to work'));
    await waitFor(() => shown.length === 3);
    expect(shown[2]).toMatchObject({ count: 5 });
  });

  it('shows what is counted when the gateway stops, without waiting for the interval', async () => {
    const { review, shown } = reviewLoop({ cardRefreshMs: 60_000 });
    review.observer.answered(unanswered('U1', 'Can I bring my llama to work?'));
    await review.settled();
    review.observer.answered(unanswered('U2', 'Can I bring my llama to work?'));
    await review.settled();
    expect(shown.map((card) => card.count)).toEqual([1, 2]);
  });
});

describe('what the robot answered from an entry', () => {
  const fromEntry = (answerHtml: string) => ({
    ...unanswered('U1', 'How do I reset my password?'),
    docId: 'doc-password',
    matchedQuestion: 'How do I reset my password?',
    answerHtml,
    answerType: 1,
  });

  it('is written once while it stays the same, and again when it changes', async () => {
    const { review, snapshotWrites } = reviewLoop();
    for (let n = 0; n < 3; n++) review.observer.answered(fromEntry('<p>Use the portal.</p>'));
    await review.settled();
    expect(snapshotWrites).toEqual(['doc-password']);
    review.observer.answered(fromEntry('<p>Use the new portal.</p>'));
    await review.settled();
    expect(snapshotWrites).toEqual(['doc-password', 'doc-password']);
    expect((await review.desk.snapshot('doc-password'))?.answerHtml).toBe('<p>Use the new portal.</p>');
  });

  it('is written again at its next answer when the write failed', async () => {
    const { review, snapshotWrites, logged } = reviewLoop({ failingSnapshotWrites: 1 });
    review.observer.answered(fromEntry('<p>Use the portal.</p>'));
    await review.settled();
    expect(logged.map((entry) => entry.message)).toContain('answer not noted for review');
    review.observer.answered(fromEntry('<p>Use the portal.</p>'));
    await review.settled();
    expect(snapshotWrites).toEqual(['doc-password', 'doc-password']);
    expect((await review.desk.snapshot('doc-password'))?.answerHtml).toBe('<p>Use the portal.</p>');
  });
});
