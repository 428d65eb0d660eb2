// Builds the Bolt app in HTTP or Socket Mode and routes Slack's events and clicks to the gateway.
// Transport concerns stay here; what a message means is decided in gateway.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, type Receiver, SocketModeReceiver, type webApi } from '@slack/bolt';
import type { Logger } from '../logging/logger.js';
import { boltLogger } from './bolt-logger.js';
import type { EventSource, SlackGateway } from './gateway.js';
import { blockActionSchema } from './incoming.js';
import {
  ACTION_RATE_DOWN,
  ACTION_RATE_UP,
  ACTION_TRY_AGAIN,
  SUGGESTION_ACTION_PATTERN,
} from './render/button-values.js';

export interface SlackAppOptions {
  botToken: string;
  /** HTTP mode when set and no app token is given. */
  signingSecret: string | undefined;
  /** Socket Mode when set. */
  appToken: string | undefined;
  /** Web API base URL; tests point it at a fake. */
  slackApiUrl: string | undefined;
  port: number;
  host?: string;
  /** Retries of the Web API client; the SDK's default (with rate-limit handling) when undefined. */
  webApiRetries?: number;
  /** Socket Mode ping timeouts; tests shorten them. */
  socketMode?: { clientPingTimeoutMs?: number; serverPingTimeoutMs?: number };
  gateway: SlackGateway;
  logger: Logger;
  /** Answers GET /healthz and GET /readyz. */
  health: { alive(): boolean; ready(): Promise<boolean> };
}

export interface SlackApp {
  app: App;
  mode: 'http' | 'socket';
  /** Starts listening; resolves with the HTTP port (events in HTTP mode, health in Socket Mode). */
  start(): Promise<{ port: number | undefined }>;
  stop(): Promise<void>;
}

/** Slack's payloads are a few kilobytes; a megabyte is generous and keeps garbage from filling memory. */
const BODY_LIMIT_BYTES = 1024 * 1024;

export function createSlackApp(options: SlackAppOptions): SlackApp {
  const logger = options.logger.child({ component: 'slack' });
  const sdkLogger = boltLogger(options.logger);
  const clientOptions: webApi.WebClientOptions = {
    ...(options.slackApiUrl ? { slackApiUrl: withTrailingSlash(options.slackApiUrl) } : {}),
    ...(options.webApiRetries === undefined ? {} : { retryConfig: { retries: options.webApiRetries } }),
  };
  const customRoutes = healthRoutes(options.health);
  const mode = options.appToken ? 'socket' : 'http';

  let receiver: Receiver;
  let httpReceiver: HTTPReceiver | undefined;
  if (options.appToken) {
    receiver = new SocketModeReceiver({
      appToken: options.appToken,
      logger: sdkLogger,
      customRoutes,
      installerOptions: { port: options.port, clientOptions },
      ...(options.socketMode?.clientPingTimeoutMs
        ? { clientPingTimeout: options.socketMode.clientPingTimeoutMs }
        : {}),
      ...(options.socketMode?.serverPingTimeoutMs
        ? { serverPingTimeout: options.socketMode.serverPingTimeoutMs }
        : {}),
    });
  } else {
    if (!options.signingSecret) throw new Error('SLACK_SIGNING_SECRET is required in HTTP mode');
    httpReceiver = new HTTPReceiver({
      signingSecret: options.signingSecret,
      endpoints: '/slack/events',
      // Acknowledge first, answer after: the robot can take longer than Slack's 3 seconds.
      processBeforeResponse: false,
      customRoutes,
      logger: sdkLogger,
      bodyLimit: BODY_LIMIT_BYTES,
    });
    receiver = httpReceiver;
  }

  const app = new App({
    token: options.botToken,
    receiver,
    logger: sdkLogger,
    clientOptions,
    ignoreSelf: true,
  });

  // Our listeners catch their own errors; this is the last line, so nothing reaches the receiver.
  app.error(async (error) => {
    logger.error({ err: error, code: error.code }, 'unhandled error in a Slack listener');
  });

  const source = (context: {
    teamId?: string;
    enterpriseId?: string;
    botUserId?: string;
    retryNum?: number;
  }) =>
    ({
      teamId: context.teamId ?? context.enterpriseId ?? 'unknown',
      botUserId: context.botUserId,
      retryNum: context.retryNum,
    }) satisfies EventSource;

  app.event('app_mention', async ({ event, context, client }) => {
    await options.gateway.onMessageEvent(client, event, source(context));
  });
  app.event('message', async ({ event, context, client }) => {
    await options.gateway.onMessageEvent(client, event, source(context));
  });

  app.action(SUGGESTION_ACTION_PATTERN, async ({ ack, body, action, client }) => {
    await ack();
    const payload = blockActionSchema.safeParse(body);
    if (!payload.success) return logger.warn({}, 'ignored a suggestion click of unexpected shape');
    await options.gateway.onSuggestionClick(client, payload.data, buttonValue(action));
  });
  app.action(ACTION_TRY_AGAIN, async ({ ack, body, action, client }) => {
    await ack();
    const payload = blockActionSchema.safeParse(body);
    if (!payload.success) return logger.warn({}, 'ignored a try-again click of unexpected shape');
    await options.gateway.onTryAgain(client, payload.data, buttonValue(action));
  });
  for (const actionId of [ACTION_RATE_UP, ACTION_RATE_DOWN]) {
    app.action(actionId, async ({ ack, body, action, client }) => {
      await ack();
      const payload = blockActionSchema.safeParse(body);
      if (!payload.success) return logger.warn({}, 'ignored a rating click of unexpected shape');
      await options.gateway.onRatingClick(client, payload.data, buttonValue(action));
    });
  }
  // Any other interaction (a link button, an unknown action id) is acknowledged and left alone.
  app.action(/.*/, async ({ ack }) => {
    await ack();
  });

  return {
    app,
    mode,
    async start() {
      if (httpReceiver) {
        const server = await httpReceiver.start({ port: options.port, host: options.host ?? '0.0.0.0' });
        const address = server.address() as AddressInfo | null;
        return { port: address?.port };
      }
      await app.start();
      return { port: options.port };
    },
    async stop() {
      await app.stop();
    },
  };
}

function buttonValue(action: unknown): string | undefined {
  if (typeof action !== 'object' || action === null || !('value' in action)) return undefined;
  return typeof action.value === 'string' ? action.value : undefined;
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function healthRoutes(health: SlackAppOptions['health']) {
  const json = (response: ServerResponse, status: number, body: object) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  return [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_request: IncomingMessage, response: ServerResponse) => {
        const alive = health.alive();
        json(response, alive ? 200 : 503, { status: alive ? 'ok' : 'stopping' });
      },
    },
    {
      path: '/readyz',
      method: ['GET'],
      handler: (_request: IncomingMessage, response: ServerResponse) => {
        health.ready().then(
          (ready) => json(response, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready' }),
          () => json(response, 503, { status: 'not ready' }),
        );
      },
    },
  ];
}
