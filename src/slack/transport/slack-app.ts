// The Bolt app in HTTP or Socket Mode behind our receiver; what a message means, the surfaces decide.
import {
  App,
  type AuthorizeResult,
  ErrorCode,
  type InstallationQuery,
  SocketModeReceiver,
} from '@slack/bolt';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { traceHooks } from '../../observability/tracing-hooks.js';
import type { DigestPosting } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { acceptedRequests, createRooms, preDispatchOf, registerSurfaces } from '../surfaces.js';
import { boltLogger } from './bolt-logger.js';
import { guardOutgoingCalls } from './outgoing.js';
import { GatewayReceiver, type Health, type MetricsSource, type PageRoute } from './receiver.js';
import { observeReconnects } from './socket-reconnects.js';
import type { SlackWebApi } from './web-api.js';

/** How Slack reaches the app: HTTP mode needs the signing secret, Socket Mode an app-level token. */
type SlackConnection = { mode: 'http'; signingSecret: string } | { mode: 'socket'; appToken: string };

/** One workspace's bot token, or each request's from its installation (with the install pages). */
export type SlackAuth =
  | { kind: 'token'; botToken: string }
  | {
      kind: 'installations';
      authorize: (source: InstallationQuery<boolean>) => Promise<AuthorizeResult>;
      pages: readonly PageRoute[];
    };

export interface SlackAppOptions {
  connection: SlackConnection;
  auth: SlackAuth;
  /** The Web API connection the app's clients share (transport/web-api.ts). */
  webApi: SlackWebApi;
  port: number;
  /** Bind address of the HTTP server (HOST). */
  host: string;
  /** Socket Mode ping timeouts; tests shorten them. */
  socketMode?: { clientPingTimeoutMs?: number; serverPingTimeoutMs?: number };
  /** What the rooms are built from; its settings name the slash command and the app's user. */
  kit: RoomKit;
  logger: Logger;
  /** Answers GET /healthz and GET /readyz; Slack's connection is added to readiness here. */
  health: Health;
  metrics?: MetricsSource;
}

export interface SlackApp {
  app: App;
  mode: 'http' | 'socket';
  /** Starts listening; resolves with the HTTP port (Slack requests in HTTP mode, health in both). */
  start(): Promise<{ port: number | undefined }>;
  /** Stops taking Slack requests, resolving once begun ones reach listeners; the Web API still posts. */
  stop(): Promise<void>;
  /** Closes the HTTP server and the Web API pool, which waits for its requests: bound it from outside. */
  close(): Promise<void>;
  /** One digest tick now for `workspace` (the playground's control); undefined when none is scheduled. */
  postDigestNow(workspace: string): Promise<DigestPosting[] | undefined>;
}

export async function createSlackApp(options: SlackAppOptions): Promise<SlackApp> {
  const logger = options.logger.child({ component: 'slack' });
  const sdkLogger = boltLogger(options.logger);
  const { connection, webApi: slackWebApi } = options;
  const { clientOptions, identity } = slackWebApi;
  const mode = connection.mode;

  const { kit } = options;
  const rooms = createRooms(kit);
  const preDispatch = preDispatchOf(rooms, kit.settings);
  let listening = false;
  let socketReceiver: SocketModeReceiver | undefined;
  let socketOpen = false;
  let stopReconnecting = () => {};
  // HTTP mode: Slack's requests come through it to Bolt. Socket Mode: it serves the health routes only.
  const gatewayReceiver = new GatewayReceiver({
    logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.auth.kind === 'installations' ? { pages: options.auth.pages } : {}),
    health: {
      alive: () => options.health.alive(),
      ready: async () => listening && (mode === 'http' || socketOpen) && (await options.health.ready()),
    },
    ...(connection.mode === 'http'
      ? {
          slack: {
            signingSecret: connection.signingSecret,
            accepted: acceptedRequests(rooms, kit.settings, preDispatch),
          },
        }
      : {}),
  });
  if (connection.mode === 'socket') {
    socketReceiver = new SocketModeReceiver({
      appToken: connection.appToken,
      logger: sdkLogger,
      // A copy: the socket client writes its own retry settings into the object it is given.
      installerOptions: { clientOptions: { ...clientOptions } },
      ...(options.socketMode?.clientPingTimeoutMs
        ? { clientPingTimeout: options.socketMode.clientPingTimeoutMs }
        : {}),
      ...(options.socketMode?.serverPingTimeoutMs
        ? { serverPingTimeout: options.socketMode.serverPingTimeoutMs }
        : {}),
    });
    const closed = () => {
      socketOpen = false;
    };
    socketReceiver.client.on('connected', () => {
      socketOpen = true;
    });
    socketReceiver.client.on('disconnected', closed);
    // With auto-reconnect the client emits only 'close' when the socket goes, never 'disconnected'.
    socketReceiver.client.on('close', closed);
    stopReconnecting = observeReconnects(socketReceiver.client, () => !listening, {
      stopped: () => logger.debug('Socket Mode reconnect cut short by the stop'),
      failed: (error, retryInMs) =>
        logger.error({ ...errorFields(error), retryInMs }, 'Socket Mode reconnect failed; trying again'),
    });
  }

  const { auth } = options;
  const app = new App({
    ...(auth.kind === 'token' ? { token: auth.botToken } : { authorize: auth.authorize }),
    ...(identity ? { botUserId: identity.botUserId } : {}),
    ...(identity?.botId ? { botId: identity.botId } : {}),
    tokenVerificationEnabled: false,
    receiver: socketReceiver ?? gatewayReceiver,
    logger: sdkLogger,
    clientOptions: { ...clientOptions },
    ignoreSelf: true,
  });

  guardOutgoingCalls(app.client);
  const tracing = traceHooks();
  if (tracing) {
    // Both receivers hand each delivery to processEvent: one span around it covers HTTP and Socket Mode.
    const processEvent = app.processEvent.bind(app);
    app.processEvent = (event) => tracing.delivery(event.body, () => processEvent(event));
  }
  // Our listeners catch their own errors; this is the last line, so nothing reaches the receiver.
  app.error(async (error) => {
    // Installed in many workspaces, authorize logs its own refusals (once an hour a workspace).
    if (error.code === ErrorCode.AuthorizationError) return;
    logger.error(errorFields(error), 'unhandled error in a Slack listener');
  });

  registerSurfaces(app, kit, rooms, preDispatch);
  // Once, whether the stop or only the close comes.
  let roomsStopped: Promise<unknown> | undefined;
  const stopRooms = () => {
    roomsStopped ??= Promise.all(rooms.map((room) => room.stop?.()));
    return roomsStopped;
  };

  return {
    app,
    mode,
    async start() {
      // Called directly rather than through app.start(): in Socket Mode that starts the socket instead.
      const { port } = await gatewayReceiver.start(options.port, options.host);
      listening = true;
      if (socketReceiver) await app.start();
      for (const room of rooms) room.start?.();
      return { port };
    },
    async stop() {
      listening = false;
      const stoppingRooms = stopRooms();
      stopReconnecting();
      if (socketReceiver) await app.stop();
      await gatewayReceiver.drain();
      // Bolt acks before calling the listener: one event-loop turn lets it count, so the drain waits.
      await new Promise<void>((resolve) => setImmediate(resolve));
      await stoppingRooms;
    },
    async close() {
      await stopRooms();
      await gatewayReceiver.stop();
    },
    async postDigestNow(workspace) {
      const desk = rooms.find((room) => room.postDigestNow);
      return desk?.postDigestNow?.(workspace);
    },
  };
}
