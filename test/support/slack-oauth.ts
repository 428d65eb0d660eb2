// Slack's oauth.v2.access as a fake Slack handler, for an app with token rotation on: the playground's
// stand-in (code and refresh-token grants, each refresh token good once, Slack's errors), with one
// code the tests send as often as they install.
import { SlackOAuthStandIn } from '../../playground/slack-stand-in/oauth.js';
import type { RecordedCall } from './fake-slack-api.js';

export interface RotatingToken {
  token: string;
  refreshToken: string;
  /** Seconds since the epoch, as an installation keeps it. */
  expiresAt: number;
}

export interface SlackOAuth {
  /** Pass as the fake Slack's `oauth.v2.access` handler. */
  handler(call: RecordedCall): Record<string, unknown>;
  /** A token pair as a code grant issues it, for a test that stores its installation itself. */
  grant(expiresInSeconds: number): RotatingToken;
  /** Every bot token and refresh token issued so far, oldest first. */
  readonly issued: readonly string[];
}

/** Slack's lifetime of a rotating token: twelve hours. */
const REFRESHED_LIFETIME_SECONDS = 43_200;
const INSTALLER = 'U0ADMIN';

export function slackOAuth(options: {
  clientId: string;
  clientSecret: string;
  /** The workspace a code grant installs in. */
  team: { id: string; name: string };
  appId: string;
  botUserId: string;
  /** The one code the code grant takes. */
  code?: string;
  /** How long the code grant's token lasts (a rotation test installs one expiring soon). */
  installedLifetimeSeconds?: number;
}): SlackOAuth {
  const { team } = options;
  const code = options.code ?? 'good-code';
  const oauth = new SlackOAuthStandIn({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    appId: options.appId,
    botUserId: options.botUserId,
    scopes: ['chat:write', 'app_mentions:read'],
    tokenLifetimeSeconds: REFRESHED_LIFETIME_SECONDS,
  });
  const issued: string[] = [];
  const noted = (answer: Record<string, unknown>) => {
    if (answer.ok === true) issued.push(String(answer.access_token), String(answer.refresh_token));
    return answer;
  };

  return {
    issued,
    grant(expiresInSeconds) {
      const answer = noted(oauth.grant(team, INSTALLER, expiresInSeconds));
      return {
        token: String(answer.access_token),
        refreshToken: String(answer.refresh_token),
        expiresAt: Math.floor(Date.now() / 1000) + expiresInSeconds,
      };
    },
    handler(call) {
      // The tests' one code installs every time it is sent, unlike a code of Slack's.
      oauth.authorize(team, INSTALLER, {
        code,
        lifetimeSeconds: options.installedLifetimeSeconds ?? REFRESHED_LIFETIME_SECONDS,
      });
      return noted(oauth.access(call.body));
    },
  };
}
