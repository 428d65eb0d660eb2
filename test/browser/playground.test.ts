// The playground in real Chromium: a person asks, clicks, rates and meets a platform fault on the
// page, and the real gateway answers through the stand-in for Slack. Skipped, with one line saying
// how to enable it, when no Chromium is installed.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Playground, startPlayground } from '../../playground/playground.js';
import { createLogger } from '../../src/logging/logger.js';
import { PlatformClient, StaticTokenProvider } from '../../src/platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN } from '../../src/simulator/index.js';
import { findChromium, launchChromium } from './chromium.js';

const chromium = findChromium();
if (chromium.path === undefined) {
  console.warn(`browser tests skipped: ${chromium.reason}`);
}

/** Where the tests' screenshots go; PLAYGROUND_SCREENSHOTS keeps them somewhere of your choosing. */
const SCREENSHOTS = process.env.PLAYGROUND_SCREENSHOTS ?? join(tmpdir(), 'cs-gateway-playground-screenshots');
/** Waits for what the gateway does: generous for a busy two-core machine, short of the test's limit. */
const STEP_MS = 12_000;
const TEST_MS = 45_000;

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const WANG_FANG = 'U0WANGFANG';
const LI_WEI = 'U0LIWEI';
const OLIVIA = 'U0OLIVIA';

