// The app's connection to Slack's Web API, opened before anything that posts on its own: the bot's
// identity (auth.test once, so a bad token stops start-up with a clear line), the options every
// client of the app is built with (one keep-alive pool, the retry policy, the base URL), and the
// bot's own client for what the app posts unprompted (review cards, the digest).
import { webApi } from '@slack/bolt';
import { z } from 'zod';
import { CodedError } from '../../util/coded-error.js';
import { guardOutgoingCalls, webApiRetryPolicy } from './outgoing.js';
import { slackErrorCode } from './responder.js';
import { createSlackFetch } from './web-api-fetch.js';

export interface SlackWebApi {
  /** The bot's own client, guarded like every listener's. */
  client: webApi.WebClient;
  /** What Bolt builds its clients with: the same pool and retry policy. */
  clientOptions: webApi.WebClientOptions;
  identity: { botUserId: string; botId: string | undefined };
  /** Closes the pool, once the requests in flight are answered: bound it from outside. */
  close(): Promise<void>;
}

/** Slack refused the bot token, or could not be reached, at start-up. */
class SlackStartupError extends CodedError<'SLACK_STARTUP'> {
  readonly code = 'SLACK_STARTUP' as const;
}

const authTestSchema = z.object({ user_id: z.string(), bot_id: z.string().optional() });

export async function connectSlackWebApi(options: {
  botToken: string;
  /** Web API base URL; tests point it at a fake. */
  slackApiUrl: string | undefined;
  /** Retries of a failed call; undefined keeps the production policy (4 within 30 s, see outgoing.ts). */
  webApiRetries: number | undefined;
}): Promise<SlackWebApi> {
  const slackFetch = createSlackFetch();
  const clientOptions: webApi.WebClientOptions = {
    fetch: slackFetch.fetch,
    ...(options.slackApiUrl ? { slackApiUrl: withTrailingSlash(options.slackApiUrl) } : {}),
    retryConfig: webApiRetryPolicy(options.webApiRetries),
  };
  try {
    const identity = await resolveBotIdentity(options.botToken, clientOptions);
    return {
      client: guardOutgoingCalls(new webApi.WebClient(options.botToken, { ...clientOptions })),
      clientOptions,
      identity,
      close: () => slackFetch.close(),
    };
  } catch (error) {
    await slackFetch.close();
    throw error;
  }
}

/** Asks Slack who the bot is, once, with fewer retries than an answer gets. */
async function resolveBotIdentity(botToken: string, clientOptions: webApi.WebClientOptions) {
  const client = guardOutgoingCalls(
    new webApi.WebClient(botToken, { ...clientOptions, retryConfig: webApiRetryPolicy(2) }),
  );
  try {
    const identity = authTestSchema.parse(await client.auth.test());
    return { botUserId: identity.user_id, botId: identity.bot_id };
  } catch (error) {
    const slackError = slackErrorCode(error);
    throw new SlackStartupError(
      slackError === 'invalid_auth' || slackError === 'not_authed' || slackError === 'account_inactive'
        ? `SLACK_BOT_TOKEN was rejected by Slack (${slackError})`
        : `Slack's auth.test failed (${slackError ?? 'no answer'}); check SLACK_BOT_TOKEN and the network`,
      { cause: error },
    );
  }
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
