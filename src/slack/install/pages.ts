// The pages a person installing the app sees: "Add to Slack", then done (open the app in Slack) or
// what went wrong and how to try again. Plain HTML, no script; every value escaped.
import type { Installation } from '@slack/bolt';
import { ErrorCode } from '@slack/oauth';

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1d1c1d}
a.button{display:inline-block;background:#4a154b;color:#fff;padding:.6rem 1.2rem;border-radius:6px;text-decoration:none;font-weight:600}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/** The install page: what the app asks for, and Slack's authorize URL (with the state) behind a button. */
export function installPage(url: string): string {
  return page(
    'Add the help desk to Slack',
    `<p>Employees ask the help desk's robot in Slack and rate its answers; operators fix the knowledge base from there.</p>
<p><a class="button" href="${escapeHtml(url)}">Add to Slack</a></p>`,
  );
}

/** After an install: the app's Home tab in Slack, or, for an org-wide install, the page to add it to workspaces. */
export function installedPage(installation: Installation): string {
  const appId = installation.appId;
  const enterpriseId = installation.enterprise?.id;
  if (installation.isEnterpriseInstall && enterpriseId && appId) {
    const add = `https://app.slack.com/manage/${encodeURIComponent(enterpriseId)}/integrations/profile/${encodeURIComponent(appId)}/workspaces/add`;
    return page(
      'Installed for your organisation',
      `<p>Now choose the workspaces it answers in.</p><p><a class="button" href="${escapeHtml(add)}">Add it to workspaces</a></p>`,
    );
  }
  const teamId = installation.team?.id;
  const open =
    appId && teamId
      ? `slack://app?team=${encodeURIComponent(teamId)}&id=${encodeURIComponent(appId)}&tab=home`
      : 'slack://open';
  return page(
    'Installed',
    `<p>The help desk is in your workspace. Ask it in a DM, mention it in a channel, or open its Home tab.</p>
<p><a class="button" href="${escapeHtml(open)}">Open it in Slack</a></p>`,
  );
}

const FAILURES: Partial<Record<string, string>> = {
  [ErrorCode.AuthorizationError]: 'The installation was cancelled in Slack.',
  [ErrorCode.InvalidStateError]: 'This link has expired, was already used, or was opened in another browser.',
  [ErrorCode.MissingStateError]: 'This link is not one the app made.',
  [ErrorCode.MissingCodeError]: 'Slack did not send back an authorisation code.',
};

/** What went wrong, in words for the person installing, and the way back to a fresh start. */
export function failedPage(code: string | undefined): string {
  const reason = (code && FAILURES[code]) ?? 'Slack or the help desk could not finish the installation.';
  return page(
    'The app was not installed',
    `<p>${escapeHtml(reason)} Nothing was installed.</p><p><a class="button" href="${INSTALL_PATH}">Start again</a></p>`,
  );
}
