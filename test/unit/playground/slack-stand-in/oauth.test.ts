// The stand-in's oauth.v2.access answers as Slack does: a code once, a refresh token once, and Slack's
// error for a wrong client, code, refresh token or grant type; an uninstall revokes the workspace's tokens.
import { describe, expect, it } from 'vitest';
import { SlackOAuthStandIn } from '../../../../playground/slack-stand-in/oauth.js';

const APP = {
  clientId: '1111.2222',
  clientSecret: 'the-client-secret',
  appId: 'A0APP',
  botUserId: 'U0BOT',
  scopes: ['chat:write', 'app_mentions:read'],
};
const GLOBEX = { id: 'T0GLOBEX', name: 'Globex' };
const client = { client_id: APP.clientId, client_secret: APP.clientSecret };

describe("the stand-in's oauth.v2.access", () => {
  it('exchanges a code once for a bot token of that workspace, naming who installed it', () => {
    const oauth = new SlackOAuthStandIn(APP);
    const code = oauth.authorize(GLOBEX, 'U0HANK');
    const answer = oauth.access({ ...client, code });
    expect(answer).toMatchObject({
      ok: true,
      app_id: APP.appId,
      token_type: 'bot',
      bot_user_id: APP.botUserId,
      scope: 'chat:write,app_mentions:read',
      team: GLOBEX,
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: 'U0HANK' },
    });
    expect(answer).not.toHaveProperty('refresh_token');
    expect(oauth.teamOf(String(answer.access_token))).toBe(GLOBEX.id);
    expect(oauth.access({ ...client, code })).toEqual({ ok: false, error: 'invalid_code' });
  });

  it("answers Slack's errors for a wrong client, secret, code or grant type", () => {
    const oauth = new SlackOAuthStandIn(APP);
    const code = oauth.authorize(GLOBEX, 'U0HANK');
    expect(oauth.access({ ...client, client_id: '9.9', code })).toEqual({
      ok: false,
      error: 'invalid_client_id',
    });
    expect(oauth.access({ ...client, client_secret: 'nope', code })).toEqual({
      ok: false,
      error: 'bad_client_secret',
    });
    expect(oauth.access({ ...client, code: 'made-up' })).toEqual({ ok: false, error: 'invalid_code' });
    expect(oauth.access({ ...client, grant_type: 'password' })).toEqual({
      ok: false,
      error: 'invalid_grant_type',
    });
  });

  it('with rotation on, takes each refresh token once for a new token pair', () => {
    const oauth = new SlackOAuthStandIn({ ...APP, tokenLifetimeSeconds: 43_200 });
    const installed = oauth.access({ ...client, code: oauth.authorize(GLOBEX, 'U0HANK') });
    expect(installed).toMatchObject({ ok: true, expires_in: 43_200 });
    const refresh = { ...client, grant_type: 'refresh_token', refresh_token: installed.refresh_token };
    const refreshed = oauth.access(refresh);
    expect(refreshed).toMatchObject({ ok: true, team: GLOBEX, expires_in: 43_200 });
    expect(refreshed.access_token).not.toBe(installed.access_token);
    expect(oauth.access(refresh)).toEqual({ ok: false, error: 'invalid_refresh_token' });
  });

  it("revokes a workspace's tokens on uninstall, and only that workspace's", () => {
    const oauth = new SlackOAuthStandIn({ ...APP, tokenLifetimeSeconds: 43_200 });
    const globex = oauth.access({ ...client, code: oauth.authorize(GLOBEX, 'U0HANK') });
    const acme = oauth.access({
      ...client,
      code: oauth.authorize({ id: 'T0ACME', name: 'Acme' }, 'U0OLIVIA'),
    });
    oauth.revoke(GLOBEX.id);
    expect(oauth.teamOf(String(globex.access_token))).toBeUndefined();
    expect(
      oauth.access({ ...client, grant_type: 'refresh_token', refresh_token: globex.refresh_token }),
    ).toEqual({
      ok: false,
      error: 'invalid_refresh_token',
    });
    expect(oauth.teamOf(String(acme.access_token))).toBe('T0ACME');
  });
});
