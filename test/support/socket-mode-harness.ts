// Starts the real gateway in Socket Mode against the platform simulator, a fake Slack Web API and a fake
// Socket Mode server, and gives tests a way to talk to it as Slack would: envelopes over the socket.
import { createGateway, type Gateway, type GatewayOverrides } from '../../src/app.js';
import { type Env, parseEnv } from '../../src/config/env.js';
import { createLogger } from '../../src/logging/logger.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlackApi, startFakeSlackApi } from './fake-slack-api.js';
import {
  type FakeSocketModeServer,
  type SendEnvelopeOptions,
  type SocketModeAck,
  startFakeSocketMode,
} from './fake-socket-mode.js';
import { BOT_TOKEN, isRecord } from './gateway-harness.js';
import { type LogRecord, logSink } from './log-sink.js';
import { eventCallback, IDS } from './slack-payloads.js';

export const APP_TOKEN = 'xapp-test';
/** SocketModeClient pings every third of this and waits this long (times the failures) before reconnecting. */
export const CLIENT_PING_TIMEOUT_MS = 600;
export const SERVER_PING_TIMEOUT_MS = 2_000;

export interface SocketModeHarness {
  /** The receiver's origin (health routes), e.g. http://127.0.0.1:PORT. */
  url: string;
  gateway: Gateway;
  simulator: Simulator;
  slack: FakeSlackApi;
  socket: FakeSocketModeServer;
  env: Env;
  logs: LogRecord[];
  /** Sends an events_api envelope carrying `event`; resolves with the gateway's ack. */
  sendEvent(
    event: { type: string },
    options?: SendEnvelopeOptions & { eventId?: string | undefined },
  ): Promise<SocketModeAck>;
  /** Sends an interactive envelope (e.g. a block_actions payload); resolves with the gateway's ack. */
  click(payload: unknown, options?: SendEnvelopeOptions): Promise<SocketModeAck>;
  /** Robot asks the simulator has received, with their `data`. */
  robotAsks(): Array<Record<string, unknown>>;
  /** Feedback calls the simulator has received, with their `data`. */
  feedbacks(): Array<Record<string, unknown>>;
  /** Gateway first (its socket client would reconnect into closed fakes otherwise), then the fakes. */
  close(): Promise<void>;
}

export interface SocketModeHarnessOptions {
  env?: Record<string, string>;
  overrides?: GatewayOverrides;
}

export async function startSocketModeHarness(
  options: SocketModeHarnessOptions = {},
): Promise<SocketModeHarness> {
  const simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  const slack = await startFakeSlackApi({
    users: {
      [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' },
      U_OTHER: { displayName: 'Sam Other', locale: 'en-US' },
    },
  });
  const socket = await startFakeSocketMode({ appId: IDS.app });
  slack.setSocketModeUrl(socket.url);
  const closeFakes = async () => {
    await socket.close();
    await slack.close();
    await simulator.close();
  };

  const parsed = parseEnv({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: APP_TOKEN,
    SLACK_API_URL: slack.url,
    CS_OPEN_URL: simulator.url,
    CS_SYS_NUM: 'acme',
    CS_ACCESS_TOKEN: DEFAULT_SIMULATOR_TOKEN,
    CS_HEADERS_TIMEOUT_MS: '1500',
    CS_BODY_TIMEOUT_MS: '1500',
    PORT: '0',
    LOG_LEVEL: 'debug',
    // Most tests follow the placeholder → answer sequence; the delayed placeholder has tests of its own.
    PLACEHOLDER_DELAY_MS: '0',
    ...options.env,
  });
  if (!parsed.ok) {
    await closeFakes();
    throw new Error(`harness env invalid: ${parsed.problems.join('; ')}`);
  }

  const { destination, records: logs } = logSink();
  const logger = createLogger({ level: parsed.env.LOG_LEVEL, destination });

  let gateway: Gateway;
  let port: number | undefined;
  try {
    gateway = await createGateway(parsed.env, logger, {
      host: '127.0.0.1',
      webApiRetries: 0,
      shutdownGraceMs: 2_000,
      socketMode: {
        clientPingTimeoutMs: CLIENT_PING_TIMEOUT_MS,
        serverPingTimeoutMs: SERVER_PING_TIMEOUT_MS,
      },
      ...options.overrides,
    });
  } catch (error) {
    await closeFakes();
    throw error;
  }
  try {
    ({ port } = await gateway.start());
    if (port === undefined) throw new Error('gateway.start() reported no port for the health routes');
  } catch (error) {
    await gateway.stop();
    await socket.waitForNoOpenConnections().catch(() => undefined);
    await closeFakes();
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;

  const dataOf = (action: string) =>
    simulator.received
      .filter((request) => isRecord(request.body) && request.body.action === action)
      .map((request) => (isRecord(request.body) && isRecord(request.body.data) ? request.body.data : {}));

  return {
    url,
    gateway,
    simulator,
    slack,
    socket,
    env: parsed.env,
    logs,
    sendEvent: (event, { eventId, ...envelope } = {}) =>
      socket.sendEventsApi(eventCallback(event, eventId ? { event_id: eventId } : {}), envelope),
    click: (payload, envelope) => socket.sendInteractive(payload, envelope),
    robotAsks: () => dataOf('chat_user_robot_ask'),
    feedbacks: () => dataOf('robot_feedback'),
    async close() {
      try {
        await gateway.stop();
        // stop() does not wait for the socket's close handshake; closing the fake first would cut it.
        await socket.waitForNoOpenConnections();
      } finally {
        await closeFakes();
      }
    },
  };
}
