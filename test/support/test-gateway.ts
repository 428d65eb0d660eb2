// The start-up both gateway harnesses share: the env (test defaults, then the harness's, then the
// test's), a log sink to parse records from, the gateway built and started on 127.0.0.1. A failure
// at any step stops what had started and closes the harness's fakes, so nothing is left running.
import { createGateway, type Gateway } from '../../src/app.js';
import { type Env, parseEnv } from '../../src/config/env.js';
import { createLogger } from '../../src/logging/logger.js';
import { DEFAULT_SIMULATOR_TOKEN } from '../../src/simulator/index.js';
import { type LogRecord, logSink } from './log-sink.js';

/** What every test gateway runs with unless a harness or a test says otherwise. */
const TEST_DEFAULTS: Record<string, string> = {
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'debug',
  CS_SYS_NUM: 'acme',
  CS_ACCESS_TOKEN: DEFAULT_SIMULATOR_TOKEN,
  CS_HEADERS_TIMEOUT_MS: '1500',
  CS_BODY_TIMEOUT_MS: '1500',
  // A failing fake answers at once instead of stalling a test through the production backoff.
  SLACK_WEB_API_RETRIES: '0',
  SHUTDOWN_GRACE_SECONDS: '2',
  // Most tests follow the placeholder → answer sequence; the delayed placeholder has tests of its own.
  PLACEHOLDER_DELAY_MS: '0',
  // Most tests take an operator command's first answer as its result; the working line has tests of its own.
  WORKING_LINE_DELAY_MS: '10000',
  // The rating tests that predate Slack's feedback_buttons click the classic 👍/👎 buttons; the native
  // element (the production default) has tests of its own (native-feedback.test.ts, assistant.test.ts).
  RATING_BUTTONS: 'classic',
  // Each test gateway starts afresh; the SQLite store has tests of its own, on files of their own.
  STATE_PATH: ':memory:',
  // Where a test shares Redis between replicas, a busy machine's pause of the test process (a worker
  // descheduled, a collection) must not pass for an outage; the outage tests set the production 300 ms.
  REDIS_COMMAND_TIMEOUT_MS: '3000',
  // Many tests ask one person's questions in a burst; the limits have tests of their own (question-limits).
  USER_QUESTION_LIMIT: 'off',
  CHANNEL_QUESTION_LIMIT: 'off',
  // Many tests ask a burst at once; the platform's rate has tests of its own (platform-question-rate).
  PLATFORM_QUESTION_RATE: 'off',
};

export interface TestGateway {
  gateway: Gateway;
  env: Env;
  logs: LogRecord[];
  /** The receiver's origin, e.g. http://127.0.0.1:PORT. */
  url: string;
}

export interface TestGatewayOptions {
  /** The harness's variables (Slack mode, fakes' URLs), then the test's, over the test defaults. */
  env: Record<string, string>;
  /** Closes the fakes the gateway talks to. */
  closeFakes(): Promise<void>;
  /** Runs after a gateway that failed to start is stopped, before the fakes close. */
  afterFailedStop?(): Promise<void>;
}

export async function startTestGateway(options: TestGatewayOptions): Promise<TestGateway> {
  const parsed = parseEnv({ ...TEST_DEFAULTS, ...options.env });
  if (!parsed.ok) {
    await options.closeFakes();
    throw new Error(`harness env invalid: ${parsed.problems.join('; ')}`);
  }
  const { destination, records: logs } = logSink();
  const logger = createLogger({ level: parsed.env.LOG_LEVEL, destination });

  let gateway: Gateway;
  try {
    gateway = await createGateway(parsed.env, logger);
  } catch (error) {
    await options.closeFakes();
    throw error;
  }
  try {
    const { port } = await gateway.start();
    if (port === undefined) throw new Error('gateway.start() reported no port for the health routes');
    return { gateway, env: parsed.env, logs, url: `http://127.0.0.1:${port}` };
  } catch (error) {
    await gateway.stop();
    await options.afterFailedStop?.().catch(() => undefined);
    await options.closeFakes();
    throw error;
  }
}
