// The review loop's links of unanswered questions to entries, on the memory stores and a robot that
// answers as told: reading an entry by its docId, linking (only an open unanswered card), who is told,
// what the conversation's entryFor then finds, and removing a link.
import { describe, expect, it } from 'vitest';
import type { AnsweredQuestion } from '../../../src/conversation/conversation.js';
import type { RobotAnswer, RobotAskRequest } from '../../../src/platform/schemas.js';
import type { ReviewBoard } from '../../../src/review/review-cards.js';
import { accountKnowledge } from '../../../src/review/review-desk.js';
import { reviewLoop as composeReview, type ReviewLoop } from '../../../src/review/review-loop.js';
import type { AskerToNotify, QuestionLink, ReviewCard } from '../../../src/review/types.js';
import { memoryNamespaces } from '../../../src/stores/namespace.js';
import { MemoryReviewStore } from '../../../src/stores/review-memory.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';

function loop(robot: (request: RobotAskRequest) => Promise<RobotAnswer>) {
  const shown: ReviewCard[] = [];
  const told: Array<{ asker: AskerToNotify; link: QuestionLink }> = [];
  const asks: RobotAskRequest[] = [];
  const board: ReviewBoard = {
    async show(card) {
      shown.push(card);
      return card.posted ?? { conversationId: 'C0REVIEW', messageId: `${shown.length}.0` };
    },
    async linkTo() {
      return undefined;
    },
    async tellAskerFixed() {},
    async tellAskerAnswered() {},
    async tellAskerLinked(asker, link) {
      told.push({ asker, link });
    },
  };
  const snapshots = declaredNamespaces(memoryNamespaces({ maxEntries: 10 }), 60).entrySnapshots;
  const review = composeReview({
    cards: new MemoryReviewStore({ maxEntries: 10 }),
    snapshots,
    links: declaredNamespaces(memoryNamespaces({ maxEntries: 10 }), 60).questionLinks,
    board,
    platform: accountKnowledge(
      {
        askRobot: (request) => {
          asks.push(request);
          return robot(request);
        },
        updateRobotDoc: () => Promise.reject(new Error('no update in this test')),
      },
      'acme',
    ),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    settings: { cardsEnabled: true, notifyAskersOnFix: true, cardRefreshMs: 0 },
  });
  return { review, shown, told, asks, snapshots };
}

function entryAnswer(docId: string): RobotAnswer {
  return {
    answer: '<p>Use the portal</p>',
    suggestions: [],
    question: 'How do I reset my password?',
    docId,
    uid: 'u1',
    cid: 'c1',
    msgId: 'm1',
    stripe: undefined,
    robotFlag: 2,
    answerType: 1,
    sessionNew: false,
  };
}

const noAnswer: RobotAnswer = { ...entryAnswer(''), docId: '', answerType: 3, question: 'x' };

const unanswered: AnsweredQuestion = {
  asker: { userId: 'U1', displayName: 'Jane' },
  question: 'Which llama resets passwords?',
  conversationId: 'C1',
  threadId: '1.0',
  docId: undefined,
  matchedQuestion: undefined,
  answerHtml: 'I have no answer',
  answerType: 3,
  robotFlag: 2,
};

async function openCard(review: ReviewLoop): Promise<ReviewCard> {
  review.observer.answered(unanswered);
  await review.settled();
  const { unanswered: open } = (await review.desk.waiting(10)) ?? { unanswered: { cards: [] } };
  const [card] = open.cards;
  if (!card) throw new Error('no unanswered card');
  return card;
}

const operator = { partnerId: 'slack-T1-U0OP', displayName: 'Olivia' };

