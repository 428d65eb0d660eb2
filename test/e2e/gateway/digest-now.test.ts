// The digest run now (the playground's control): the scheduled tick's own message and charts, posted at
// once to the workspace's digest channel, for that workspace only; without a schedule there is none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/app.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type FakeSlackApi, startFakeSlackApi } from '../../support/fake-slack-api.js';
import { BOT_TOKEN, SIGNING_SECRET, textOf } from '../../support/gateway-harness.js';
import { IDS } from '../../support/slack-payloads.js';
import { startTestGateway } from '../../support/test-gateway.js';
import { waitFor } from '../../support/wait.js';

const DIGEST_CHANNEL = 'CDIGEST01';

describe('the statistics digest run now', () => {
  let simulator: Simulator;
  let slack: FakeSlackApi;
  const gateways: Gateway[] = [];

  const start = async (env: Record<string, string>): Promise<Gateway> => {
    const { gateway } = await startTestGateway({
      env: {
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.url,
        CS_OPEN_URL: simulator.url,
        ...env,
      },
      closeFakes: async () => undefined,
    });
    gateways.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
    slack = await startFakeSlackApi();
  }, 30_000);

  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop();
    await slack.close();
    await simulator.close();
  }, 30_000);

  it("posts the week's figures to the digest channel at once, then the charts in its thread", async () => {
    // Mondays at 09:00: no scheduled tick comes during the test, only the one run now.
    const gateway = await start({ DIGEST_SCHEDULE: '0 9 * * 1', DIGEST_CHANNEL_ID: DIGEST_CHANNEL });
    const postings = await gateway.postDigestNow(IDS.team);
    expect(postings).toEqual([{ channelId: DIGEST_CHANNEL, outcome: 'posted' }]);

    const posts = slack.calls('chat.postMessage').filter((call) => call.body.channel === DIGEST_CHANNEL);
    expect(posts).toHaveLength(1);
    const [digest] = posts;
    if (!digest) throw new Error('no digest was posted');
    expect(textOf(digest)).toContain('Service desk digest');
    expect(textOf(digest)).toContain('Total messages');
    await waitFor(() => slack.calls('files.completeUploadExternal').length >= 1, {
      timeoutMs: 20_000,
      message: 'no digest chart was shared',
    });
    const [shared] = slack.calls('files.completeUploadExternal');
    expect(shared?.body.channel_id).toBe(DIGEST_CHANNEL);
    expect(String(shared?.body.thread_ts)).toBe(String(digest.response?.ts));
  }, 40_000);

  it("posts nothing for a workspace that is not the gateway's", async () => {
    const gateway = await start({ DIGEST_SCHEDULE: '0 9 * * 1', DIGEST_CHANNEL_ID: 'CDIGEST02' });
    await expect(gateway.postDigestNow('T0ELSEWHERE')).resolves.toEqual([]);
    expect(slack.calls('chat.postMessage').filter((call) => call.body.channel === 'CDIGEST02')).toEqual([]);
  }, 30_000);

  it('has no digest to run without DIGEST_SCHEDULE', async () => {
    const gateway = await start({ DIGEST_CHANNEL_ID: 'CDIGEST03' });
    await expect(gateway.postDigestNow(IDS.team)).resolves.toBeUndefined();
    expect(slack.calls('chat.postMessage').filter((call) => call.body.channel === 'CDIGEST03')).toEqual([]);
  }, 30_000);
});