describe.skipIf(chromium.path === undefined)('the playground in Chromium', () => {
  let playground: Playground;
  let browser: { context: BrowserContext; close(): Promise<void> };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    playground = await startPlayground({ port: 0, logger: createLogger({ level: 'silent' }) });
    browser = await launchChromium(chromium.path ?? '');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  }, 30_000);

  async function openAs(userId: string): Promise<Page> {
    const page = await browser.context.newPage();
    page.setDefaultTimeout(STEP_MS);
    await page.setViewportSize({ width: 1400, height: 860 });
    await page.goto(`${playground.url}?as=${userId}`);
    await page.locator('.app.ready').waitFor();
    return page;
  }

  async function type(page: Page, text: string, box = 'Message'): Promise<void> {
    const input = page.getByRole('textbox', { name: box, exact: true });
    await input.fill(text);
    await input.press('Enter');
  }

  /** The app's message (in the conversation or the open thread) that shows `text`. */
  function appMessage(scope: Page | Locator, text: string | RegExp): Locator {
    return scope.locator('.message.from-app', { hasText: text });
  }

  async function shot(page: Page, name: string): Promise<void> {
    // No hover highlight on whatever was clicked last.
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  }

  it(
    'answers a question in the DM, with the answer formatted and the suggestions as buttons',
    async () => {
      const page = await openAs(ALICE);
      await type(page, 'How do I reset my password?');
      const answer = appMessage(page, 'password portal');
      await answer.waitFor();
      // The answer's HTML arrives as mrkdwn and is drawn as Slack draws it: a link and bold text.
      expect(await answer.locator('a', { hasText: 'the password portal' }).getAttribute('href')).toBe(
        'https://password.example.com',
      );
      expect(await answer.locator('b', { hasText: 'Forgot password' }).count()).toBe(1);
      for (const suggestion of ['My account is locked', 'How do I set up multi-factor authentication?']) {
        await answer.getByRole('button', { name: suggestion }).waitFor();
      }
      await answer.getByRole('button', { name: '👍 Helpful' }).waitFor();
      await shot(page, 'answer');
      await page.close();
    },
    TEST_MS,
  );

  it(
    'asks a suggestion when it is clicked, and answers it',
    async () => {
      const page = await openAs(BOB);
      await type(page, 'How do I reset my password?');
      await appMessage(page, 'password portal').getByRole('button', { name: 'My account is locked' }).click();
      const answer = appMessage(page, 'Accounts lock for 15 minutes');
      await answer.waitFor();
      await answer.getByRole('button', { name: '👍 Helpful' }).waitFor();
      await shot(page, 'suggestion');
      await page.close();
    },
    TEST_MS,
  );

  it(
    'replaces the rating buttons with the rated line after 👍',
    async () => {
      const page = await openAs(OLIVIA);
      await type(page, 'How do I set up multi-factor authentication?');
      const answer = appMessage(page, 'authenticator app');
      await answer.getByRole('button', { name: '👍 Helpful' }).click();
      await answer.locator('.block', { hasText: 'rated this answer 👍 helpful' }).waitFor();
      expect(await answer.getByRole('button', { name: '👍 Helpful' }).count()).toBe(0);
      expect(await answer.getByRole('button', { name: '👎 Not helpful' }).count()).toBe(0);
      // The rated line names the rater as a mention, drawn with their name.
      expect(await answer.locator('.mention', { hasText: '@Olivia Reyes (operator)' }).count()).toBe(1);
      await shot(page, 'rated');
      await page.close();
    },
    TEST_MS,
  );

  it(
    'shows the failure and Try again while the platform fails, and answers on Try again once it is back',
    async () => {
      const page = await openAs(BOB);
      try {
        await page.getByRole('radio', { name: 'HTTP 500 on every call' }).check();
        // The server's snapshot says the simulator has the fault set (or cleared).
        await page.locator('.faults[data-active=http500]').waitFor();
        await type(page, 'How do I connect to the VPN?');
        const failure = appMessage(page, 'The answer service is unavailable right now');
        await failure.getByRole('button', { name: 'Try again' }).waitFor();
        await shot(page, 'fault');

        await page.getByRole('radio', { name: 'Off' }).check();
        // The server's snapshot says the simulator has the fault set (or cleared).
        await page.locator('.faults[data-active=none]').waitFor();
        await failure.getByRole('button', { name: 'Try again' }).click();
        const answer = appMessage(page, 'GlobalProtect');
        await answer.waitFor();
        // An image from another host is not fetched: it is shown as a placeholder with its alt text.
        await answer.getByRole('img', { name: 'VPN login screen' }).waitFor();
      } finally {
        playground.simulator.faults.clear();
        await page.close();
      }
    },
    TEST_MS,
  );

  it(
    'speaks Chinese to a person whose Slack locale is zh-CN',
    async () => {
      const page = await openAs(WANG_FANG);
      await type(page, '忘记密码怎么办？');
      const answer = appMessage(page, /./).filter({ has: page.getByRole('button', { name: '👍 有帮助' }) });
      await answer.waitFor();
      await answer.getByRole('button', { name: '👎 没帮助' }).waitFor();
      await shot(page, 'chinese');
      await page.close();
    },
    TEST_MS,
  );

  it(
    'answers a mention in a thread beside the channel, a long answer split over several messages',
    async () => {
      // An operator makes an entry's answer far longer than one Slack message can hold.
      const paragraphs = Array.from(
        { length: 60 },
        (_, index) =>
          `<p>Rule ${index + 1}: <b>book</b> through the portal &amp; keep receipts. ${'Details. '.repeat(50)}</p>`,
      );
      const platform = new PlatformClient({
        openUrl: playground.simulator.url,
        baseUrl: playground.simulator.url,
        tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
        timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
      });
      await platform.updateRobotDoc({ docId: 'doc-travel-policy', answerDesc: paragraphs.join('') });
      await platform.close();

      const page = await openAs(LI_WEI);
      await page.getByRole('button', { name: '# help' }).click();
      await type(page, '@Helpdesk What is the travel policy?');
      const question = page.locator('.conversation .message', { hasText: 'What is the travel policy?' });
      await question.locator('.mention', { hasText: '@Helpdesk Robot' }).waitFor();
      await question.getByRole('button', { name: /replies/ }).click();

      const thread = page.getByRole('complementary', { name: 'Thread' });
      await appMessage(thread, 'Rule 60:').waitFor();
      const parts = thread.locator('.message.from-app');
      const count = await parts.count();
      expect(count).toBeGreaterThan(1);
      expect(await parts.first().innerText()).toContain('Rule 1:');
      // Suggestions and ratings come once, on the last part.
      expect(
        await parts
          .last()
          .getByRole('button', { name: /有帮助|Helpful/ })
          .count(),
      ).toBe(1);
      for (let index = 0; index < count - 1; index += 1) {
        expect(await parts.nth(index).getByRole('button').count()).toBe(0);
      }
      await shot(page, 'thread');
      await page.close();
    },
    TEST_MS,
  );

  it(
    "answers a question in #it-help on its own, from IT's knowledge base, without a mention",
    async () => {
      const page = await openAs(BOB);
      await page.getByRole('button', { name: '# it-help' }).click();
      await type(page, 'How do I connect to the VPN?');
      const question = page
        .locator('.conversation .message', { hasText: 'How do I connect to the VPN?' })
        .last();
      await question.getByRole('button', { name: /\d+ repl/ }).click();
      const thread = page.getByRole('complementary', { name: 'Thread' });
      // Robot 2's answer (the IT desk's checklist), not #help's robot's.
      const answer = appMessage(thread, 'IT desk checklist');
      await answer.waitFor();
      await answer.getByRole('button', { name: '👍 Helpful' }).waitFor();
      // Chatter that is no question gets no answer: the next message stands alone.
      await type(page, 'thanks, that worked');
      const chatter = page.locator('.conversation .message', { hasText: 'thanks, that worked' });
      await chatter.waitFor();
      await page.waitForTimeout(1_000);
      expect(await chatter.getByRole('button', { name: /\d+ repl/ }).count()).toBe(0);
      await shot(page, 'it-help');
      await page.close();
    },
    TEST_MS,
  );

  it(
    "shows an operator #it-help's settings with /cs channel, only to them, and opens them in a modal",
    async () => {
      const page = await openAs(OLIVIA);
      await page.getByRole('button', { name: '# it-help' }).click();
      await type(page, '/cs channel');
      const settings = appMessage(page, 'Settings of');
      await settings.waitFor();
      // Drawn as Slack draws an ephemeral message: for the operator alone.
      await settings.locator('.ephemeral-note', { hasText: 'Only visible to you' }).waitFor();
      expect(await settings.innerText()).toContain('robot 2');
      await settings.getByRole('button', { name: 'Edit' }).click();
      const modal = page.getByRole('dialog');
      await modal.getByText('Channel settings').waitFor();
      await shot(page, 'channel-settings');
      // The workspace keeps a person's open modal across pages: closed, so the next page is free.
      await modal.getByRole('button', { name: 'Cancel' }).click();
      await modal.waitFor({ state: 'detached' });
      await page.close();
    },
    TEST_MS,
  );

  it(
    'answers a reply in a DM thread in that thread, opened from the message',
    async () => {
      const page = await openAs(ALICE);
      await type(page, 'Where is the printer?');
      const question = page.locator('.conversation .message', { hasText: 'Where is the printer?' }).last();
      await question.hover();
      await question.getByRole('button', { name: 'Reply in thread' }).click();
      const thread = page.getByRole('complementary', { name: 'Thread' });
      await type(page, 'My account is locked', 'Reply');
      await appMessage(thread, 'Accounts lock for 15 minutes').waitFor();
      await page.close();
    },
    TEST_MS,
  );

  it(
    'takes a 👎 reason in a modal, refuses it inline when empty, and an operator fixes the entry from the card',
    async () => {
      const page = await openAs(BOB);
      await type(page, 'How do I connect to the office Wi-Fi?');
      const answer = appMessage(page, 'Corp-Secure');
      await answer.getByRole('button', { name: '👎 Not helpful' }).click();
      await answer.getByRole('button', { name: 'Say what was wrong' }).click();

      const reason = page.getByRole('dialog', { name: 'What was wrong?' });
      await reason.getByRole('button', { name: 'Send' }).click();
      await reason.getByRole('alert').filter({ hasText: 'Choose what was wrong' }).waitFor();
      await reason.getByRole('radio', { name: 'Wrong answer' }).check();
      await reason.getByRole('textbox', { name: 'In your own words' }).fill('It is Corp-Staff now');
      await reason.getByRole('button', { name: 'Send' }).click();
      await reason.waitFor({ state: 'detached' });

      // The operator sees the card in the review channel and edits the entry from it.
      await page.selectOption('#persona', OLIVIA);
      await page.getByRole('button', { name: '# kb-review' }).click();
      const card = appMessage(page, 'How do I connect to the office Wi-Fi?').filter({
        hasText: 'Corp-Staff',
      });
      await card.getByRole('button', { name: 'Edit entry' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit entry' });
      await edit
        .getByRole('textbox', { name: /Answer/ })
        .fill('Join **Corp-Staff** with your company account.');
      await shot(page, 'edit-entry');
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('dialog', { name: 'Entry saved' }).waitFor();
      await page.getByRole('dialog', { name: 'Entry saved' }).getByRole('button', { name: 'Close' }).click();
      await card.filter({ hasText: 'Fixed by' }).waitFor();
      expect(await card.getByRole('button', { name: 'Edit entry' }).count()).toBe(0);
      await page.close();
    },
    TEST_MS,
  );

  it(
    'answers /cs help only to whoever typed it, and tells an unknown command apart',
    async () => {
      const page = await openAs(ALICE);
      await page.getByRole('button', { name: '# help' }).click();
      await type(page, '/cs help');
      const help = page.locator('.message.ephemeral', { hasText: '/cs help' });
      await help.waitFor();
      expect(await help.innerText()).toContain('Only visible to you');
      await type(page, '/nope');
      await page.locator('.message.ephemeral', { hasText: '/nope is not a valid command' }).waitFor();

      // Someone else in the channel does not see either.
      const other = await openAs(LI_WEI);
      await other.getByRole('button', { name: '# help' }).click();
      // The first snapshot carries the whole workspace: once the channel is drawn, all of it is there.
      await other.locator('.conversation-title', { hasText: '# help' }).waitFor();
      expect(await other.locator('.message.ephemeral').count()).toBe(0);
      await other.close();
      await page.close();
    },
    TEST_MS,
  );

  it(
    'shows the Home tab the app publishes when it is opened, and its buttons work',
    async () => {
      const page = await openAs(OLIVIA);
      await page.getByRole('button', { name: '🏠 Home' }).click();
      const home = page.locator('.home');
      await home.locator('.block').first().waitFor();
      // A button without a value is sent without one, as Slack does: the operator's Statistics modal opens.
      await home.getByRole('button', { name: 'Statistics' }).click();
      await page.getByRole('dialog', { name: 'Statistics' }).waitFor();
      await shot(page, 'home');
      await page.close();
    },
    TEST_MS,
  );

  it(
    'lists tickets from the /cs tickets modal in a table, and shares the CSV as a file',
    async () => {
      const page = await openAs(OLIVIA);
      await type(page, '/cs tickets');
      const modal = page.getByRole('dialog', { name: 'Tickets' });
      await modal.locator('button[type=submit]').click();
      const result = page.locator('.message.ephemeral', { has: page.locator('table') }).last();
      await result.waitFor();
      await result.getByRole('button', { name: 'Download CSV' }).click();
      await page.locator('.message .file', { hasText: '.csv' }).first().waitFor();
      await shot(page, 'tickets');
      await page.close();
    },
    TEST_MS,
  );

  it(
    'opens the edit modal from the "Edit this answer" shortcut for an operator, and refuses anyone else',
    async () => {
      const page = await openAs(OLIVIA);
      await type(page, 'How do I reset my password?');
      const answer = appMessage(page, 'password portal').last();
      await answer.getByRole('button', { name: '👍 Helpful' }).waitFor();
      await answer.hover();
      await answer.getByLabel('More actions').click();
      await answer.getByRole('button', { name: 'Edit this answer' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit entry' });
      await edit.getByRole('textbox', { name: 'Standard question' }).waitFor();
      expect(await edit.getByRole('textbox', { name: 'Standard question' }).inputValue()).toBe(
        'How do I reset my password?',
      );
      // A text that may not be empty is not labelled optional; a setting that may is.
      expect(await edit.locator('.optional').count()).toBeGreaterThan(0);
      expect(await edit.getByText('Standard question (optional)').count()).toBe(0);
      // Cleared and refused, the field stays as the person left it: empty, not refilled.
      await edit.getByRole('textbox', { name: 'Standard question' }).fill('');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.getByRole('alert').filter({ hasText: 'cannot be empty' }).waitFor();
      expect(await edit.getByRole('textbox', { name: 'Standard question' }).inputValue()).toBe('');
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await edit.waitFor({ state: 'detached' });

      // Alice is no operator: the shortcut on her own answer is refused, to her only.
      const alice = await openAs(ALICE);
      await type(alice, 'How do I reset my password?');
      const hers = appMessage(alice, 'password portal').last();
      await hers.getByRole('button', { name: '👍 Helpful' }).waitFor();
      await hers.hover();
      await hers.getByLabel('More actions').click();
      await hers.getByRole('button', { name: 'Edit this answer' }).click();
      await alice.locator('.message.ephemeral', { hasText: /operator/i }).waitFor();
      await alice.close();
      await page.close();
    },
    TEST_MS,
  );
});
