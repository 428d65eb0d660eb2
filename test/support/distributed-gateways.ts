// Gateways installed in many workspaces, for the e2e tests of installing: one on a SQLite file of its
// own, or several replicas on one Redis under a key prefix of their own, with one fake Slack and one
// simulator for all of them (as in production, one Slack).
import { randomBytes } from 'node:crypto';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlackApi, type FakeSlackApiOptions, startFakeSlackApi } from './fake-slack-api.js';
import { deleteKeysWithPrefix } from './redis-server.js';
import { startTestGateway, type TestGateway } from './test-gateway.js';

export interface DistributedGateway {
  gateway: TestGateway;
  slack: FakeSlackApi;
  simulator: Simulator;
}

export interface DistributedOptions {
  /** The fake Slack's: its `oauth.v2.access` handler at least. */
  slack: FakeSlackApiOptions;
  signingSecret: string;
  clientId: string;
  clientSecret: string;
  /** One gateway on this SQLite file; without it, `replicas` on one Redis. */
  statePath?: string | undefined;
  /** On Redis; 2 unless given. */
  replicas?: number | undefined;
  /** On Redis, the keys' prefix (a test that reads Redis names it); one of its own unless given. */
  keyPrefix?: string | undefined;
  /** Variables over these (operators, limits). */
  env?: Record<string, string> | undefined;
}

/**
 * Starts the fakes and the gateways; pushes onto `stops` what stops them (run it in reverse, after the
 * test), the Redis keys they wrote included.
 */
export async function startDistributed(
  options: DistributedOptions,
  stops: Array<() => Promise<void>>,
): Promise<DistributedGateway[]> {
  const simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  const slack = await startFakeSlackApi(options.slack);
  stops.push(async () => {
    await slack.close();
    await simulator.close();
  });
  const keyPrefix = options.keyPrefix ?? `test:distributed:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const onRedis = options.statePath === undefined;
  if (onRedis) stops.push(() => deleteKeysWithPrefix(keyPrefix));
  const env = {
    SLACK_SIGNING_SECRET: options.signingSecret,
    SLACK_CLIENT_ID: options.clientId,
    SLACK_CLIENT_SECRET: options.clientSecret,
    SLACK_STATE_SECRET: 'state-secret-for-the-test',
    // One key for every replica, as the README asks.
    SLACK_INSTALLATION_KEY: randomBytes(32).toString('base64'),
    SLACK_API_URL: slack.url,
    CS_OPEN_URL: simulator.url,
    ...(onRedis
      ? { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: keyPrefix }
      : { STATE_PATH: options.statePath ?? '' }),
    ...options.env,
  };
  const started: DistributedGateway[] = [];
  for (let replica = 0; replica < (onRedis ? (options.replicas ?? 2) : 1); replica += 1) {
    // The fakes are closed once, after every replica.
    const gateway = await startTestGateway({ env, closeFakes: async () => {} });
    stops.push(() => gateway.gateway.stop());
    started.push({ gateway, slack, simulator });
  }
  return started;
}
