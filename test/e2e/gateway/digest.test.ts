// The scheduled statistics digest: two replicas on one Redis run the same schedule, and every tick is
// posted to the digest channel once, with the last 7 full days' figures beside the 7 days before;
// while Redis is down, no tick is posted twice (each replica skips it rather than decide alone).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/app.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { createStores } from '../../../src/stores/index.js';
import { addDays, todayIn } from '../../../src/util/time-zone.js';
import { type FakeSlackApi, type RecordedCall, startFakeSlackApi } from '../../support/fake-slack-api.js';
import { BOT_TOKEN, SIGNING_SECRET, textOf } from '../../support/gateway-harness.js';
import type { LogRecord } from '../../support/log-sink.js';
import { deleteKeysWithPrefix, startRedisOnFreePort, stopRedis } from '../../support/redis-server.js';
import { ticketsCreatedIn } from '../../support/simulator-tickets.js';
import { IDS } from '../../support/slack-payloads.js';
import { startTestGateway } from '../../support/test-gateway.js';
import { waitFor } from '../../support/wait.js';

const DIGEST_CHANNEL = 'CDIGEST01';
const REDIS_URL = 'redis://127.0.0.1:6379';

/** A gateway posting the digest to DIGEST_CHANNEL every second (unless `env` says otherwise). */
function startDigestGateway(
  slack: FakeSlackApi,
  simulator: Simulator,
  env: Record<string, string>,
): ReturnType<typeof startTestGateway> {
  return startTestGateway({
    env: {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      CS_OPEN_URL: simulator.url,
      DIGEST_SCHEDULE: '* * * * * *',
      DIGEST_CHANNEL_ID: DIGEST_CHANNEL,
      ...env,
    },
    closeFakes: async () => undefined,
  });
}

describe('the statistics digest with two replicas', () => {
  const keyPrefix = `test:digest:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let simulator: Simulator;
  let slack: FakeSlackApi;
  const replicas: Array<{ gateway: Gateway; logs: LogRecord[] }> = [];

  beforeAll(async () => {
    simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
    slack = await startFakeSlackApi();
    for (let index = 0; index < 2; index += 1) {
      const { gateway, logs } = await startDigestGateway(slack, simulator, {
        REDIS_URL,
        REDIS_KEY_PREFIX: keyPrefix,
        // Every 2 s, so the test sees several ticks (a real schedule is daily or weekly), and a replica
        // slowed by a loaded machine is not still posting one tick at the next (`protect` skips it).
        DIGEST_SCHEDULE: '*/2 * * * * *',
        DIGEST_TIME_ZONE: 'Asia/Shanghai',
      });
      replicas.push({ gateway, logs });
    }
  }, 30_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.gateway.stop();
    await slack.close();
    await simulator.close();
    await deleteKeysWithPrefix(keyPrefix);
  }, 30_000);

  it('posts each tick once, whichever replica claims it, with the last 7 full days compared', async () => {
    const lines = (message: string) =>
      replicas.flatMap((replica) => replica.logs.filter((line) => line.msg === message));
    // Two ticks both replicas ran: each was claimed once and stood down once.
    await waitFor(() => lines('digest already posted by another replica').length >= 2, {
      timeoutMs: 20_000,
      message: () => `stood down ${lines('digest already posted by another replica').length} times`,
    });
    // A chart follows its digest by seconds; one still drawing at the stop is given up with the grace.
    await waitFor(() => slack.calls('files.completeUploadExternal').length >= 1, {
      timeoutMs: 20_000,
      message: 'no digest chart was shared',
    });
    for (const replica of replicas) await replica.gateway.stop();

    const posted = lines('digest posted');
    const ticks = posted.map((line) => String(line.tick));
    expect(new Set(ticks).size).toBe(ticks.length);
    const posts = slack.calls('chat.postMessage').filter((call) => call.body.channel === DIGEST_CHANNEL);
    expect(posts).toHaveLength(posted.length);
    const stoodDown = lines('digest already posted by another replica').map((line) => String(line.tick));
    for (const tick of stoodDown) expect(ticks).toContain(tick);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const day = (offset: number) => {
      const date = new Date(`${today}T00:00:00Z`);
      date.setUTCDate(date.getUTCDate() + offset);
      return date.toISOString().slice(0, 10);
    };
    const [first] = posts;
    if (!first) throw new Error('no digest was posted');
    const text = textOf(first);
    expect(text).toContain('Service desk digest');
    expect(text).toContain(`Service desk, ${day(-7)} – ${day(-1)}`);
    expect(text).toContain(`${day(-14)} – ${day(-8)}, the 7 days before`);
    expect(text).toContain('Total messages');

    // The week's chart in the digest's thread, once per posted digest, its alt text stating the figures.
    const shared = slack.calls('files.completeUploadExternal');
    expect(shared.length).toBeLessThanOrEqual(posts.length);
    const digestTs = posts.map((post) => String(post.response?.ts));
    for (const share of shared) {
      expect(share.body.channel_id).toBe(DIGEST_CHANNEL);
      expect(digestTs).toContain(String(share.body.thread_ts));
    }
    const [asked] = slack.calls('files.getUploadURLExternal');
    const label = (offset: number) =>
      new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${day(offset)}T00:00:00Z`),
      );
    expect(asked?.body.filename).toBe(`questions-${day(-7)}-${day(-1)}.png`);
    expect(String(asked?.body.alt_text)).toMatch(
      new RegExp(
        `^Chart of questions a day \\(customer messages\\), ${label(-7)} – ${label(-1)}: ${label(-7)} [\\d,]+,`,
      ),
    );
    expect(String(asked?.body.alt_text)).toMatch(/Total [\d,]+; the 7 days before \(.+\): [\d,]+\.$/);
    const [upload] = slack.calls('file_upload');
    expect(Buffer.from(String(upload?.body.base64), 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    // Room for both waits above and the stops: the default 15 s would end the test inside the second.
  }, 50_000);
});

