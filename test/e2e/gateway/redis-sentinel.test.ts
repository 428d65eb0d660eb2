// Redis with Sentinel: every store contract through it, then the primary SIGKILLed while two replicas of the
// gateway answer a stream of questions, on the primary, replica and three sentinels that .ci/redis-sentinel
// starts (skipped without them, outside CI).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RedisConnection } from '../../../src/stores/redis-connection.js';
import {
  askByMention,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  SIGNING_SECRET,
  textOf,
  useRedisReplicas,
} from '../../support/gateway-harness.js';
import {
  deleteKeysOnPrimary,
  findSentinels,
  type KilledNode,
  killNode,
  primaryOf,
  restoreAsReplica,
  type SentinelSetup,
  waitUntilFailoverReady,
} from '../../support/redis-sentinel.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { sleep, waitFor } from '../../support/wait.js';
import { describeStoreContracts } from '../../unit/stores/contract/all.js';
import { redisSentinelStores } from '../../unit/stores/contract/redis.js';

const found = await findSentinels();

/** What the promotion may take at most, sentinels' votes included (down-after-milliseconds is 1 s). */
const PROMOTION_TIMEOUT_MS = 30_000;
/** The promise: ratings and de-duplication shared again this soon after the new primary is chosen. */
const RECOVERY_MS = 10_000;
const QUESTIONS = [
  { text: 'How do I reset my password?', answerHas: 'password' },
  { text: 'How do I connect to the VPN?', answerHas: 'VPN' },
];

/** Tries `attempt` again until it succeeds; fails once `deadline` has passed. */
async function workingAgainBy(
  deadline: number,
  what: string,
  attempt: () => Promise<boolean>,
): Promise<void> {
  for (;;) {
    if (await attempt()) return;
    if (Date.now() > deadline)
      throw new Error(`${what} not working again within ${RECOVERY_MS} ms of the promotion`);
    await sleep(200);
  }
}

/** An answer from `asker` rated through `rater`: true when the rating is taken (the shared context found). */
async function rateAcross(asker: GatewayHarness, rater: GatewayHarness): Promise<boolean> {
  const { answer, threadTs } = await askByMention(asker, 'How do I reset my password?');
  const rateUp = buttonsOf(answer).find((button) => button.actionId === 'rate_up');
  // No button: the context was not stored, Redis was still away when the answer was made.
  if (rateUp === undefined) return false;
  await rater.click(clickButton(answer, rateUp, { threadTs }));
  const rated = () =>
    rater.slack
      .calls('chat.update')
      .some((call) => call.body.ts === answer.body.ts && textOf(call).includes('rated this answer'));
  return waitFor(rated, { timeoutMs: 2_000 }).catch(() => false);
}

/** The same delivery sent to both replicas: true when one answered and the other found the duplicate. */
async function answeredOnce(a: GatewayHarness, b: GatewayHarness): Promise<boolean> {
  const event = appMention({ text: `<@${IDS.botUser}> How do I apply for leave?` });
  const envelope = eventCallback(event);
  await Promise.all([sendEvent(a.url, SIGNING_SECRET, envelope), sendEvent(b.url, SIGNING_SECRET, envelope)]);
  // One shared fake Slack: an answer in this event's thread, from either replica.
  const placeholders = () =>
    a.slack.calls('chat.postMessage').filter((call) => call.body.thread_ts === event.ts);
  const duplicate = () =>
    [...a.logs, ...b.logs].some((line) => line.msg === 'duplicate delivery ignored' && line.ts === event.ts);
  const settled = await waitFor(
    () => placeholders().length >= 2 || (placeholders().length === 1 && duplicate()),
    {
      timeoutMs: 5_000,
    },
  ).catch(() => false);
  return settled && placeholders().length === 1;
}

