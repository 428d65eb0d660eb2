import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newContextKey } from '../../../src/conversation/context-key.js';
import { Conversation, failureReason, singleAccount } from '../../../src/conversation/conversation.js';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import type { AnswerReply, Asker } from '../../../src/conversation/types.js';
import { PlatformClient, StaticTokenProvider } from '../../../src/platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { MemoryContextStore } from '../../../src/stores/memory.js';
import { memoryRatings } from '../../support/memory-stores.js';

let simulator: Simulator;
let platform: PlatformClient;
let contexts: MemoryContextStore;
let conversation: Conversation;
const logged: Array<{ level: string; object: object; message: string }> = [];

const asker: Asker = { partnerId: 'slack-T1-U1', userId: 'U1', displayName: 'Jane', locale: 'en' };
const place = {
  conversationId: 'C1',
  threadId: '1700000000.000100',
  placement: { robotFlag: undefined, source: 2, language: 'auto', reply: 'thread' } as const,
};

beforeAll(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  platform = new PlatformClient({
    openUrl: simulator.url,
    baseUrl: simulator.url,
    tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
    timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000 },
    retry: { attempts: 0 },
  });
});
afterAll(async () => {
  await platform.close();
  await simulator.close();
});
beforeEach(() => {
  simulator.faults.clear();
  logged.length = 0;
  contexts = new MemoryContextStore({ maxEntries: 100, ttlSeconds: 3600 });
  conversation = conversationWith(10);
});

function conversationWith(maxQuestionLength: number): Conversation {
  return new Conversation({
    accounts: singleAccount({ robot: platform, sysNum: 'acme', demo: false }),
    contexts,
    ratings: memoryRatings({ maxEntries: 100 }),
    settings: {
      maxQuestionLength,
      contextTtlSeconds: 3600,
    },
    logger: {
      info: (object, message) => logged.push({ level: 'info', object, message }),
      warn: (object, message) => logged.push({ level: 'warn', object, message }),
      error: (object, message) => logged.push({ level: 'error', object, message }),
    },
    newKey: newContextKey,
  });
}

