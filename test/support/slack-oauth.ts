// Slack's oauth.v2.access as a fake Slack handler, for an app with token rotation on: the code grant
// and the refresh-token grant, each refresh token good once, with the errors Slack answers.
import { randomBytes } from 'node:crypto';
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
  const { clientId, clientSecret, team, appId, botUserId } = options;
  const issued: string[] = [];
  /** Refresh tokens not used yet. */
  const live = new Set<string>();

  const grant = (expiresInSeconds: number): RotatingToken => {
    const pair = {
      token: `xoxe.xoxb-1-${randomBytes(12).toString('hex')}`,
      refreshToken: `xoxe-1-${randomBytes(12).toString('hex')}`,
      expiresAt: Math.floor(Date.now() / 1000) + expiresInSeconds,
    };
    issued.push(pair.token, pair.refreshToken);
    live.add(pair.refreshToken);
    return pair;
  };

  const answer = (expiresInSeconds: number) => {
    const pair = grant(expiresInSeconds);
    return {
      ok: true,
      app_id: appId,
      scope: 'chat:write,app_mentions:read',
      token_type: 'bot',
      access_token: pair.token,
      bot_user_id: botUserId,
      refresh_token: pair.refreshToken,
      expires_in: expiresInSeconds,
      team,
      enterprise: null,
      is_enterprise_install: false,
    };
  };

  return {
    issued,
    grant,
    handler(call) {
      const { body } = call;
      if (body.client_id !== clientId) return { ok: false, error: 'invalid_client_id' };
      if (body.client_secret !== clientSecret) return { ok: false, error: 'bad_client_secret' };
      switch (body.grant_type ?? 'authorization_code') {
        case 'authorization_code':
          if (body.code !== (options.code ?? 'good-code')) return { ok: false, error: 'invalid_code' };
          return {
            ...answer(options.installedLifetimeSeconds ?? REFRESHED_LIFETIME_SECONDS),
            authed_user: { id: 'U0ADMIN' },
          };
        case 'refresh_token': {
          const used = String(body.refresh_token);
          // Slack takes a refresh token once: a second use, or one it never issued, is refused.
          if (!live.delete(used)) return { ok: false, error: 'invalid_refresh_token' };
          return answer(REFRESHED_LIFETIME_SECONDS);
        }
        default:
          return { ok: false, error: 'invalid_grant_type' };
      }
    },
  };
}
