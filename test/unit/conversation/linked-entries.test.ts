// The conversation core's use of LinkedEntries, with a robot that answers as told: a question the
// robot does not match is answered from the entry an operator linked its words to (asked by docId),
// and whatever goes wrong on that second path leaves the robot's own "no answer" standing.
import { describe, expect, it } from 'vitest';
import {
  Conversation,
  type LinkedEntries,
  type QuestionInput,
  singleAccount,
} from '../../../src/conversation/conversation.js';
import type { AnswerReply, Reply } from '../../../src/conversation/types.js';
import type { RobotAnswer, RobotAskRequest } from '../../../src/platform/schemas.js';
import { MemoryContextStore } from '../../../src/stores/memory.js';
import { memoryRatings } from '../../support/memory-stores.js';

const NO_MATCH = 3;

function robotAnswer(fields: Partial<RobotAnswer>): RobotAnswer {
  return {
    answer: '',
    suggestions: [],
    question: undefined,
    docId: undefined,
    uid: 'u1',
    cid: 'c1',
    msgId: 'm1',
    stripe: undefined,
    robotFlag: 1,
    answerType: 1,
    sessionNew: false,
    ...fields,
  };
}

const noMatch = robotAnswer({ answer: 'I have no answer', answerType: NO_MATCH, robotFlag: 7 });
const fromEntry = robotAnswer({
  answer: 'Use the portal',
  question: 'Reset?',
  docId: 'doc-reset',
  robotFlag: 7,
});

/** A core over a robot that answers a typed question with `typed`, and an ask by docId with `byDoc`. */
function core(options: {
  typed: RobotAnswer;
  byDoc?: () => Promise<RobotAnswer>;
  links: LinkedEntries | undefined;
}) {
  const asks: RobotAskRequest[] = [];
  const logged: Array<{ level: string; message: string }> = [];
  const log = (level: string) => (_object: object, message: string) => logged.push({ level, message });
  const conversation = new Conversation({
    accounts: singleAccount({
      sysNum: 'acme',
      demo: false,
      robot: {
        async askRobot(request: RobotAskRequest) {
          asks.push(request);
          if (request.questionFlag === 1) return options.byDoc ? options.byDoc() : fromEntry;
          return options.typed;
        },
        async sendRobotFeedback() {},
      },
    }),
    contexts: new MemoryContextStore({ maxEntries: 10, ttlSeconds: 60 }),
    ratings: memoryRatings({ maxEntries: 10 }),
    settings: { maxQuestionLength: 500, contextTtlSeconds: 60 },
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    newKey: () => `k${asks.length}`,
    ...(options.links ? { links: options.links } : {}),
  });
  return { conversation, asks, logged };
}

const question: QuestionInput = {
  asker: { partnerId: 'p1', userId: 'U1', displayName: 'Jane', locale: 'en' },
  text: 'Which llama resets passwords?',
  conversationId: 'C1',
  threadId: '1.0',
  placement: { robotFlag: undefined, source: undefined, language: 'auto', reply: 'thread' },
};

function answerOf(reply: Reply): AnswerReply {
  if (reply.kind !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(reply)}`);
  return reply;
}

/** Links that know one question, for the robot that answered (7). */
const links = (seen: Array<[string, number | undefined]> = []): LinkedEntries => ({
  async entryFor(words, robotFlag) {
    seen.push([words, robotFlag]);
    return robotFlag === 7 && words === question.text ? 'doc-reset' : undefined;
  },
});

describe('a question the robot does not match', () => {
  it('is answered from the linked entry, asked by its docId of the robot that answered', async () => {
    const seen: Array<[string, number | undefined]> = [];
    const { conversation, asks } = core({ typed: noMatch, links: links(seen) });
    const reply = answerOf(await conversation.ask(question));
    expect(reply).toMatchObject({
      answerHtml: 'Use the portal',
      docId: 'doc-reset',
      matched: true,
      rateable: true,
    });
    expect(seen).toEqual([[question.text, 7]]);
    expect(asks.map((ask) => [ask.questionFlag, ask.requestText])).toEqual([
      [0, question.text],
      [1, 'doc-reset'],
    ]);
  });

  it('keeps the robot’s own “no answer” without a link, or when the entry answers nothing now', async () => {
    const unlinked = core({ typed: noMatch, links: { entryFor: async () => undefined } });
    expect(answerOf(await unlinked.conversation.ask(question))).toMatchObject({ matched: false });
    expect(unlinked.asks).toHaveLength(1);

    const gone = core({ typed: noMatch, links: links(), byDoc: async () => noMatch });
    expect(answerOf(await gone.conversation.ask(question))).toMatchObject({
      answerHtml: 'I have no answer',
      matched: false,
    });
    expect(gone.logged).toContainEqual({
      level: 'warn',
      message: 'the linked entry did not answer (removed or disabled?)',
    });
  });

  it('keeps “no answer” when the links cannot be read or the robot fails on the entry', async () => {
    const down = core({
      typed: noMatch,
      links: { entryFor: () => Promise.reject(new Error('store down')) },
    });
    expect(answerOf(await down.conversation.ask(question))).toMatchObject({ matched: false });
    expect(down.asks).toHaveLength(1);

    const failing = core({
      typed: noMatch,
      links: links(),
      byDoc: () => Promise.reject(new Error('robot down')),
    });
    expect(answerOf(await failing.conversation.ask(question))).toMatchObject({
      answerHtml: 'I have no answer',
      matched: false,
    });
  });

  it('is never redirected when the robot matched, and a matched answer costs no link lookup', async () => {
    const seen: Array<[string, number | undefined]> = [];
    const matched = core({
      typed: robotAnswer({ answer: 'Typed answer', docId: 'doc-own' }),
      links: links(seen),
    });
    expect(answerOf(await matched.conversation.ask(question))).toMatchObject({ answerHtml: 'Typed answer' });
    expect(seen).toEqual([]);
  });
});

describe('Ask again on a linked question (byLink)', () => {
  it('asks by the linked entry first, of the placement’s robot, with no typed ask', async () => {
    const seen: Array<[string, number | undefined]> = [];
    const { conversation, asks } = core({ typed: noMatch, links: links(seen) });
    const placement = { ...question.placement, robotFlag: 7 };
    const reply = answerOf(await conversation.ask({ ...question, placement, byLink: true }));
    expect(reply).toMatchObject({ answerHtml: 'Use the portal', docId: 'doc-reset' });
    expect(seen).toEqual([[question.text, 7]]);
    expect(asks.map((ask) => [ask.questionFlag, ask.requestText, ask.robotFlag])).toEqual([
      [1, 'doc-reset', 7],
    ]);
  });

  it('asks as typed once the link is gone', async () => {
    const { conversation, asks } = core({ typed: noMatch, links: { entryFor: async () => undefined } });
    const reply = answerOf(await conversation.ask({ ...question, byLink: true }));
    expect(reply).toMatchObject({ matched: false });
    expect(asks.map((ask) => ask.questionFlag)).toEqual([0]);
  });
});