if ('missing' in found) {
  describe('two replicas on Redis with Sentinel', () => {
    it.skip(`skipped: ${found.missing}`, () => undefined);
  });
} else {
  // In this file, before the failover: no other file uses the Sentinel while its primary is killed.
  describe('stores (Redis through Sentinel, two replicas)', () => {
    describeStoreContracts(redisSentinelStores(found));
  });
  describeFailover(found);
}

function describeFailover(sentinel: SentinelSetup): void {
  describe('two replicas on Redis with Sentinel', () => {
    const fleet = useRedisReplicas('sentinel', {
      redis: { variables: sentinel.variables, deleteKeys: (prefix) => deleteKeysOnPrimary(sentinel, prefix) },
      // Counted on the Sentinel too, but high: this stream of questions is no flood.
      env: { USER_QUESTION_LIMIT: '10000/60s', CHANNEL_QUESTION_LIMIT: '10000/60s' },
    });

    it('keeps answering through a SIGKILL of the primary, then shares ratings, de-duplication and notices again', async () => {
      const {
        replicas: [a, b],
      } = fleet();
      const primary = await waitUntilFailoverReady(sentinel, 20_000);
      // Pub/sub between two connections of the fleet's kind, to hear a change after the failover.
      const keyPrefix = `test:sentinel-notices:${process.pid}:${randomBytes(4).toString('hex')}:`;
      const server = { kind: 'sentinel', name: sentinel.name, sentinels: sentinel.sentinels } as const;
      const publisher = await RedisConnection.connect({ server, keyPrefix });
      const listener = await RedisConnection.connect({ server, keyPrefix });
      const heard: string[] = [];
      await listener.subscribe('changes', (message) => heard.push(message));
      expect(await rateAcross(a, b)).toBe(true);

      let killed: KilledNode | undefined;
      let promoted = primary;
      try {
        // A question every 250 ms, alternately to each replica, from before the kill until after the promotion.
        const asked: Array<ReturnType<typeof askByMention>> = [];
        const expected: string[] = [];
        let streaming = true;
        const stream = (async () => {
          for (let index = 0; streaming; index += 1) {
            const question = QUESTIONS[index % QUESTIONS.length];
            if (question === undefined) break;
            expected.push(question.answerHas);
            asked.push(askByMention(index % 2 === 0 ? a : b, question.text));
            await sleep(250);
          }
        })();
        await sleep(1_000);
        killed = await killNode(primary);
        promoted = await waitFor(
          async () => {
            const now = await primaryOf(sentinel);
            return now !== undefined && now.port !== primary.port ? now : undefined;
          },
          { timeoutMs: PROMOTION_TIMEOUT_MS, intervalMs: 100, message: 'a replica promoted' },
        );
        const promotedAt = Date.now();
        await sleep(2_000);
        streaming = false;
        await stream;

        // Every question answered, through the failover: none lost, none crashed a replica.
        const answers = await Promise.all(asked);
        expect(answers.length).toBeGreaterThanOrEqual(10);
        answers.forEach(({ answer }, index) => {
          expect(textOf(answer)).toContain(expected[index]);
        });

        const deadline = promotedAt + RECOVERY_MS;
        await workingAgainBy(deadline, 'a rating across replicas', () => rateAcross(a, b));
        await workingAgainBy(deadline, 'shared de-duplication', () => answeredOnce(a, b));
        await workingAgainBy(deadline, 'change notices', async () => {
          const notice = `after-failover-${Date.now()}`;
          await publisher.publish('changes', notice).catch(() => undefined);
          return waitFor(() => heard.includes(notice), { timeoutMs: 1_000 }).catch(() => false);
        });
        for (const replica of [a, b]) {
          expect((await fetch(`${replica.url}/healthz`)).status).toBe(200);
          expect((await fetch(`${replica.url}/readyz`)).status).toBe(200);
        }
      } finally {
        await publisher.close();
        await listener.close();
        // The topology as it was found, the killed node a replica now, so that the test can run again.
        if (killed !== undefined) await restoreAsReplica(sentinel, killed, promoted, 30_000);
      }
    }, 90_000);
  });
}
