import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOT_SCOPES } from '../../../../src/slack/install/scopes.js';

/** The bot scopes under oauth_config.scopes.bot in manifest.yml, comments skipped. */
function manifestBotScopes(): string[] {
  const manifest = readFileSync(join(import.meta.dirname, '../../../../manifest.yml'), 'utf8');
  const block = /\n {2}scopes:\n {4}bot:\n((?: {6}.*\n)+)/.exec(manifest)?.[1] ?? '';
  return [...block.matchAll(/^ {6}- (\S+)$/gm)].map((match) => match[1] ?? '');
}

describe('BOT_SCOPES', () => {
  it("asks an install for exactly the manifest's bot scopes", () => {
    expect(manifestBotScopes().length).toBeGreaterThan(5);
    expect([...BOT_SCOPES].sort()).toEqual(manifestBotScopes().sort());
  });
});
