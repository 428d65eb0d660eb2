import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REDIRECT_PATH } from '../../../../src/slack/install/pages.js';
import { BOT_SCOPES } from '../../../../src/slack/install/scopes.js';

/** The one-workspace manifest, and the variant for installing in many workspaces and org-wide. */
const MANIFESTS = ['manifest.yml', 'manifest.distributed.yml'] as const;

/** The events a distributed install needs beyond one workspace's: removals and an org's workspaces. */
const DISTRIBUTION_EVENTS = [
  'app_uninstalled',
  'tokens_revoked',
  'team_access_granted',
  'team_access_revoked',
];

function manifest(name: (typeof MANIFESTS)[number]): string {
  return readFileSync(join(import.meta.dirname, '../../../../', name), 'utf8');
}

/** The list items of a block at `indent` spaces after `heading`, comments skipped. */
function listAfter(text: string, heading: RegExp, indent = 6): string[] {
  const block = new RegExp(`${heading.source}\\n((?: {${indent}}.*\\n)+)`).exec(text)?.[1] ?? '';
  return [...block.matchAll(new RegExp(`^ {${indent}}- (\\S+)$`, 'gm'))].map((match) => match[1] ?? '');
}

const botScopes = (text: string) => listAfter(text, /\n {2}scopes:\n {4}bot:/);
const botEvents = (text: string) => listAfter(text, /\n {4}bot_events:/);

function setting(text: string, name: string): string | undefined {
  return new RegExp(`^ {2}${name}: (\\S+)$`, 'm').exec(text)?.[1];
}

describe('BOT_SCOPES', () => {
  it.each(MANIFESTS)("asks an install for exactly %s's bot scopes", (name) => {
    expect(botScopes(manifest(name)).length).toBeGreaterThan(5);
    expect([...BOT_SCOPES].sort()).toEqual(botScopes(manifest(name)).sort());
  });
});

describe('manifest.distributed.yml', () => {
  const distributed = manifest('manifest.distributed.yml');

  it("subscribes to manifest.yml's events and the uninstall and org workspace events", () => {
    const oneWorkspace = botEvents(manifest('manifest.yml'));
    expect(oneWorkspace.length).toBeGreaterThan(5);
    expect(botEvents(distributed).sort()).toEqual([...oneWorkspace, ...DISTRIBUTION_EVENTS].sort());
  });

  it('sends the installing person back to the install routes, and may be installed org-wide', () => {
    const redirects = listAfter(distributed, /\n {2}redirect_urls:/, 4).map((url) => new URL(url));
    expect(redirects.map((url) => url.pathname)).toEqual([REDIRECT_PATH]);
    expect(redirects.every((url) => url.protocol === 'https:')).toBe(true);
    expect(setting(distributed, 'org_deploy_enabled')).toBe('true');
    expect(setting(distributed, 'token_rotation_enabled')).toBe('true');
    // Slack's requests, on the host of the redirect: events, interactivity and the slash command.
    const requestUrls = [...distributed.matchAll(/^ +(?:request_url|url): (\S+)$/gm)].map(
      (match) => new URL(match[1] ?? ''),
    );
    expect(requestUrls).toHaveLength(3);
    for (const url of requestUrls) {
      expect(url.host).toBe(redirects[0]?.host);
      expect(url.pathname).toBe('/slack/events');
    }
  });
});
