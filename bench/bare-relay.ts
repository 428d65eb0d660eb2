// The load bench's baseline: the least a Slack-to-robot relay can do. A bare Bolt app in HTTP mode
// that asks the robot and posts its answer text: no users.info, no placeholder, no de-duplication,
// no validation, no rendering, no stored context, no logging.
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { Agent, request } from 'undici';

export interface BareRelayOptions {
  signingSecret: string;
  botToken: string;
  slackApiUrl: string;
  platformUrl: string;
  accessToken: string;
  sysNum: string;
  host: string;
}

export interface BareRelay {
  port: number;
  stop(): Promise<void>;
}

export async function startBareRelay(options: BareRelayOptions): Promise<BareRelay> {
  const receiver = new HTTPReceiver({ signingSecret: options.signingSecret, processBeforeResponse: false });
  const app = new App({
    token: options.botToken,
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: options.slackApiUrl, retryConfig: { retries: 0 } },
  });
  const platform = new Agent({ keepAliveTimeout: 30_000 });
  const askUrl = `${options.platformUrl}/open/platform/api.json`;

  const relay = async (channel: string, threadTs: string | undefined, user: string, text: string) => {
    const response = await request(askUrl, {
      dispatcher: platform,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'chat_user_robot_ask',
        access_token: options.accessToken,
        data: { sysNum: options.sysNum, partnerId: `slack-${user}`, question: text },
      }),
    });
    const body = (await response.body.json()) as { data?: { answer?: string } };
    await app.client.chat.postMessage({
      channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      text: body.data?.answer ?? 'no answer',
    });
  };

  app.event('app_mention', async ({ event }) => {
    await relay(event.channel, event.thread_ts ?? event.ts, event.user ?? '', event.text);
  });
  app.message(async ({ message }) => {
    if (message.channel_type !== 'im' || message.subtype !== undefined) return;
    await relay(message.channel, message.thread_ts, message.user, message.text ?? '');
  });

  const server = await app.start({ port: 0, host: options.host });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    async stop() {
      await app.stop();
      await platform.close();
    },
  };
}
