// Finds and starts the Chromium the browser tests drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium
// (Playwright cannot download its own browsers here), headless, with a fresh profile each run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Flags that keep Chromium off the network (it would otherwise reach for Google's hosts at every start). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ChromiumLookup = { path: string; reason?: never } | { path: undefined; reason: string };

export function findChromium(): ChromiumLookup {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    return existsSync(configured)
      ? { path: configured }
      : { path: undefined, reason: `CHROMIUM_PATH=${configured} does not exist` };
  }
  return existsSync(DEFAULT_CHROMIUM)
    ? { path: DEFAULT_CHROMIUM }
    : {
        path: undefined,
        reason: `no Chromium at ${DEFAULT_CHROMIUM}; install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
      };
}

export async function launchChromium(
  executablePath: string,
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'cs-gateway-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
