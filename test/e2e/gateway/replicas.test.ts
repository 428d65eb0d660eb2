import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  DEFAULT_SIMULATOR_TOKEN,
  type Simulator,
  startSimulator,
} from '../../../src/simulator/index.js';
import {
  askByMention,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  SIGNING_SECRET,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import { deleteKeysWithPrefix } from '../../support/redis-server.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const keyPrefix = `test:replicas:${process.pid}:${randomBytes(4).toString('hex')}:`;
let simulator: Simulator;
let replicaA: GatewayHarness;
let replicaB: GatewayHarness;

beforeAll(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  // Two gateway processes' worth of state: own HTTP servers, Slack clients and stores, one Redis.
  const env = {
    REDIS_URL,
    REDIS_KEY_PREFIX: keyPrefix,
    CS_ACCESS_TOKEN: '',
    CS_APP_ID: DEFAULT_SIMULATOR_APP_ID,
    CS_APP_KEY: DEFAULT_SIMULATOR_APP_KEY,
  };
  replicaA = await startGatewayHarness({ simulator, env });
  replicaB = await startGatewayHarness({ simulator, env });
});
afterAll(async () => {
  await replicaA.close();
  await replicaB.close();
  await simulator.close();
  await deleteKeysWithPrefix(keyPrefix);
});
beforeEach(() => {
  for (const replica of [replicaA, replicaB]) {
    replica.slack.reset();
    replica.slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
  }
});

function button(message: Parameters<typeof buttonsOf>[0], actionId: string) {
  const found = buttonsOf(message).find((candidate) => candidate.actionId === actionId);
  if (!found) throw new Error(`no ${actionId} button`);
  return found;
}

describe('two replicas on one Redis', () => {
  it('an answer from replica A is rated and its suggestion clicked through replica B', async () => {
    const { answer, threadTs } = await askByMention(replicaA, 'How do I reset my password?');
    const feedbacksBefore = replicaB.feedbacks().length;

    await replicaB.click(clickButton(answer, button(answer, 'rate_up'), { threadTs }));
    await replicaB.slack.waitForCall('chat.update', (call) => textOf(call).includes('rated this answer'));
    expect(replicaB.feedbacks().slice(feedbacksBefore)).toEqual([
      expect.objectContaining({ status: 1, docId: 'doc-password-reset' }),
    ]);

    const asksBefore = simulator.received.length;
    await replicaB.click(clickButton(answer, button(answer, 'suggestion:0'), { threadTs }));
    await replicaB.slack.waitForCall('chat.update', (call) => textOf(call).includes('Jane Doe asked:'));
    const asks = simulator.received
      .slice(asksBefore)
      .map((request) => request.body)
      .filter(
        (body): body is { action: string; data: Record<string, unknown> } =>
          typeof body === 'object' &&
          body !== null &&
          'action' in body &&
          body.action === 'chat_user_robot_ask',
      );
    expect(asks.map((ask) => ask.data.questionFlag)).toEqual([1]);

    // The "already rated" mark is shared too: a second click through replica A sends nothing.
    const feedbacksAfter = replicaA.feedbacks().length;
    await replicaA.click(clickButton(answer, button(answer, 'rate_down'), { threadTs }));
    const notice = await replicaA.slack.waitForCall('chat.postEphemeral');
    expect(textOf(notice)).toContain('already been rated');
    // ...and the message shows the rating that holds, 👍, whichever replica is asked.
    const shown = await replicaA.slack.waitForCall('chat.update', (call) =>
      textOf(call).includes('rated this answer'),
    );
    expect(textOf(shown)).toContain('👍 helpful');
    expect(replicaA.feedbacks().length).toBe(feedbacksAfter);
  });

  it('the same event delivered to both replicas is answered once', async () => {
    const event = appMention({ text: `<@${IDS.botUser}> How do I connect to the VPN?` });
    const envelope = eventCallback(event);
    const asksBefore = replicaA.robotAsks().length;
    const responses = await Promise.all([
      sendEvent(replicaA.url, SIGNING_SECRET, envelope),
      sendEvent(replicaB.url, SIGNING_SECRET, envelope),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    const answers = () =>
      [...new Set([...replicaA.slack.calls('chat.update'), ...replicaB.slack.calls('chat.update')])].filter(
        (call) => textOf(call).includes('VPN'),
      );
    // Both deliveries handled: one answered, the other found a duplicate (a fixed pause could end
    // before a busy machine had answered either).
    await waitFor(
      () =>
        answers().length > 0 &&
        [...replicaA.logs, ...replicaB.logs].some(
          (line) => line.msg === 'duplicate delivery ignored' && line.ts === event.ts,
        ),
      { timeoutMs: 10_000, message: 'one delivery answered, the other ignored' },
    );
    expect(replicaA.robotAsks().length - asksBefore).toBe(1);
    expect(answers()).toHaveLength(1);
  });

  it('holds a delivery only briefly while answering it, then for hours once answered', async () => {
    // A replica that dies mid-answer leaves only the short hold, so Slack's retry (1 and 5 minutes
    // later) reaches a live replica and is answered rather than dropped as a duplicate.
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    try {
      simulator.faults.set({ kind: 'delay', ms: 600, actions: ['chat_user_robot_ask'], times: 1 });
      const event = appMention({ text: `<@${IDS.botUser}> How do I apply for leave?` });
      const deliveryKey = `${keyPrefix}once:msg:${IDS.team}:${event.channel}:${event.ts}`;
      await sendEvent(replicaA.url, SIGNING_SECRET, eventCallback(event));
      // Read as soon as the claim is there, while the robot takes its 600 ms.
      const whileAnswering = await waitFor(
        async () => {
          const ttl = await redis.ttl(deliveryKey);
          return ttl > 0 ? ttl : undefined;
        },
        { intervalMs: 20, message: 'the delivery claimed' },
      );
      expect(whileAnswering).toBeLessThanOrEqual(5 * 60);

      await replicaA.slack.waitForCall('chat.update', (call) => textOf(call).includes('leave'));
      // Kept once the answer is done, a few turns of the event loop after Slack took it.
      await waitFor(async () => (await redis.ttl(deliveryKey)) > 3 * 3600, {
        message: 'the delivery kept for hours',
      });
    } finally {
      simulator.faults.clear();
      await redis.quit();
    }
  });

  it('shares one platform token between the replicas', async () => {
    await askByMention(replicaA, 'How do I reset my password?');
    await askByMention(replicaB, 'How do I reset my password?');
    expect(simulator.stats().tokensIssued).toBe(1);
  });
});
