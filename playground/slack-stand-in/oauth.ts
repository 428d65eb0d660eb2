// Slack's side of installing an app: the authorize step hands back a code for a workspace, and
// oauth.v2.access exchanges it (or a refresh token) for a bot token, with the errors Slack answers.
// It also knows which workspace each token it issued belongs to, and forgets them on uninstall.
import { randomBytes } from 'node:crypto';

type Json = Record<string, unknown>;

export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  appId: string;
  botUserId: string;
  /** The bot scopes granted, as oauth.v2.access lists them. */
  scopes: readonly string[];
  /** Seconds a bot token lasts with token rotation on; without it tokens never expire. */
  tokenLifetimeSeconds?: number | undefined;
}

export interface InstallingTeam {
  id: string;
  name: string;
}

interface Grant {
  team: InstallingTeam;
  installer: string;
}

/** How a test installs: the code it will send, and how long the installed token lasts. */
export interface AuthorizeOptions {
  code?: string | undefined;
  lifetimeSeconds?: number | undefined;
}

/** Slack's codes are short-lived: ten minutes. */
const CODE_LIFETIME_MS = 10 * 60_000;

export class SlackOAuthStandIn {
  readonly #app: OAuthApp;
  readonly #codes = new Map<string, Grant & { expiresAt: number; lifetimeSeconds: number | undefined }>();
  /** Refresh tokens not used yet: Slack takes each once. */
  readonly #refreshTokens = new Map<string, Grant>();
  /** Every live bot token, and whose it is. */
  readonly #tokens = new Map<string, Grant>();

  constructor(app: OAuthApp) {
    this.#app = app;
  }

  /** The person allowed the app in their workspace: the code Slack redirects back with. */
  authorize(team: InstallingTeam, installer: string, options: AuthorizeOptions = {}): string {
    const code = options.code ?? `${team.id}.${randomBytes(12).toString('hex')}`;
    this.#codes.set(code, {
      team,
      installer,
      expiresAt: Date.now() + CODE_LIFETIME_MS,
      lifetimeSeconds: options.lifetimeSeconds,
    });
    return code;
  }

  /** A token (and refresh token) as a code grant issues it, for a test that stores its installation itself. */
  grant(team: InstallingTeam, installer: string, lifetimeSeconds?: number): Json {
    return this.#issue({ team, installer }, lifetimeSeconds);
  }

  /** oauth.v2.access: the code grant, or the refresh-token grant. */
  access(body: Json): Json {
    if (body.client_id !== this.#app.clientId) return { ok: false, error: 'invalid_client_id' };
    if (body.client_secret !== this.#app.clientSecret) return { ok: false, error: 'bad_client_secret' };
    const grantType = body.grant_type ?? 'authorization_code';
    if (grantType === 'authorization_code') {
      const code = typeof body.code === 'string' ? body.code : '';
      const grant = this.#codes.get(code);
      // A code is good once, and not after it expires.
      this.#codes.delete(code);
      if (!grant || grant.expiresAt < Date.now()) return { ok: false, error: 'invalid_code' };
      return { ...this.#issue(grant, grant.lifetimeSeconds), authed_user: { id: grant.installer } };
    }
    if (grantType === 'refresh_token') {
      const used = typeof body.refresh_token === 'string' ? body.refresh_token : '';
      const grant = this.#refreshTokens.get(used);
      this.#refreshTokens.delete(used);
      if (!grant) return { ok: false, error: 'invalid_refresh_token' };
      return this.#issue(grant);
    }
    return { ok: false, error: 'invalid_grant_type' };
  }

  /** The workspace a live bot token belongs to; undefined for one never issued or revoked. */
  teamOf(token: string | undefined): string | undefined {
    return token === undefined ? undefined : this.#tokens.get(token)?.team.id;
  }

  /** The workspace removed the app: its tokens stop working. */
  revoke(teamId: string): void {
    for (const tokens of [this.#tokens, this.#refreshTokens]) {
      for (const [token, grant] of tokens) if (grant.team.id === teamId) tokens.delete(token);
    }
  }

  #issue(grant: Grant, lifetimeSeconds = this.#app.tokenLifetimeSeconds): Json {
    const { appId, botUserId, scopes } = this.#app;
    const rotating = lifetimeSeconds !== undefined;
    const token = `${rotating ? 'xoxe.' : ''}xoxb-${grant.team.id}-${randomBytes(12).toString('hex')}`;
    this.#tokens.set(token, { team: grant.team, installer: grant.installer });
    const refresh = rotating ? `xoxe-1-${randomBytes(12).toString('hex')}` : undefined;
    if (refresh !== undefined)
      this.#refreshTokens.set(refresh, { team: grant.team, installer: grant.installer });
    return {
      ok: true,
      app_id: appId,
      scope: scopes.join(','),
      token_type: 'bot',
      access_token: token,
      bot_user_id: botUserId,
      ...(refresh === undefined ? {} : { refresh_token: refresh, expires_in: lifetimeSeconds }),
      team: { id: grant.team.id, name: grant.team.name },
      enterprise: null,
      is_enterprise_install: false,
    };
  }
}
