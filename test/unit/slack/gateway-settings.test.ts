// The Slack side owns what a Try again button can carry, so it refuses a longer question limit when built.

import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createRoomKit, type SlackRoomKit } from '../../../src/composition/room-kit.js';
import { parseEnv } from '../../../src/config/env.js';
import { newContextKey } from '../../../src/conversation/context-key.js';
import { Conversation, singleAccount } from '../../../src/conversation/conversation.js';
import { createLogger } from '../../../src/logging/logger.js';
import { Metrics } from '../../../src/observability/metrics.js';
import { ChannelDirectory } from '../../../src/slack/channels/directory.js';
import { GatewayConfigurationError } from '../../../src/slack/handling/configuration-error.js';
import { UserDirectory } from '../../../src/slack/handling/user-directory.js';
import { TRY_AGAIN_QUESTION_MAX } from '../../../src/slack/kit/button-values.js';
import { Responder } from '../../../src/slack/transport/responder.js';
import { MemoryChannelSettingsStore } from '../../../src/stores/channel-settings.js';
import { MemoryContextStore, MemoryOnceStore } from '../../../src/stores/memory.js';
import { memoryNamespaces } from '../../../src/stores/namespace.js';
import { declaredNamespaces } from '../../../src/stores/stores.js';
import { reviewOff } from '../../support/listener-fakes.js';
import { memoryRatings } from '../../support/memory-stores.js';

function gatewayWith(maxQuestionLength: number): SlackRoomKit {
  const conversation = new Conversation({
    accounts: singleAccount({
      robot: {
        askRobot: () => Promise.reject(new Error('not asked in this test')),
        sendRobotFeedback: () => Promise.reject(new Error('not sent in this test')),
      },
      sysNum: 'acme',
      demo: false,
    }),
    contexts: new MemoryContextStore({ maxEntries: 10, ttlSeconds: 60 }),
    ratings: memoryRatings({ maxEntries: 10 }),
    settings: {
      maxQuestionLength,
      contextTtlSeconds: 60,
    },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newKey: newContextKey,
  });
  const env = parseEnv({
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_SIGNING_SECRET: 'secret',
    MAX_QUESTION_LENGTH: String(maxQuestionLength),
  });
  if (!env.ok) throw new Error(env.problems.join('; '));
  const stores = {
    ...declaredNamespaces(memoryNamespaces({ maxEntries: 10 }), 60),
    deliveries: new MemoryOnceStore({ maxEntries: 10 }),
    threads: new MemoryOnceStore({ maxEntries: 10 }),
  };
  const unused = () => Promise.reject(new Error('not called in this test'));
  return createRoomKit(env.env, {
    conversation,
    review: reviewOff(),
    responder: new Responder(),
    users: new UserDirectory(stores.names, 'en'),
    channels: new ChannelDirectory(new MemoryChannelSettingsStore(), {
      defaults: { robotFlag: undefined, source: undefined, language: 'auto', reply: 'thread' },
      logger: createLogger({ level: 'silent' }),
    }),
    stores,
    sources: {
      platform: {
        listTickets: unused,
        getSessionMessageStatistics: unused,
        getHumanSatisfactionStatistics: unused,
      },
      platformOf: () => ({
        listTickets: unused,
        listAgents: unused,
        getSessionMessageStatistics: unused,
        getHumanSatisfactionStatistics: unused,
      }),
      agentGroups: [],
      stores,
      metrics: new Metrics(),
      client: () => new webApi.WebClient('xoxb-test'),
    },
    settings: { slashCommand: '/cs' },
    metrics: new Metrics(),
    limits: { admit: async () => ({ kind: 'admitted' }) },
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
