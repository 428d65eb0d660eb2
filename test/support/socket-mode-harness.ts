// Starts the real gateway in Socket Mode against the platform simulator, a fake Slack Web API and a fake
// Socket Mode server, and gives tests a way to talk to it as Slack would: envelopes over the socket.
import type { Gateway } from '../../src/app.js';
import type { Env } from '../../src/config/env.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlackApi, startFakeSlackApi } from './fake-slack-api.js';
import {
  type FakeSocketModeServer,
  type SendEnvelopeOptions,
  type SocketModeAck,
  startFakeSocketMode,
} from './fake-socket-mode.js';
import { BOT_TOKEN, isRecord } from './gateway-harness.js';
import type { LogRecord } from './log-sink.js';
import { eventCallback, IDS } from './slack-payloads.js';
import { startTestGateway } from './test-gateway.js';

export const APP_TOKEN = 'xapp-test';
/** SocketModeClient pings every third of this and waits this long (times the failures) before reconnecting. */
const CLIENT_PING_TIMEOUT_MS = 600;
const SERVER_PING_TIMEOUT_MS = 2_000;

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
  /** Variables over the harness's (see test-gateway.ts for the test defaults). */
  env?: Record<string, string>;
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

  const { gateway, env, logs, url } = await startTestGateway({
    env: {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_API_URL: slack.url,
      CS_OPEN_URL: simulator.url,
      SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS: String(CLIENT_PING_TIMEOUT_MS),
      SLACK_SOCKET_SERVER_PING_TIMEOUT_MS: String(SERVER_PING_TIMEOUT_MS),
      ...options.env,
    },
    closeFakes,
    // stop() does not wait for the socket's close handshake; closing the fake first would cut it.
    afterFailedStop: () => socket.waitForNoOpenConnections(),
  });

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
    env,
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
