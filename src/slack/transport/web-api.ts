// The app's connection to Slack's Web API: auth.test once (a bad token stops start-up with a clear
// line), one keep-alive pool and retry policy for every client, and the bot's own client. Installed in
// many workspaces there is no bot of its own: each request's token comes from its installation.
import { webApi } from '@slack/bolt';
import { z } from 'zod';
import { CodedError } from '../../util/coded-error.js';
import { workspaceOf } from '../handling/workspace.js';
import { guardOutgoingCalls, webApiRetryPolicy } from './outgoing.js';
import { type SlackRateLimits, withReadableRetryAfter } from './rate-limits.js';
import { slackErrorCode } from './responder.js';
import { createSlackFetch } from './web-api-fetch.js';

export interface SlackWebApi {
  client: webApi.WebClient;
  /** The same pool, retry policy and rate-limit handling for Bolt's clients. */
  clientOptions: webApi.WebClientOptions;
  /** Undefined when installed in many workspaces: each has its own bot user. */
  identity: { botUserId: string; botId: string | undefined; workspace: string } | undefined;
  /** Waits for requests in flight: bound it from outside. */
  close(): Promise<void>;
}

class SlackStartupError extends CodedError<'SLACK_STARTUP'> {
  readonly code = 'SLACK_STARTUP' as const;
}

const authTestSchema = z.object({
  user_id: z.string(),
  bot_id: z.string().optional(),
  team_id: z.string().optional(),
  enterprise_id: z.string().optional(),
  is_enterprise_install: z.boolean().optional(),
});

export async function connectSlackWebApi(options: {
  /** Undefined when installed in many workspaces. */
  botToken: string | undefined;
  /** Tests point it at a fake. */
  slackApiUrl: string | undefined;
  /** Undefined keeps the production policy (see outgoing.ts). */
  webApiRetries: number | undefined;
  /** Waits out a 429 of a call to no conversation; undefined: such a call fails on it. */
  rateLimits?: SlackRateLimits;
}): Promise<SlackWebApi> {
  const slackFetch = createSlackFetch();
  const readable = withReadableRetryAfter(slackFetch.fetch);
  const clientOptions: webApi.WebClientOptions = {
    fetch: options.rateLimits ? options.rateLimits.fetch(readable) : readable,
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl.replace(/\/?$/, '/') } : {}),
    retryConfig: webApiRetryPolicy(options.webApiRetries),
    // A 429 rejects its one call (rate-limits.ts waits it out per channel) instead of pausing every call.
    rejectRateLimitedCalls: true,
  };
  try {
    const identity =
      options.botToken === undefined ? undefined : await resolveBotIdentity(options.botToken, clientOptions);
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

/** Fewer retries than an answer gets. */
async function resolveBotIdentity(botToken: string, clientOptions: webApi.WebClientOptions) {
  const client = guardOutgoingCalls(
    new webApi.WebClient(botToken, { ...clientOptions, retryConfig: webApiRetryPolicy(2) }),
  );
  try {
    const identity = authTestSchema.parse(await client.auth.test());
    // The token's own workspace, as requests through it are counted: the digest's counts are found under it.
    const workspace = workspaceOf({
      ...(identity.team_id === undefined ? {} : { teamId: identity.team_id }),
      ...(identity.enterprise_id === undefined ? {} : { enterpriseId: identity.enterprise_id }),
      isEnterpriseInstall: identity.is_enterprise_install,
    });
    return { botUserId: identity.user_id, botId: identity.bot_id, workspace };
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
