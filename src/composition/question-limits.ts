// The question limits' counts: in this process, or on the Redis the replicas share through a client of
// their own, since the stores' connection (src/stores/redis-connection.ts) exposes no EVAL to the limiter.
import type { Env } from '../config/env.js';
import { errorFields } from '../logging/error-fields.js';
import type { Logger } from '../logging/logger.js';
import { type LimitStore, QuestionLimits } from '../slack/handling/question-limits.js';
import { EXPIRED, within } from '../util/deadline.js';

const CONNECT_TIMEOUT_MS = 5_000;
const RECONNECT_MAX_DELAY_MS = 3_000;

export async function createQuestionLimits(
  env: Env,
  logger: Logger,
): Promise<{ limits: QuestionLimits; store: LimitStore; close(): Promise<void> }> {
  const settings = { user: env.USER_QUESTION_LIMIT, channel: env.CHANNEL_QUESTION_LIMIT, logger };
  const { state } = env;
  // PLATFORM_QUESTION_RATE counts on the same store (composition/platform-pacing.ts).
  const allOff =
    settings.user === 'off' && settings.channel === 'off' && env.PLATFORM_QUESTION_RATE === 'off';
  if (state.kind !== 'redis' || allOff) {
    const store: LimitStore = { kind: 'memory' };
    return { limits: new QuestionLimits({ ...settings, store }), store, close: async () => undefined };
  }
  // Loaded only with Redis, as the stores load it: a gateway on SQLite or in memory does not carry it.
  const { createRedisClient, evalBySha } = await import('../stores/redis-client.js');
  const { client } = createRedisClient(
    state.server,
    {
      commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      reconnectStrategy: reconnectDelay,
    },
    {},
  );
  // The limits report an outage themselves; without a listener an 'error' event ends the process.
  client.on('error', () => undefined);
  // The stores have just connected to this Redis; if it is gone again, questions pass until it is back.
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (failures: number): Promise<void> => {
    try {
      await client.connect();
    } catch (error) {
      if (failures === 0) {
        logger.warn(
          errorFields(error),
          'question limits could not connect to Redis; questions are let through',
        );
      }
      // node-redis retries a lost connection, but not a Cluster's or Sentinel's first connect.
      if (closed || client.isOpen) return;
      retry = setTimeout(() => void connect(failures + 1), reconnectDelay(failures));
      retry.unref();
    }
  };
  await within(connect(0), CONNECT_TIMEOUT_MS);
  const store: LimitStore = { kind: 'redis', client: evalBySha(client), keyPrefix: state.keyPrefix };
  return {
    limits: new QuestionLimits({ ...settings, store, timeoutMs: env.REDIS_COMMAND_TIMEOUT_MS }),
    store,
    async close() {
      closed = true;
      clearTimeout(retry);
      if (!client.isOpen) return;
      if ((await within(client.close(), 2_000)) === EXPIRED && client.isOpen) await client.destroy();
    },
  };
}

function reconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** Math.min(retries, 16), RECONNECT_MAX_DELAY_MS);
}
