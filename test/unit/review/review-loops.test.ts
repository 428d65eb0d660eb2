// Installed in many workspaces: each answer goes to its own workspace's loop, with that workspace's board
// and cards; a workspace without a review channel keeps no cards; a stop waits for every workspace.
import { describe, expect, it } from 'vitest';
import type { AnsweredQuestion } from '../../../src/conversation/conversation.js';
import { ANSWER_TYPE_UNKNOWN } from '../../../src/platform/schemas.js';
import type { ReviewBoard } from '../../../src/review/review-cards.js';
import { accountKnowledge } from '../../../src/review/review-desk.js';
import { ReviewLoops } from '../../../src/review/review-loop.js';
import type { ReviewCard } from '../../../src/review/types.js';
import { memoryNamespaces } from '../../../src/stores/namespace.js';
import { MemoryReviewStore } from '../../../src/stores/review-memory.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';

function loops(channels: Record<string, boolean>) {
  const shown: Array<{ workspace: string; card: ReviewCard }> = [];
  const board = (workspace: string): ReviewBoard => ({
    async show(card) {
      // Slow, as Slack is: a stop must wait for it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      shown.push({ workspace, card });
      return { conversationId: `C0${workspace}REVIEW`, messageId: `${shown.length}.0` };
    },
    async tellAskerFixed() {},
    async tellAskerLinked() {},
    async tellAskerAnswered() {},
    async linkTo() {
      return undefined;
    },
  });
  const cards = new MemoryReviewStore({ maxEntries: 100 });
  const plain = declaredNamespaces(memoryNamespaces({ maxEntries: 100 }), 60);
  const unused = () => Promise.reject(new Error('no entry is read in this test'));
  const review = new ReviewLoops({
    logger: { info() {}, warn() {}, error() {} },
    settings: { notifyAskersOnFix: false, cardRefreshMs: 0 },
    partsOf: (workspace) => ({
      cards: cards.of(workspace),
      snapshots: plain.entrySnapshots.of(workspace),
      links: plain.questionLinks.of(workspace),
      board: board(workspace),
    }),
    settingsOf: async (workspace) => ({
      cardsEnabled: channels[workspace] === true,
      platform: accountKnowledge({ askRobot: unused, updateRobotDoc: unused }, `${workspace}-sys`),
    }),
  });
  return { review, shown, cards };
}

function unanswered(workspace: string, question: string): AnsweredQuestion {
  return {
    asker: { userId: 'U1', displayName: 'Jane' },
    workspace,
    question,
    conversationId: 'D1',
    threadId: undefined,
    docId: undefined,
    matchedQuestion: undefined,
    answerHtml: '',
    answerType: ANSWER_TYPE_UNKNOWN,
    robotFlag: undefined,
  };
}

describe('review loops per workspace', () => {
  it("puts each unanswered question on its own workspace's card and board, and a stop waits for them all", async () => {
    const { review, shown } = loops({ T0ACME: true, T0GLOBEX: true });
    review.answered(unanswered('T0ACME', 'which printer is ours'), {});
    review.answered(unanswered('T0ACME', 'which printer is ours'), {});
    review.answered(unanswered('T0GLOBEX', 'which printer is ours'), {});
    await review.settled();

    const last = (workspace: string) => shown.filter((shownCard) => shownCard.workspace === workspace).at(-1);
    expect(last('T0ACME')?.card.count).toBe(2);
    expect(last('T0GLOBEX')?.card.count).toBe(1);
    const acme = await review.of('T0ACME');
    const globex = await review.of('T0GLOBEX');
    expect((await acme.desk.waiting(5))?.unanswered.total).toBe(1);
    expect((await globex.desk.waiting(5))?.unanswered.cards.map((card) => card.count)).toEqual([1]);
  });

  it('keeps no card for a workspace without a review channel, and says so to its desk', async () => {
    const { review, shown, cards } = loops({ T0ACME: false });
    review.answered(unanswered('T0ACME', 'which printer is ours'), {});
    await review.settled();
    expect(shown).toEqual([]);
    expect((await cards.of('T0ACME').openCards('unanswered', 5)).total).toBe(0);
    const { desk } = await review.of('T0ACME');
    expect(desk.cardsEnabled).toBe(false);
    expect(await desk.waiting(5)).toBeUndefined();
  });
});
