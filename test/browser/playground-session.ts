// What every browser test file starts from: the playground (the real gateway, the stand-in for Slack
// and the simulator) and Debian's Chromium, one of each per file, and the steps a person takes there.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type Playground, type PlaygroundOptions, startPlayground } from '../../playground/playground.js';
import { createLogger } from '../../src/logging/logger.js';
import { findChromium, launchChromium } from './chromium.js';

export const chromium = findChromium();
if (chromium.path === undefined) {
  console.warn(`browser tests skipped: ${chromium.reason}`);
}

/** Where the tests' screenshots go; PLAYGROUND_SCREENSHOTS keeps them somewhere of your choosing. */
const SCREENSHOTS = process.env.PLAYGROUND_SCREENSHOTS ?? join(tmpdir(), 'cs-gateway-playground-screenshots');
/** Waits for what the gateway does: generous for a busy two-core machine, short of the test's limit. */
const STEP_MS = 12_000;

export interface PlaygroundSession {
  playground(): Playground;
  /** Chromium's one context: every page the tests open, and any the app opens. */
  context(): BrowserContext;
  /** A new page showing the playground (`on`, else the file's) as `userId`, closed after the test. */
  openAs(userId: string, on?: Playground, workspace?: string): Promise<Page>;
}

/** Starts the playground and Chromium before the file's tests and stops them after; call inside describe. */
export function usePlaygroundInChromium(options: { workspaces?: boolean } = {}): PlaygroundSession {
  let playground: Playground | undefined;
  let browser: { context: BrowserContext; close(): Promise<void> } | undefined;
  const opened: Page[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    playground = await startPlayground({
      port: 0,
      logger: createLogger({ level: 'silent' }),
      workspaces: options.workspaces,
    });
    browser = await launchChromium(chromium.path ?? '');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  }, 30_000);

  // A page a failed test left open would hold its event stream.
  afterEach(async () => {
    for (const page of opened.splice(0)) await page.close().catch(() => undefined);
  });

  const started = (): { playground: Playground; browser: NonNullable<typeof browser> } => {
    if (playground === undefined || browser === undefined) throw new Error('the playground is not started');
    return { playground, browser };
  };

  return {
    playground: () => started().playground,
    context: () => started().browser.context,
    async openAs(userId, on = started().playground, workspace) {
      const { browser: chromiumBrowser } = started();
      const page = await chromiumBrowser.context.newPage();
      opened.push(page);
      page.setDefaultTimeout(STEP_MS);
      await page.setViewportSize({ width: 1400, height: 860 });
      await page.goto(`${on.url}?as=${userId}${workspace === undefined ? '' : `&workspace=${workspace}`}`);
      await page.locator('.app.ready').waitFor();
      return page;
    },
  };
}

/**
 * A second playground for a describe's tests, started before them and closed after (its own settings,
 * the same Chromium): the getter throws until it has started.
 */
export function useAnotherPlayground(
  options: Pick<PlaygroundOptions, 'gatewayEnv' | 'workspaces'>,
): () => Playground {
  let another: Playground | undefined;
  beforeAll(async () => {
    another = await startPlayground({ port: 0, logger: createLogger({ level: 'silent' }), ...options });
  }, 60_000);
  afterAll(async () => {
    await another?.close();
  }, 30_000);
  return () => {
    if (another === undefined) throw new Error('the second playground is not started');
    return another;
  };
}

/** Types in a composer (`Message`, `Reply`, the panel's) and sends with Enter. */
export async function type(page: Page, text: string, box = 'Message'): Promise<void> {
  const input = page.getByRole('textbox', { name: box, exact: true });
  await input.fill(text);
  await input.press('Enter');
}

/** The app's message (in the conversation or the open thread) that shows `text`. */
export function appMessage(scope: Page | Locator, text: string | RegExp): Locator {
  return scope.locator('.message.from-app', { hasText: text });
}

/** A screenshot to look at, with no hover highlight on whatever was clicked last. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** An image's decoded size in the browser: a real PNG, not a broken image. */
export function naturalSize(image: Locator): Promise<number[]> {
  return image.evaluate((element) => {
    // Evaluated in the page, where the element is an <img>; this file's types know no DOM.
    const img = element as unknown as { naturalWidth: number; naturalHeight: number };
    return [img.naturalWidth, img.naturalHeight];
  });
}