async function answer(text: string): Promise<AnswerReply> {
  const reply = await conversation.ask({ asker, text, ...place });
  if (reply.kind !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(reply)}`);
  return reply;
}

describe('Conversation.ask', () => {
  it('answers with help for an empty question and refuses an over-long one, counting characters not bytes', async () => {
    await expect(conversation.ask({ asker, text: '   ', ...place })).resolves.toMatchObject({
      notice: 'help',
    });
    await expect(conversation.ask({ asker, text: 'x'.repeat(11), ...place })).resolves.toMatchObject({
      notice: 'question_too_long',
      limit: 10,
    });
    // Ten Chinese characters are ten characters, however many bytes they take.
    await expect(conversation.ask({ asker, text: '忘记密码怎么办呢？？', ...place })).resolves.toMatchObject({
      kind: 'answer',
    });
    expect(simulator.stats().asks).toBe(1);
  });

  it('stores what a later rating needs, under the key the reply carries', async () => {
    const reply = await answer('VPN');
    const stored = await contexts.get(reply.contextKey);
    expect(stored).toMatchObject({
      docId: 'doc-vpn-connect',
      docName: 'How do I connect to the VPN?',
      askerUserId: 'U1',
      partnerId: 'slack-T1-U1',
      robotFlag: 1,
      rateable: true,
      conversationId: 'C1',
    });
    expect(stored?.msgId).toMatch(/^m-/);
    expect(reply.suggestions.length).toBeGreaterThan(0);
    expect(reply.rateable).toBe(true);
  });

  it('sends source from the placement and the question as requestText', async () => {
    await answer('VPN');
    const sent = simulator.received.at(-1)?.body;
    expect(sent).toMatchObject({ data: { source: 2, questionFlag: 0, requestText: 'VPN', uname: 'Jane' } });
  });

  it('asks a suggestion with the placement of the answer that offered it, not of where it was clicked', async () => {
    conversation = conversationWith(200);
    const first = await conversation.ask({
      asker,
      text: 'VPN',
      ...place,
      placement: { robotFlag: 2, source: 3, language: 'zh-CN', reply: 'thread' },
    });
    if (first.kind !== 'answer') throw new Error('expected an answer');
    const offered = first.suggestions[0];
    if (!offered) throw new Error('expected a suggestion');
    const second = await conversation.ask({
      asker,
      text: offered.question,
      ...place,
      suggestion: { contextKey: first.contextKey, docId: offered.docId, question: offered.question },
    });
    expect(second.kind).toBe('answer');
    expect(simulator.received.at(-1)?.body).toMatchObject({
      data: { robotFlag: 2, source: 3, questionFlag: 1, requestText: offered.docId },
    });
    expect((await contexts.get(first.contextKey))?.placement).toEqual({
      robotFlag: 2,
      source: 3,
      language: 'zh-CN',
      reply: 'thread',
    });
  });

  it('offers no rating on an "unknown question" answer', async () => {
    const reply = await answer('plugh');
    expect(reply.rateable).toBe(false);
  });

  it('turns each platform failure into a failure reply that can be retried, and logs it', async () => {
    const cases = [
      [{ kind: 'http500' }, 'unavailable'],
      [{ kind: 'code', code: '1001' }, 'refused'],
      [{ kind: 'malformed' }, 'malformed'],
      [{ kind: 'drop' }, 'unreachable'],
      [{ kind: 'delay', ms: 2500 }, 'timeout'],
    ] as const;
    for (const [fault, reason] of cases) {
      simulator.faults.set({ ...fault, times: 1 });
      const reply = await conversation.ask({ asker, text: 'VPN', ...place });
      expect(reply).toMatchObject({ kind: 'failure', reason, retry: { question: 'VPN' } });
    }
    // The platform's failures, every one: warnings, as the gateway did nothing wrong.
    expect(logged.filter((line) => line.level === 'warn')).toHaveLength(cases.length);
    expect(logged.filter((line) => line.level === 'error')).toEqual([]);
    expect(logged[0]?.object).toMatchObject({ action: 'chat_user_robot_ask', httpStatus: 500 });
  }, 15_000);
});

describe('Conversation.rate', () => {
  it('sends feedback once, for the asker only', async () => {
    const reply = await answer('VPN');
    await expect(
      conversation.rate({ contextKey: reply.contextKey, rating: 1, userId: 'U2', locale: 'en' }),
    ).resolves.toMatchObject({ kind: 'notice', reply: { notice: 'not_your_answer' } });
    await expect(
      conversation.rate({ contextKey: reply.contextKey, rating: 1, userId: 'U1', locale: 'en' }),
    ).resolves.toMatchObject({ kind: 'rated', rating: 1 });
    await expect(
      conversation.rate({ contextKey: reply.contextKey, rating: 2, userId: 'U1', locale: 'en' }),
    ).resolves.toMatchObject({ kind: 'notice', reply: { notice: 'already_rated' }, rating: 1 });
    expect(simulator.stats().feedback).toBe(1);
  });

  it('forgets a rating the platform refused, so the user can rate again', async () => {
    const reply = await answer('VPN');
    simulator.faults.set({ kind: 'http500', actions: ['robot_feedback'], times: 1 });
    await expect(
      conversation.rate({ contextKey: reply.contextKey, rating: 2, userId: 'U1', locale: 'en' }),
    ).resolves.toEqual({ kind: 'failure', reason: 'unavailable' });
    await expect(
      conversation.rate({ contextKey: reply.contextKey, rating: 2, userId: 'U1', locale: 'en' }),
    ).resolves.toMatchObject({ kind: 'rated', rating: 2 });
  });

  it('says the context expired for an unknown key', async () => {
    await expect(
      conversation.rate({ contextKey: newContextKey(), rating: 1, userId: 'U1', locale: 'zh-CN' }),
    ).resolves.toMatchObject({ kind: 'notice', reply: { notice: 'context_expired', locale: 'zh-CN' } });
  });
});

describe('failureReason', () => {
  it('maps a store outage and unknown errors', () => {
    expect(failureReason(new StoreUnavailableError('down'))).toBe('store_unavailable');
    expect(failureReason(new Error('boom'))).toBe('internal');
  });
});
