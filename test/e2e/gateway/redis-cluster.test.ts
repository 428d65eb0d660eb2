// Two replicas of the gateway on the Redis Cluster that .ci/redis-cluster starts: ratings, de-duplication
// and a person's question limit shared across them, every key and script on a cluster's slots (skipped
// without the cluster, outside CI).
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  buttonOf,
  clickButton,
  type GatewayHarness,
  SIGNING_SECRET,
  textOf,
  useRedisReplicas,
} from '../../support/gateway-harness.js';
import { type ClusterSetup, deleteKeysOnCluster, findCluster } from '../../support/redis-cluster.js';
import { appMention, eventCallback, IDS } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const found = await findCluster();

const NOTICE = 'You can ask again in';

async function throttledCount(url: string): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find((candidate) => candidate.startsWith('cs_gateway_throttled_total{scope="user"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

function asksOf(harness: GatewayHarness, tag: string): string[] {
  return harness
    .robotAsks()
    .map((ask) => String(ask.question))
    .filter((question) => question.includes(tag));
}

function noticesTo(calls: RecordedCall[], userId: string): RecordedCall[] {
  return calls.filter((call) => call.body.user === userId && textOf(call).includes(NOTICE));
}

/** Every store call, limit and platform rate counted on the cluster: none fell back to one process. */
function expectNothingFellBack(replicas: GatewayHarness[]): void {
  // pino's warn is 40: an outage, a CROSSSLOT or a script the cluster refused would be one.
  const warnings = replicas.flatMap((replica) => replica.logs.filter((line) => line.level >= 40));
  expect(
    warnings.map((line) => line.msg).filter((msg) => /redis|unavailable|not counted/i.test(msg)),
  ).toEqual([]);
}

if ('missing' in found) {
  describe('two replicas on a Redis Cluster', () => {
    it.skip(`skipped: ${found.missing}`, () => undefined);
  });
} else {
  describeReplicas(found);
}

function describeReplicas(cluster: ClusterSetup): void {
  describe('two replicas on a Redis Cluster', () => {
    const fleet = useRedisReplicas('cluster', {
      redis: { variables: cluster.variables, deleteKeys: (prefix) => deleteKeysOnCluster(cluster, prefix) },
      // The platform's rate is counted on the cluster too, high enough that no question waits for it.
      env: { USER_QUESTION_LIMIT: '3/60s', CHANNEL_QUESTION_LIMIT: 'off', PLATFORM_QUESTION_RATE: '100' },
      users: {
        [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' },
        U_SHARED: { displayName: 'Sha Red', locale: 'en-US' },
      },
    });

    it('an answer from replica A is rated through replica B, and a second rating through A is refused', async () => {
      const {
        replicas: [a, b],
        slack,
      } = fleet();
      const { answer, threadTs } = await askByMention(a, 'How do I reset my password?');
      await b.click(clickButton(answer, buttonOf(answer, 'rate_up'), { threadTs }));
      await slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === answer.body.ts && textOf(call).includes('rated this answer'),
      );
      await a.click(clickButton(answer, buttonOf(answer, 'rate_down'), { threadTs }));
      const notice = await slack.waitForCall('chat.postEphemeral', (call) =>
        textOf(call).includes('already been rated'),
      );
      expect(notice.body.user).toBe(IDS.user);
      expectNothingFellBack([a, b]);
    });

    it('the same event delivered to both replicas is answered once', async () => {
      const {
        replicas: [a, b],
        slack,
      } = fleet();
      const event = appMention({ text: `<@${IDS.botUser}> How do I connect to the VPN?` });
      const envelope = eventCallback(event);
      const responses = await Promise.all([
        sendEvent(a.url, SIGNING_SECRET, envelope),
        sendEvent(b.url, SIGNING_SECRET, envelope),
      ]);
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      await waitFor(
        () =>
          slack.calls('chat.update').some((call) => textOf(call).includes('VPN')) &&
          [...a.logs, ...b.logs].some(
            (line) => line.msg === 'duplicate delivery ignored' && line.ts === event.ts,
          ),
        { timeoutMs: 10_000, message: 'one delivery answered, the other ignored' },
      );
      const placeholders = slack.calls('chat.postMessage').filter((call) => call.body.thread_ts === event.ts);
      expect(placeholders).toHaveLength(1);
      expectNothingFellBack([a, b]);
    });

    it("share one person's limit: questions spread over both reach the platform only up to it, with one notice", async () => {
      const {
        replicas: [a, b],
        slack,
      } = fleet();
      for (let index = 0; index < 8; index += 1) {
        const event = appMention({
          user: 'U_SHARED',
          text: `<@${IDS.botUser}> shared ${index} reset my password?`,
        });
        const response = await sendEvent((index % 2 === 0 ? a : b).url, SIGNING_SECRET, eventCallback(event));
        expect(response.status).toBe(200);
      }
      // Counted before it is asked: the last admitted question may still be on its way to the platform.
      await waitFor(() => asksOf(a, 'shared ').length >= 3, { timeoutMs: 10_000 });
      await waitFor(async () => (await throttledCount(a.url)) + (await throttledCount(b.url)) >= 5, {
        timeoutMs: 10_000,
        message: 'five questions dropped over the limit',
      });
      expect(asksOf(a, 'shared ')).toHaveLength(3);
      expect(noticesTo(slack.calls('chat.postEphemeral'), 'U_SHARED')).toHaveLength(1);
      expectNothingFellBack([a, b]);
    });
  });
}
