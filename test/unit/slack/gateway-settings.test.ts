// The Slack side owns what a Try again button can carry, so it refuses a longer question limit when built.

import { describe, expect, it } from 'vitest';
import { createListenerDeps, type SlackListeners } from '../../../src/composition/listeners.js';
import { newContextKey } from '../../../src/conversation/context-key.js';
import { Conversation } from '../../../src/conversation/conversation.js';
import { createLogger } from '../../../src/logging/logger.js';
import { UsergroupDirectory } from '../../../src/slack/access/usergroups.js';
import { ChannelDirectory } from '../../../src/slack/channels/directory.js';
import { GatewayConfigurationError } from '../../../src/slack/handling/configuration-error.js';
import { UserDirectory } from '../../../src/slack/handling/user-directory.js';
import { TRY_AGAIN_QUESTION_MAX } from '../../../src/slack/kit/button-values.js';
import { Responder } from '../../../src/slack/transport/responder.js';
import { MemoryAssistantContextStore } from '../../../src/stores/assistant-contexts.js';
import { MemoryChannelSettingsStore } from '../../../src/stores/channel-settings.js';
import { MemoryContextStore, MemoryOnceStore, MemoryRatingStore } from '../../../src/stores/memory.js';
import { memoryNamespaces } from '../../../src/stores/namespace.js';
import { MemoryOperatorCache } from '../../../src/stores/review-memory.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';
import { noOperators, reviewOff } from '../../support/listener-fakes.js';

function gatewayWith(maxQuestionLength: number): SlackListeners {
  const conversation = new Conversation({
    robot: {
      askRobot: () => Promise.reject(new Error('not asked in this test')),
      sendRobotFeedback: () => Promise.reject(new Error('not sent in this test')),
    },
    contexts: new MemoryContextStore({ maxEntries: 10, ttlSeconds: 60 }),
    ratings: new MemoryRatingStore({ maxEntries: 10 }),
    settings: {
      sysNum: 'acme',
      maxQuestionLength,
      contextTtlSeconds: 60,
      demo: false,
    },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newKey: newContextKey,
  });
  return createListenerDeps({
    conversation,
    review: reviewOff(),
    operators: noOperators(),
    tickets: { listTickets: () => Promise.reject(new Error('tickets are not listed in this test')) },
    agents: { listAgents: () => Promise.reject(new Error('agents are not listed in this test')) },
    statistics: {
      getSessionMessageStatistics: () => Promise.reject(new Error('no statistics in this test')),
      getHumanSatisfactionStatistics: () => Promise.reject(new Error('no statistics in this test')),
    },
    responder: new Responder(),
    deliveries: new MemoryOnceStore({ maxEntries: 10 }),
    threads: new MemoryOnceStore({ maxEntries: 10 }),
    assistantContexts: new MemoryAssistantContextStore({ maxEntries: 10 }),
    users: new UserDirectory(declaredNamespaces(memoryNamespaces({ maxEntries: 10 }), 60).names, 'en'),
    channels: new ChannelDirectory(new MemoryChannelSettingsStore(), {
      defaults: { robotFlag: undefined, source: undefined, language: 'auto', reply: 'thread' },
      logger: createLogger({ level: 'silent' }),
    }),
    directEscalation: undefined,
    usergroups: new UsergroupDirectory(new MemoryOperatorCache(), { refreshMs: 60_000, what: 'user group' }),
    settings: {
      defaultLocale: 'en',
      dedupTtlSeconds: 3600,
      handlingLeaseSeconds: 120,
      threadTtlSeconds: 60,
      placeholderDelayMs: 0,
      ratingButtons: 'classic',
      assistantPrompts: undefined,
      questionDeadlineMs: 1000,
    },
    logger: createLogger({ level: 'silent' }),
  });
}

describe('MAX_QUESTION_LENGTH', () => {
  it('may not exceed what a Try again button can carry, with one line', () => {
    let thrown: unknown;
    try {
      gatewayWith(TRY_AGAIN_QUESTION_MAX + 1);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayConfigurationError);
    if (thrown instanceof GatewayConfigurationError)
      expect([thrown.problem]).toEqual([`MAX_QUESTION_LENGTH: must be at most ${TRY_AGAIN_QUESTION_MAX}`]);
  });

  it('takes exactly what a Try again button can carry', () => {
    expect(() => gatewayWith(TRY_AGAIN_QUESTION_MAX)).not.toThrow();
  });
});