describe('the statistics digest of a gateway installed in one workspace, with its own counts', () => {
  const keyPrefix = `test:digest-counts:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let simulator: Simulator;
  let slack: FakeSlackApi;
  let replica: { gateway: Gateway; logs: LogRecord[] } | undefined;

  beforeAll(async () => {
    simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
    slack = await startFakeSlackApi();
    // Counted on a day of the week the digest shows, under the workspace the bot token is (auth.test's T1).
    const yesterday = addDays(todayIn('Asia/Shanghai', new Date()), -1);
    const stores = await createStores({
      state: { kind: 'redis', server: { kind: 'url', url: REDIS_URL }, keyPrefix },
      maxEntries: 100,
      ttlSeconds: 60,
    });
    try {
      await stores.dailyQuestions.add(IDS.team, yesterday, ['asked', 'unanswered']);
      await stores.dailyQuestions.add(IDS.team, yesterday, ['asked']);
      await stores.dailyRatings.add(IDS.team, yesterday, ['up']);
      await stores.dailyRatings.add(IDS.team, yesterday, ['down']);
    } finally {
      await stores.close();
    }
    replica = await startDigestGateway(slack, simulator, {
      REDIS_URL,
      REDIS_KEY_PREFIX: keyPrefix,
      DIGEST_TIME_ZONE: 'Asia/Shanghai',
    });
    await waitFor(() => slack.calls('files.completeUploadExternal').length >= 1, {
      timeoutMs: 20_000,
      message: 'no digest chart was shared',
    });
    await replica.gateway.stop();
  }, 40_000);

  afterAll(async () => {
    await replica?.gateway.stop();
    await slack.close();
    await simulator.close();
    await deleteKeysWithPrefix(keyPrefix);
  }, 30_000);

  it('puts 👍/👎 a day and the tickets under the questions in the digest’s thread, the three in one upload', async () => {
    const [shared] = slack.calls('files.completeUploadExternal');
    const posts = slack.calls('chat.postMessage').filter((call) => call.body.channel === DIGEST_CHANNEL);
    expect(posts.map((post) => String(post.response?.ts))).toContain(String(shared?.body.thread_ts));
    // In order, the tickets third.
    const names = (shared?.response?.files as Array<{ name: string }> | undefined)?.map((file) => file.name);
    expect(names).toEqual([
      expect.stringMatching(/^questions-/),
      expect.stringMatching(/^ratings-/),
      expect.stringMatching(/^tickets-/),
    ]);
    const asked = slack.calls('files.getUploadURLExternal');
    const ratings = asked.filter((call) => String(call.body.filename).startsWith('ratings-'));
    expect(ratings.length).toBeGreaterThanOrEqual(1);
    for (const call of ratings) {
      expect(String(call.body.alt_text)).toMatch(
        /^Chart of answers rated a day, .+Total 1 helpful, 1 not helpful; 50% helpful\.$/,
      );
    }
  });

  it('counts each ticket on its day in DIGEST_TIME_ZONE, having no operator whose zone to take', async () => {
    const tickets = slack
      .calls('files.getUploadURLExternal')
      .filter((call) => String(call.body.filename).startsWith('tickets-'));
    expect(tickets.length).toBeGreaterThanOrEqual(1);
    for (const call of tickets) {
      const [, from = '', to = ''] =
        /^tickets-(\d{4}-\d{2}-\d{2})-(\d{4}-\d{2}-\d{2})\.png$/.exec(String(call.body.filename)) ?? [];
      const held = await ticketsCreatedIn(simulator.url, { from, to, offset: '+08:00' });
      expect(String(call.body.alt_text)).toMatch(
        new RegExp(
          `^Chart of tickets opened a day by handling group, .+: total ${held.length.toLocaleString('en')}; `,
        ),
      );
    }
  });

  it('draws the share of its questions left unanswered, as /cs stats does', async () => {
    const questions = slack
      .calls('files.getUploadURLExternal')
      .filter((call) => String(call.body.filename).startsWith('questions-'));
    expect(questions.length).toBeGreaterThanOrEqual(1);
    for (const call of questions) {
      expect(String(call.body.alt_text)).toMatch(/\. Unanswered: 50% of 2 questions counted here; .+\.$/);
    }
  });
});

describe('the statistics digest when its chart cannot be uploaded', () => {
  let simulator: Simulator;
  let slack: FakeSlackApi;
  let replica: { gateway: Gateway; logs: LogRecord[] } | undefined;

  beforeAll(async () => {
    simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
    slack = await startFakeSlackApi();
    slack.failNext('files.getUploadURLExternal', { error: 'file_uploads_disabled' });
    replica = await startDigestGateway(slack, simulator, {});
  }, 30_000);

  afterAll(async () => {
    await replica?.gateway.stop();
    await slack.close();
    await simulator.close();
  }, 30_000);

  it('keeps the digest as posted and logs the failure', async () => {
    const logs = replica?.logs ?? [];
    await waitFor(() => logs.some((line) => line.msg === 'digest chart could not be uploaded'), {
      timeoutMs: 15_000,
      message: 'no chart upload failed',
    });
    await replica?.gateway.stop();
    const failed = logs.find((line) => line.msg === 'digest chart could not be uploaded');
    const posted = logs.filter((line) => line.msg === 'digest posted');
    expect(posted.map((line) => line.tick)).toContain(failed?.tick);
    const posts = slack.calls('chat.postMessage').filter((call) => call.body.channel === DIGEST_CHANNEL);
    expect(posts).toHaveLength(posted.length);
    expect(textOf(posts[0] as RecordedCall)).toContain('Total messages');
    // The failed tick's digest stands: nothing edited or deleted it.
    expect(slack.calls('chat.update')).toEqual([]);
    expect(slack.calls('chat.delete')).toEqual([]);
  });
});

describe('the statistics digest with two replicas while Redis is down', () => {
  const keyPrefix = `test:digest-down:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let simulator: Simulator;
  let slack: FakeSlackApi;
  let redis: ChildProcess | undefined;
  const replicas: Array<{ gateway: Gateway; logs: LogRecord[] }> = [];

  beforeAll(async () => {
    simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
    slack = await startFakeSlackApi();
    // A redis-server of this test's own: stopping it must not take the shared one from other tests.
    const started = await startRedisOnFreePort();
    redis = started.child;
    for (let index = 0; index < 2; index += 1) {
      const { gateway, logs } = await startDigestGateway(slack, simulator, {
        REDIS_URL: `redis://127.0.0.1:${started.port}`,
        REDIS_KEY_PREFIX: keyPrefix,
        DIGEST_TIME_ZONE: 'Asia/Shanghai',
      });
      replicas.push({ gateway, logs });
    }
  }, 30_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.gateway.stop();
    await stopRedis(redis);
    await slack.close();
    await simulator.close();
  }, 30_000);

  it('posts no tick twice: each replica skips the ticks it cannot claim in Redis', async () => {
    const lines = (message: string) =>
      replicas.flatMap((replica) => replica.logs.filter((line) => line.msg === message));
    await waitFor(() => lines('digest already posted by another replica').length >= 1, {
      timeoutMs: 15_000,
      message: 'no tick was claimed while Redis was up',
    });
    await stopRedis(redis);
    redis = undefined;
    // Ticks with Redis gone (a second each): before the fix, both replicas posted each of them. Waited
    // for rather than slept through: a busy machine can fire a tick late, and a late tick is skipped.
    await waitFor(
      () =>
        replicas.every(
          (replica) =>
            replica.logs.filter((line) => line.msg === 'digest not posted: the store is unavailable')
              .length >= 2,
        ),
      { timeoutMs: 15_000, message: 'each replica skipped two ticks with Redis gone' },
    );
    for (const replica of replicas) await replica.gateway.stop();

    const ticks = lines('digest posted').map((line) => String(line.tick));
    expect(new Set(ticks).size).toBe(ticks.length);
    const posts = slack.calls('chat.postMessage').filter((call) => call.body.channel === DIGEST_CHANNEL);
    expect(posts).toHaveLength(ticks.length);
    for (const replica of replicas) {
      const skipped = replica.logs.filter(
        (line) => line.msg === 'digest not posted: the store is unavailable',
      );
      expect(skipped.length).toBeGreaterThanOrEqual(2);
    }
  });
});
