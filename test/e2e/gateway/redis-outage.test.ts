// Redis going away under a running gateway and coming back, on a redis-server of this test's own.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  askByMention,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import { startRedis, startRedisOnFreePort, stopRedis } from '../../support/redis-server.js';
import { IDS } from '../../support/slack-payloads.js';
import { waitFor } from '../../support/wait.js';

let port: number;
let redis: ChildProcess | undefined;
let harness: GatewayHarness;

beforeAll(async () => {
  const started = await startRedisOnFreePort();
  port = started.port;
  redis = started.child;
  harness = await startGatewayHarness({
    env: {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_KEY_PREFIX: `test:outage:${process.pid}:${randomBytes(4).toString('hex')}:`,
      // The production timeout: what an outage costs a question is this test's subject.
      REDIS_COMMAND_TIMEOUT_MS: '300',
    },
  });
});
afterAll(async () => {
  await harness?.close();
  await stopRedis(redis);
});

const readiness = async () => (await fetch(`${harness.url}/readyz`)).status;
const liveness = async () => (await fetch(`${harness.url}/healthz`)).status;

describe('Redis lost while running', () => {
  it('keeps answering, fails politely where Redis is needed, and recovers when Redis returns', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    expect(await readiness()).toBe(200);

    await stopRedis(redis);
    redis = undefined;
    await waitFor(async () => ((await readiness()) === 503 ? true : undefined), {
      timeoutMs: 5_000,
      intervalMs: 100,
    });
    expect(await liveness()).toBe(200);

    // A rating needs the stored context: the user is told, privately, and nothing crashes.
    harness.slack.reset();
    const rateUp = buttonsOf(answer).find((candidate) => candidate.actionId === 'rate_up');
    if (!rateUp) throw new Error('the answer has no rating button');
    await harness.click(clickButton(answer, rateUp, { threadTs }));
    const notice = await harness.slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.body.user === IDS.user,
    );
    expect(textOf(notice)).toContain("can't reach my storage");
    expect(harness.feedbacks().filter((feedback) => feedback.status === 1)).toHaveLength(0);

    // A new question is still answered; without a stored context it offers no rating.
    const during = await askByMention(harness, 'How do I connect to the VPN?');
    expect(textOf(during.answer)).toContain('VPN');
    expect(buttonsOf(during.answer).some((b) => b.actionId === 'rate_up')).toBe(false);
    expect(harness.logs.some((line) => line.level >= 40 && String(line.msg).includes('not stored'))).toBe(
      true,
    );

    redis = await startRedis(port);
    await waitFor(async () => ((await readiness()) === 200 ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    const after = await askByMention(harness, 'How do I reset my password?');
    expect(buttonsOf(after.answer).some((b) => b.actionId === 'rate_up')).toBe(true);
  }, 30_000);
});
