// #it-help in the playground answers on its own what the robot knows and nothing else: chatter gets
// no reply, no "Get a person" and no on-call mention, while a question in the same breath is answered.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Playground, startPlayground } from '../../playground/playground.js';
import { createLogger } from '../../src/logging/logger.js';
import { findChromium, launchChromium } from './chromium.js';

const chromium = findChromium();
const SCREENSHOTS = process.env.PLAYGROUND_SCREENSHOTS ?? join(tmpdir(), 'cs-gateway-playground-screenshots');
const STEP_MS = 12_000;
const TEST_MS = 45_000;
const BOB = 'U0BOB';

describe.skipIf(chromium.path === undefined)('#it-help in Chromium', () => {
  let playground: Playground;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    playground = await startPlayground({ port: 0, logger: createLogger({ level: 'silent' }) });
    browser = await launchChromium(chromium.path ?? '');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  }, 30_000);

  async function type(page: Page, text: string, box = 'Message'): Promise<void> {
    const input = page.getByRole('textbox', { name: box, exact: true });
    await input.fill(text);
    await input.press('Enter');
  }

  it(
    'leaves chatter the robot cannot answer alone, and answers the question after it',
    async () => {
      const page = await browser.context.newPage();
      page.setDefaultTimeout(STEP_MS);
      try {
        await page.setViewportSize({ width: 1400, height: 860 });
        await page.goto(`${playground.url}?as=${BOB}`);
        await page.locator('.app.ready').waitFor();
        await page.getByRole('button', { name: '# it-help' }).click();
        const chatter = ['lunch?', 'Is it lunch time yet?', 'who is in the office today?'];
        for (const text of chatter) await type(page, text);
        await type(page, 'How do I connect to the VPN?');
        const question = page
          .locator('.conversation .message', { hasText: 'How do I connect to the VPN?' })
          .last();
        // One person's questions are answered in order: once this one has its reply, the chatter was decided.
        await question.getByRole('button', { name: /\d+ repl/ }).click();
        const thread = page.getByRole('complementary', { name: 'Thread' });
        await thread.locator('.message.from-app', { hasText: 'IT desk checklist' }).waitFor();
        for (const text of chatter) {
          const message = page.locator('.conversation .message', { hasText: text }).last();
          expect(await message.getByRole('button', { name: /\d+ repl/ }).count(), text).toBe(0);
        }
        const conversation = await page.locator('.conversation').innerText();
        expect(conversation).not.toContain('Get a person');
        expect(conversation).not.toContain('it-oncall');
        expect(conversation).not.toContain('I have no answer');

        // In the thread: "ok thanks" is not asked; the question after it is answered.
        await type(page, 'ok thanks', 'Reply');
        await type(page, 'and how do I reset my password?', 'Reply');
        await thread.locator('.message.from-app', { hasText: 'password portal' }).waitFor();
        expect(await thread.locator('.message.from-app').count()).toBe(2);
        await page.mouse.move(0, 0);
        await page.screenshot({ path: join(SCREENSHOTS, 'it-help-chatter.png') });
      } finally {
        await page.close();
      }
    },
    TEST_MS,
  );
});
