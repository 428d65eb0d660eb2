// Installing the app from the page, in distributed mode: the gateway's real /slack/install and
// /slack/oauth_redirect, served on the page's own address (so its state cookie is the browser's), with
// Slack's authorize step between them played by the stand-in: a consent page whose Allow hands back a code.
import type { GatewayRequests, Outcome } from './gateway-requests.js';
import { WORKSPACE_PARAM } from './protocol.js';
import type { SlackOAuthStandIn } from './slack-stand-in/oauth.js';
import type { PlaygroundSpace } from './space.js';

export interface InstallPage {
  status: number;
  contentType: string;
  body: string;
  location?: string | undefined;
  setCookie: string[];
}

export interface InstallRoutes {
  oauth: SlackOAuthStandIn;
  /** The page for an install step's address; undefined for any other address. */
  page(url: URL, cookie: string | undefined): Promise<InstallPage | undefined>;
  uninstall(space: PlaygroundSpace, requests: GatewayRequests): Promise<Outcome>;
}

const SLACK_AUTHORIZE = 'https://slack.com/oauth/v2/authorize';
const AUTHORIZE_PATH = '/oauth/v2/authorize';
const ALLOW_PATH = '/oauth/v2/authorize/allow';

export function installRoutes(options: {
  oauth: SlackOAuthStandIn;
  spaces: readonly PlaygroundSpace[];
  gatewayUrl: () => string;
}): InstallRoutes {
  const { oauth, spaces } = options;
  const spaceNamed = (teamId: string | null) =>
    spaces.find((space) => space.workspace.company.team.id === teamId);

  const gatewayPage = async (path: string, url: URL, cookie: string | undefined): Promise<InstallPage> => {
    const response = await fetch(`${options.gatewayUrl()}${path}${url.search}`, {
      headers: cookie === undefined ? {} : { cookie },
      redirect: 'manual',
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'text/html; charset=utf-8',
      body: await response.text(),
      location: response.headers.get('location') ?? undefined,
      setCookie: response.headers.getSetCookie(),
    };
  };

  return {
    oauth,
    async page(url, cookie) {
      if (url.pathname === '/slack/install') {
        const page = await gatewayPage('/slack/install', url, cookie);
        // Slack's authorize page is the stand-in's; `team` picks the workspace, as Slack's own parameter does.
        const team = encodeURIComponent(url.searchParams.get(WORKSPACE_PARAM) ?? '');
        page.body = page.body.replaceAll(`${SLACK_AUTHORIZE}?`, `${AUTHORIZE_PATH}?team=${team}&amp;`);
        return page;
      }
      if (url.pathname === AUTHORIZE_PATH || url.pathname === ALLOW_PATH) {
        const space = spaceNamed(url.searchParams.get('team'));
        const state = url.searchParams.get('state') ?? '';
        if (!space) return html(400, '<h1>No such workspace</h1><p>Pick a workspace to install in.</p>');
        const { team } = space.workspace.company;
        if (url.pathname === AUTHORIZE_PATH) {
          const allow = `${ALLOW_PATH}?team=${encodeURIComponent(team.id)}&state=${encodeURIComponent(state)}`;
          return html(
            200,
            `<h1>Helpdesk Robot is requesting permission to access the ${escapeHtml(team.name)} Slack workspace</h1>
<p>It will be able to read the messages it is mentioned in and its direct messages, and to post answers.</p>
<p><a class="allow" href="${escapeHtml(allow)}">Allow</a> <a href="/?${WORKSPACE_PARAM}=${encodeURIComponent(team.id)}">Cancel</a></p>`,
          );
        }
        // The workspace's operator installs it, as its admin would.
        const installer = space.workspace.company.personas.find((persona) => persona.operator);
        const code = oauth.authorize(team, installer?.id ?? '');
        const location = `/slack/oauth_redirect?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`;
        return { status: 302, contentType: 'text/plain', body: '', location, setCookie: [] };
      }
      if (url.pathname === '/slack/oauth_redirect') {
        const page = await gatewayPage('/slack/oauth_redirect', url, cookie);
        const teamId = url.searchParams.get('code')?.split('.')[0] ?? null;
        const space = spaceNamed(teamId);
        if (space && page.status === 200) space.workspace.installed = true;
        const back = `/?${WORKSPACE_PARAM}=${encodeURIComponent(teamId ?? '')}`;
        page.body = page.body.replace(
          '</body>',
          `<p><a class="back" href="${escapeHtml(back)}">Back to the playground</a></p></body>`,
        );
        return page;
      }
      return undefined;
    },
    async uninstall(space, requests) {
      const told = await requests.uninstalled();
      if (!told.ok) return told;
      oauth.revoke(space.workspace.company.team.id);
      space.workspace.installed = false;
      return { ok: true };
    },
  };
}

function html(status: number, body: string): InstallPage {
  return {
    status,
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slack (playground)</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1d1c1d}
h1{font-size:1.5rem}a.allow{display:inline-block;background:#007a5a;color:#fff;padding:.5rem 1.2rem;border-radius:6px;text-decoration:none;font-weight:700;margin-right:1rem}</style></head><body>${body}</body></html>`,
    setCookie: [],
  };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