describe('reading an entry by its docId', () => {
  it('asks the card’s robot by the docId as the operator, and notes what it answered', async () => {
    const { review, asks, snapshots } = loop(async (request) => entryAnswer(request.requestText ?? ''));
    const found = await review.desk.lookUpEntry({
      docId: 'doc-reset',
      robotFlag: 2,
      question: unanswered.question,
      asker: operator,
    });
    expect(found).toEqual({ kind: 'found', docId: 'doc-reset', entryTitle: 'How do I reset my password?' });
    expect(asks).toEqual([
      {
        sysNum: 'acme',
        partnerId: operator.partnerId,
        uname: 'Olivia',
        question: unanswered.question,
        questionFlag: 1,
        requestText: 'doc-reset',
        robotFlag: 2,
      },
    ]);
    expect(await snapshots.get('doc-reset')).toMatchObject({
      questionTitle: 'How do I reset my password?',
      answerHtml: '<p>Use the portal</p>',
    });
  });

  it('is unknown when the robot answers nothing from it, unavailable when the robot fails', async () => {
    const nothing = loop(async () => noAnswer);
    const input = { docId: 'doc-nope', robotFlag: undefined, question: 'q?', asker: operator };
    expect(await nothing.review.desk.lookUpEntry(input)).toEqual({ kind: 'unknown' });
    expect(await nothing.snapshots.get('doc-nope')).toBeUndefined();
    // The default robot is asked without a robotFlag.
    expect(nothing.asks[0]).not.toHaveProperty('robotFlag');
    const failing = loop(() => Promise.reject(new Error('robot down')));
    expect(await failing.review.desk.lookUpEntry(input)).toEqual({ kind: 'unavailable' });
  });
});

describe('linking and unlinking', () => {
  it('links an open unanswered card for its robot, tells its askers once, and entryFor finds it', async () => {
    const { review, told, shown } = loop(async () => noAnswer);
    const card = await openCard(review);
    const entry = { docId: 'doc-reset', entryTitle: 'How do I reset my password?' };
    expect(await review.desk.link(card.id, entry, 'U0OP')).toBe('linked');
    await review.settled();
    expect(shown.at(-1)).toMatchObject({ status: 'linked', linked: entry, handledBy: 'U0OP', notify: [] });
    expect(told).toEqual([
      {
        asker: expect.objectContaining({ userId: 'U1', conversationId: 'C1', threadId: '1.0' }),
        link: expect.objectContaining({ docId: 'doc-reset', robotFlag: 2, question: unanswered.question }),
      },
    ]);
    // Any wording that normalises alike, for the robot it was asked of; not for another robot.
    expect(await review.observer.entryFor('which LLAMA resets passwords', 2)).toBe('doc-reset');
    expect(await review.observer.entryFor(unanswered.question, 1)).toBeUndefined();
    expect(await review.observer.entryFor(unanswered.question, undefined)).toBeUndefined();
    // A second link of the handled card is refused, and nobody is told again.
    expect(await review.desk.link(card.id, { docId: 'doc-other', entryTitle: undefined }, 'U0OP')).toBe(
      'already_handled',
    );
    await review.settled();
    expect(told).toHaveLength(1);
    expect(await review.observer.entryFor(unanswered.question, 2)).toBe('doc-reset');
  });

  it('removes a link: entryFor finds nothing, the card is open again; a card not linked says so', async () => {
    const { review, shown } = loop(async () => noAnswer);
    const card = await openCard(review);
    expect(await review.desk.unlink(card.id, 'U0OP')).toBe('not_linked');
    await review.desk.link(card.id, { docId: 'doc-reset', entryTitle: undefined }, 'U0OP');
    expect(await review.desk.unlink(card.id, 'U0OP')).toBe('unlinked');
    expect(await review.observer.entryFor(unanswered.question, 2)).toBeUndefined();
    expect(shown.at(-1)).toMatchObject({ status: 'open', linked: undefined, handledBy: undefined });
    expect(await review.desk.unlink('q:0123', 'U0OP')).toBe('no_card');
    expect(await review.desk.link('q:0123', { docId: 'doc-reset', entryTitle: undefined }, 'U0OP')).toBe(
      'no_card',
    );
  });

  it('refuses to link a card that was dismissed or answered, storing no link', async () => {
    const { review } = loop(async () => noAnswer);
    const card = await openCard(review);
    expect(await review.desk.dismiss(card.id, 'U0OP')).toBe('dismissed');
    expect(await review.desk.link(card.id, { docId: 'doc-reset', entryTitle: undefined }, 'U0OP')).toBe(
      'already_handled',
    );
    expect(await review.observer.entryFor(unanswered.question, 2)).toBeUndefined();
  });
});
