// The playground in real Chromium: a person asks, clicks, rates and meets a platform fault on the
// page, and the real gateway answers through the stand-in for Slack. Skipped, with one line saying
// how to enable it, when no Chromium is installed.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Playground } from '../../playground/playground.js';
import { PlatformClient, StaticTokenProvider } from '../../src/platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN } from '../../src/simulator/index.js';
import {
  appMessage,
  chromium,
  shot,
  type,
  useAnotherPlayground,
  usePlaygroundInChromium,
} from './playground-session.js';

const TEST_MS = 45_000;

/**
 * Run in the page (as text: this file has no DOM types): each date in the last tickets table whose text
 * lies on more than one line.
 */
const DATES_SPLIT_OVER_LINES = `(() => {
  const element = [...document.querySelectorAll('.message.ephemeral table')].at(-1);
  const found = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of (node.textContent ?? '').matchAll(/\\d{4}-\\d{2}-\\d{2}(?:[ T]\\d{2}:\\d{2})?/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (tops.size > 1) found.push(match[0]);
    }
  }
  return found;
})()`;

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const WANG_FANG = 'U0WANGFANG';
const LI_WEI = 'U0LIWEI';
const OLIVIA = 'U0OLIVIA';

describe.skipIf(chromium.path === undefined)('the playground in Chromium', () => {
  const session = usePlaygroundInChromium();
  const openAs = (userId: string, on?: Playground) => session.openAs(userId, on);

  /** Sets the platform fault with the page's switch, and waits until the page shows the simulator has it. */
  async function setFault(page: Page, label: string, active: string): Promise<void> {
    await page.getByRole('radio', { name: label }).check();
    // The server's snapshot says the simulator has the fault set (or cleared).
    await page.locator(`.faults[data-active=${active}]`).waitFor();
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
      await answer.getByRole('button', { name: 'This answer was helpful' }).waitFor();
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
      await answer.getByRole('button', { name: 'This answer was helpful' }).waitFor();
      await shot(page, 'suggestion');
      await page.close();
    },
    TEST_MS,
  );

  it(
    "replaces Slack's feedback buttons with the rated line after 👍",
    async () => {
      const page = await openAs(OLIVIA);
      await type(page, 'How do I set up multi-factor authentication?');
      const answer = appMessage(page, 'authenticator app');
      await answer.getByRole('button', { name: 'This answer was helpful' }).click();
      await answer.locator('.block', { hasText: 'rated this answer 👍 helpful' }).waitFor();
      expect(await answer.getByRole('button', { name: 'This answer was helpful' }).count()).toBe(0);
      expect(await answer.getByRole('button', { name: 'This answer was not helpful' }).count()).toBe(0);
      // The rated line names the rater as a mention, drawn with their Slack name: the picker's role is the page's.
      expect(await answer.locator('.mention').allInnerTexts()).toEqual(['@Olivia Reyes']);
      expect(await page.locator('#persona option:checked').innerText()).toBe('Olivia Reyes (operator)');
      await page.getByText("Olivia Reyes's direct messages with Helpdesk Robot").waitFor();
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
        await setFault(page, 'HTTP 500 on every call', 'http500');
        await type(page, 'How do I connect to the VPN?');
        const failure = appMessage(page, 'The answer service is unavailable right now');
        await failure.getByRole('button', { name: 'Try again' }).waitFor();
        await shot(page, 'fault');

        await setFault(page, 'Off', 'none');
        await failure.getByRole('button', { name: 'Try again' }).click();
        const answer = appMessage(page, 'GlobalProtect');
        await answer.waitFor();
        // An image from another host is not fetched: it is shown as a placeholder with its alt text.
        await answer.getByRole('img', { name: 'VPN login screen' }).waitFor();
      } finally {
        session.playground().simulator.faults.clear();
        await page.close();
      }
    },
    TEST_MS,
  );

  it(
    'speaks Chinese to a person whose Slack locale is zh-CN',
    async () => {
      const page = await openAs(WANG_FANG);
      // The page speaks Chinese to her too: the composer is 消息 (Message).
      await type(page, '忘记密码怎么办？', '消息');
      const answer = appMessage(page, /./).filter({
        has: page.getByRole('button', { name: '这个回答有帮助' }),
      });
      await answer.waitFor();
      await answer.getByRole('button', { name: '这个回答没帮助' }).waitFor();
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
        openUrl: session.playground().simulator.url,
        baseUrl: session.playground().simulator.url,
        tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
        timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
      });
      await platform.updateRobotDoc({ docId: 'doc-travel-policy', answerDesc: paragraphs.join('') });
      await platform.close();

      const page = await openAs(LI_WEI);
      await page.getByRole('button', { name: '# help' }).click();
      await type(page, '@Helpdesk What is the travel policy?', '消息');
      const question = page.locator('.conversation .message', { hasText: 'What is the travel policy?' });
      await question.locator('.mention', { hasText: '@Helpdesk Robot' }).waitFor();
      await question.getByRole('button', { name: /条回复/ }).click();

      const thread = page.getByRole('complementary', { name: '话题' });
      await appMessage(thread, 'Rule 60:').waitFor();
      const parts = thread.locator('.message.from-app');
      const count = await parts.count();
      expect(count).toBeGreaterThan(1);
      expect(await parts.first().innerText()).toContain('Rule 1:');
      // Suggestions and ratings come once, on the last part.
      expect(
        await parts
          .last()
          .getByRole('button', { name: /这个回答有帮助|This answer was helpful/ })
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
      await answer.getByRole('button', { name: 'This answer was helpful' }).waitFor();
      // Chatter that is no question gets no answer: the question after it is answered, and it stands alone.
      await type(page, 'thanks, that worked');
      await type(page, 'How do I reset my password?');
      const control = page
        .locator('.conversation .message', { hasText: 'How do I reset my password?' })
        .last();
      // One person's messages are decided in order: once the control has its reply, the chatter was decided.
      await control.getByRole('button', { name: /\d+ repl/ }).waitFor();
      const chatter = page.locator('.conversation .message', { hasText: 'thanks, that worked' });
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
      await answer.getByRole('button', { name: 'This answer was not helpful' }).click();
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
    'shows the Home tab the app publishes when it is opened, and its Statistics, Tickets and example buttons work',
    async () => {
      const page = await openAs(OLIVIA);
      await page.getByRole('button', { name: '🏠 Home' }).click();
      const home = page.locator('.home');
      await home.locator('.block').first().waitFor();
      // A button without a value is sent without one, as Slack does: the operator's Statistics modal opens.
      await home.getByRole('button', { name: 'Statistics' }).click();
      const statistics = page.getByRole('dialog', { name: 'Statistics' });
      await statistics.waitFor();
      await shot(page, 'home');
      // The workspace keeps a person's open modal across pages: closed, so the next page is free.
      await statistics.getByRole('button', { name: 'Close', exact: true }).last().click();
      await statistics.waitFor({ state: 'detached' });
      // Tickets opens the tickets filter.
      await home.getByRole('button', { name: 'Tickets' }).click();
      const tickets = page.getByRole('dialog', { name: 'Tickets' });
      await tickets.locator('button[type=submit]').waitFor();
      await tickets.getByRole('button', { name: 'Close', exact: true }).last().click();
      await tickets.waitFor({ state: 'detached' });
      // An example question is asked in the DM with the app, and answered there.
      await home.getByRole('button', { name: 'How do I connect to the VPN?' }).click();
      await page.getByRole('button', { name: '🤖 Helpdesk Robot' }).click();
      await appMessage(page, 'GlobalProtect').waitFor();
      await page.close();
    },
    TEST_MS,
  );

  it(
    'tells a platform failure in the Home’s Statistics view with Try again, which fills the view once it is back',
    async () => {
      const page = await openAs(OLIVIA);
      try {
        await setFault(page, 'HTTP 500 on every call', 'http500');
        await page.getByRole('button', { name: '🏠 Home' }).click();
        const home = page.locator('.home');
        await home.locator('.block').first().waitFor();
        await home.getByRole('button', { name: 'Statistics' }).click();
        const statistics = page.getByRole('dialog', { name: 'Statistics' });
        await statistics.getByText('The platform answered with an error instead of the statistics').waitFor();
        await shot(page, 'statistics-failure');

        await setFault(page, 'Off', 'none');
        await statistics.getByRole('button', { name: 'Try again' }).click();
        await statistics.getByText('Total messages').waitFor();
        expect(await statistics.getByRole('button', { name: 'Try again' }).count()).toBe(0);
        await shot(page, 'statistics-retried');
        await statistics.getByRole('button', { name: 'Close', exact: true }).last().click();
        await statistics.waitFor({ state: 'detached' });
      } finally {
        session.playground().simulator.faults.clear();
        await page.close();
      }
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
      await answer.getByRole('button', { name: 'This answer was helpful' }).waitFor();
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
      await hers.getByRole('button', { name: 'This answer was helpful' }).waitFor();
      await hers.hover();
      await hers.getByLabel('More actions').click();
      await hers.getByRole('button', { name: 'Edit this answer' }).click();
      await alice.locator('.message.ephemeral', { hasText: /operator/i }).waitFor();
      await alice.close();
      await page.close();
    },
    TEST_MS,
  );

  describe('what a walk through the page found (issue 21)', () => {
    it(
      'keeps the composer on Home, disabled, with a hint saying where to write',
      async () => {
        const page = await openAs(ALICE);
        await page.getByRole('button', { name: '🏠 Home' }).click();
        const composer = page.getByRole('textbox', { name: 'Message', exact: true });
        await page.locator('.conversation-title', { hasText: 'Home' }).waitFor();
        expect(await composer.isDisabled()).toBe(true);
        expect(await composer.getAttribute('placeholder')).toMatch(/open a channel/);
        await shot(page, 'home-composer');
        // Back in a conversation, it takes messages again.
        await page.getByRole('button', { name: '# help' }).click();
        expect(await composer.isEnabled()).toBe(true);
        await page.close();
      },
      TEST_MS,
    );

    it(
      'lets the faults switch be used while a modal is open',
      async () => {
        const page = await openAs(OLIVIA);
        try {
          await type(page, '/cs tickets');
          const modal = page.getByRole('dialog', { name: 'Tickets' });
          await modal.waitFor();
          await setFault(page, 'Too slow (times out)', 'slow');
          await shot(page, 'faults-over-modal');
          await setFault(page, 'Off', 'none');
          await modal.getByRole('button', { name: 'Cancel' }).click();
          await modal.waitFor({ state: 'detached' });
        } finally {
          session.playground().simulator.faults.clear();
          await page.close();
        }
      },
      TEST_MS,
    );

    it(
      'opens a permalink of the stand-in in the page, as the same person, at the message it names',
      async () => {
        // A question the robot cannot answer opens a card in #kb-review; Home links to it.
        const alice = await openAs(ALICE);
        const question = `Can I bring my llama number ${Date.now()} to the office?`;
        await type(alice, question);
        const page = await openAs(OLIVIA);
        await page.getByRole('button', { name: '# kb-review' }).click();
        await appMessage(page, question).waitFor();
        await alice.close();
        await page.getByRole('button', { name: '🏠 Home' }).click();
        const link = page.locator('.home a', { hasText: /llama/ }).first();
        await page.locator('.home .block').first().waitFor();
        await shot(page, 'permalink-home');
        await link.waitFor();
        const tabs = session.context().pages().length;
        await link.click();
        // The same page (no new tab), still Olivia, at the card in #kb-review.
        await page.locator('.conversation-title', { hasText: '# kb-review' }).waitFor();
        const card = page.locator('.message.highlight');
        await card.waitFor();
        expect(await card.innerText()).toContain('llama');
        expect(await page.locator('#persona').inputValue()).toBe(OLIVIA);
        expect(session.context().pages()).toHaveLength(tabs);
        await shot(page, 'permalink');
        await page.close();
      },
      TEST_MS,
    );

    it(
      'marks a conversation with new messages as unread until it is opened',
      async () => {
        const alice = await openAs(ALICE);
        const bob = await openAs(BOB);
        await bob.getByRole('button', { name: '# help' }).click();
        await type(bob, `Lunch at noon, anyone? ${Date.now()}`);
        const help = alice.locator('.nav-item', { hasText: '# help' });
        await help.locator('.unread-count', { hasText: '1' }).waitFor();
        expect(await help.getAttribute('class')).toContain('unread');
        await shot(alice, 'unread');
        await help.click();
        await alice.locator('.conversation-title', { hasText: '# help' }).waitFor();
        expect(await help.locator('.unread-count').count()).toBe(0);
        // Bob wrote it: it is not new to him.
        expect(await bob.locator('.nav-item.unread').count()).toBe(0);
        await bob.close();
        await alice.close();
      },
      TEST_MS,
    );

    it(
      "speaks the persona's language in the page's own words, and changes with the persona",
      async () => {
        const page = await openAs(WANG_FANG);
        await page.locator('.nav-heading', { hasText: '频道' }).waitFor();
        await page.getByRole('textbox', { name: '消息', exact: true }).waitFor();
        expect(await page.getByRole('button', { name: '发送' }).count()).toBe(1);
        expect(await page.locator('.faults legend').innerText()).toBe('平台故障（模拟器）');
        expect(await page.locator('html').getAttribute('lang')).toBe('zh');
        expect(await page.locator('.conversation-purpose').innerText()).toBe('王芳与 Helpdesk Robot 的私信');
        await shot(page, 'page-in-chinese');
        await page.selectOption('#persona', ALICE);
        await page.locator('.nav-heading', { hasText: 'Channels' }).waitFor();
        await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
        await page.close();
      },
      TEST_MS,
    );

    it(
      'keeps every date in the tickets table on one line',
      async () => {
        const page = await openAs(OLIVIA);
        // Narrow, as a laptop beside an open thread: the columns have to wrap somewhere.
        await page.setViewportSize({ width: 1000, height: 800 });
        await type(page, '/cs tickets');
        const modal = page.getByRole('dialog', { name: 'Tickets' });
        await modal.locator('button[type=submit]').click();
        const table = page.locator('.message.ephemeral table').last();
        await table.waitFor();
        const broken: unknown = await page.evaluate(DATES_SPLIT_OVER_LINES);
        await shot(page, 'tickets-narrow');
        expect(await table.locator('td').count()).toBeGreaterThan(0);
        expect(broken).toEqual([]);
        await page.close();
      },
      TEST_MS,
    );
  });

  describe('the assistant panel (issue 20)', () => {
    /** Opens the panel beside the conversation on screen; a new thread, greeted by the app. */
    async function openPanel(
      page: Page,
      names = { open: 'Open the assistant panel', panel: 'Assistant' },
    ): Promise<Locator> {
      await page.getByRole('button', { name: names.open }).click();
      const panel = page.getByRole('complementary', { name: names.panel });
      await appMessage(panel, /./).first().waitFor();
      return panel;
    }

    it(
      'greets with prompts as chips beside the channel, answers a chip in its thread, titles it and rates with Slack’s buttons',
      async () => {
        const page = await openAs(ALICE);
        await page.getByRole('button', { name: '# help' }).click();
        const panel = await openPanel(page);
        await panel.locator('.assistant-context', { hasText: 'Beside #help' }).waitFor();
        const chips = panel.locator('.prompt-chip');
        await chips.first().waitFor();
        const count = await chips.count();
        expect(count).toBeGreaterThan(0);
        expect(count).toBeLessThanOrEqual(4);
        const prompt = (await chips.first().innerText()).trim();
        await chips.first().click();
        // The chip's message is sent as Alice's, and the answer comes in the panel's thread.
        await panel.locator('.message:not(.from-app)').first().waitFor();
        const answer = appMessage(panel, /./).filter({ has: page.locator('.feedback-buttons') });
        await answer.waitFor();
        expect(await panel.locator('.assistant-title').innerText()).not.toBe('');
        // Prompts leave once the person has asked; the channel's own messages are untouched.
        expect(await chips.count()).toBe(0);
        expect(await page.locator('.conversation .message', { hasText: prompt }).count()).toBe(0);
        await shot(page, 'assistant-panel');
        await answer.getByRole('button', { name: 'This answer was helpful' }).click();
        // The rated line takes the buttons' place in the same message.
        await panel
          .locator('.message.from-app .block', { hasText: 'rated this answer 👍 helpful' })
          .waitFor();
        expect(await panel.locator('.feedback-buttons').count()).toBe(0);
        await page.close();
      },
      TEST_MS,
    );

    it(
      'shows the status line while the robot works, until the reply comes',
      async () => {
        const page = await openAs(BOB);
        try {
          const panel = await openPanel(page);
          await setFault(page, 'Too slow (times out)', 'slow');
          await type(page, 'How do I connect to the VPN?', 'Ask the assistant');
          const status = panel.getByRole('status');
          await status.waitFor();
          expect(await status.innerText()).toContain('Helpdesk Robot');
          // The loading messages follow the work: searching first, however long the page has been open.
          expect(await status.innerText()).toContain('Searching the knowledge base');
          await shot(page, 'assistant-status');
          // The platform times out: the failure is the reply, and the status goes with it.
          await appMessage(panel, 'took too long').waitFor();
          await status.waitFor({ state: 'hidden' });
        } finally {
          session.playground().simulator.faults.clear();
          await page.close();
        }
      },
      TEST_MS,
    );

    it(
      'asks with the robot of the channel beside the panel, and of the next one after a switch',
      async () => {
        const page = await openAs(LI_WEI);
        await page.getByRole('button', { name: '# it-help' }).click();
        const panel = await openPanel(page, { open: '打开助手面板', panel: '助手' });
        await type(page, 'How do I connect to the VPN?', '向助手提问');
        // #it-help has IT's robot: the IT desk's checklist.
        await appMessage(panel, 'IT desk checklist').waitFor();
        await page.getByRole('button', { name: '# help' }).click();
        await panel.locator('.assistant-context', { hasText: '旁边：#help' }).waitFor();
        await type(page, 'How do I connect to the VPN?', '向助手提问');
        // #help has the default robot: its answer is the VPN client's, not IT's checklist.
        const second = appMessage(panel, 'GlobalProtect').nth(1);
        await second.waitFor();
        expect(await second.innerText()).not.toContain('IT desk checklist');
        // In the narrow panel an outside image's description stays on one line; its address gives way.
        const described = second.getByRole('img', { name: 'VPN login screen' }).locator('.remote-image-alt');
        expect((await described.boundingBox())?.height).toBeLessThan(25);
        await shot(page, 'assistant-remote-image');
        await page.close();
      },
      TEST_MS,
    );
  });

  describe('with RATING_BUTTONS=classic', () => {
    const classic = useAnotherPlayground({ gatewayEnv: { RATING_BUTTONS: 'classic' } });

    it(
      'rates with the 👍/👎 buttons of before, replaced by the rated line',
      async () => {
        const page = await openAs(ALICE, classic());
        await type(page, 'How do I set up multi-factor authentication?');
        const answer = appMessage(page, 'authenticator app');
        expect(await answer.locator('.feedback-buttons').count()).toBe(0);
        await answer.getByRole('button', { name: '👍 Helpful' }).click();
        await answer.locator('.block', { hasText: 'rated this answer 👍 helpful' }).waitFor();
        expect(await answer.getByRole('button', { name: '👎 Not helpful' }).count()).toBe(0);
        await shot(page, 'rated-classic');
        await page.close();
      },
      TEST_MS,
    );
  });
});
