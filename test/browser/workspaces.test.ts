// The distributed playground in real Chromium: Globex is installed from the page through the gateway's
// own install routes, its admin sets its platform account and review channel up in the Home tab, its
// people get Globex's answers (never Acme's) and their 👎 a card in Globex's channel, and once
// uninstalled nothing there reaches the app.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_PARAM } from '../../playground/protocol.js';
import { appMessage, chromium, shot, type, usePlaygroundInChromium } from './playground-session.js';

const TEST_MS = 90_000;

/**
 * Run in the page (as text: this file has no DOM types): how far the middle of the sidebar's
 * "Add to Slack" words lies from the middle of its button, in pixels.
 */
const ADD_TO_SLACK_OFF_CENTRE = `(() => {
  const button = document.querySelector('.workspaces .add-to-slack');
  const range = document.createRange();
  range.selectNodeContents(button);
  const [box, words] = [button.getBoundingClientRect(), range.getBoundingClientRect()];
  return Math.abs(box.top + box.height / 2 - (words.top + words.height / 2));
})()`;

const GLOBEX = 'T0GLOBEX';
const HANK = 'U0HANK';
const MINDY = 'U0MINDY';
const ALICE = 'U0ALICE';

describe.skipIf(chromium.path === undefined)('the playground with two workspaces', () => {
  const session = usePlaygroundInChromium({ workspaces: true });
  const openInGlobex = (userId: string) => session.openAs(userId, undefined, GLOBEX);

  /** The value the hint panel shows for `label` (the simulator's account for Globex). */
  async function hinted(page: Page, label: string): Promise<string> {
    return (
      await page
        .locator('.setup-hint dt', { hasText: label })
        .locator('xpath=following-sibling::dd[1]')
        .innerText()
    ).trim();
  }

  it(
    'installs Globex from the page, sets it up in Home, answers from its own knowledge base, and uninstalls it',
    async () => {
      const page = await openInGlobex(HANK);
      // Not installed yet: the page says so, and offers to add it.
      await expect(page.locator('.install-banner').innerText()).resolves.toContain('not installed in Globex');
      // The sidebar's Add to Slack reads as a button: its words in its middle.
      expect(await page.evaluate<number>(ADD_TO_SLACK_OFF_CENTRE)).toBeLessThan(2);
      await shot(page, 'globex-1-not-installed');

      await page.locator('.workspaces').getByRole('link', { name: 'Add to Slack' }).click();
      // The gateway's own install page, then the stand-in's consent page.
      await page.getByRole('heading', { name: 'Add the help desk to Slack' }).waitFor();
      await shot(page, 'globex-2-install-page');
      await page.getByRole('link', { name: 'Add to Slack' }).click();
      await page.getByRole('heading', { name: /requesting permission to access the Globex/ }).waitFor();
      await shot(page, 'globex-3-authorize');
      await page.getByRole('link', { name: 'Allow' }).click();
      // The gateway's success page, after its real /slack/oauth_redirect.
      await page.getByRole('link', { name: 'Back to the playground' }).waitFor();
      await shot(page, 'globex-4-installed');
      await page.getByRole('link', { name: 'Back to the playground' }).click();
      await page.locator('.app.ready').waitFor();
      await expect(page.locator('.install-banner').isHidden()).resolves.toBe(true);

      // Its admin (who installed it) sets up Globex's platform account in the Home tab.
      const account = {
        url: await hinted(page, 'Platform URL'),
        sysNum: await hinted(page, 'System number'),
        appId: await hinted(page, 'App id'),
        appKey: await hinted(page, 'App key'),
      };
      await page.getByRole('button', { name: /Home/ }).click();
      await page.getByRole('button', { name: 'Set up the platform account' }).click();
      const modal = page.locator('.modal');
      await modal.getByLabel('Platform address (open_url)').fill(account.url);
      await modal.getByLabel('System number (sysNum)').fill(account.sysNum);
      await modal.getByLabel(/^App id/).fill(account.appId);
      await modal.getByLabel(/^App key/).fill(account.appKey);
      // Globex's groups are offered by handle (from usergroups.list), not typed as ids.
      await modal
        .getByLabel(/^Operators' user group/)
        .selectOption({ label: '@globex-support (Globex support)' });
      await modal.getByLabel(/^Review channel/).selectOption({ label: '#kb-review' });
      await modal.getByLabel(/^Weekly figures channel/).selectOption({ label: '#help' });
      await shot(page, 'globex-5-setup');
      await modal.getByRole('button', { name: 'Check and save' }).click();
      await page.locator('.home-tab', { hasText: account.sysNum }).waitFor();
      await expect(page.locator('.home-tab').innerText()).resolves.toContain('Operators: @globex-support');
      await expect(page.locator('.home-tab').innerText()).resolves.toContain('Review cards: #kb-review');
      await expect(page.locator('.home-tab').innerText()).resolves.toContain('Statistics digest: #help');
      await expect(page.locator('.home-tab').innerText()).resolves.not.toContain(account.appKey);
      await shot(page, 'globex-6-set-up');

      // The weekly digest, posted now, goes to the channel Globex's set-up names, its charts in its thread.
      await page.getByRole('button', { name: '📊 Post the weekly digest now' }).click();
      await page.getByRole('button', { name: '# help', exact: true }).and(page.locator('.current')).waitFor();
      const digest = appMessage(page.getByRole('log', { name: 'Messages' }), 'Service desk digest');
      await expect(digest.innerText()).resolves.toContain('Total messages');
      await digest.getByRole('button', { name: '1 reply' }).waitFor({ timeout: 30_000 });
      await shot(page, 'globex-6-digest');

      // Anyone in Globex now gets Globex's answer.
      const mindy = await openInGlobex(MINDY);
      await type(mindy, 'How do I reset my password?');
      await appMessage(mindy, 'Globex ID kiosk').waitFor();
      await expect(mindy.getByRole('log', { name: 'Messages' }).innerText()).resolves.not.toContain(
        'password.example.com',
      );
      await shot(mindy, 'globex-7-answer');
      // Her 👎 is a card in Globex's own review channel, which its admin sees there.
      await appMessage(mindy, 'Globex ID kiosk')
        .getByRole('button', { name: 'This answer was not helpful' })
        .click();
      await page.getByRole('button', { name: '# kb-review' }).click();
      await appMessage(page, 'How do I reset my password?')
        .getByRole('button', { name: 'Edit entry' })
        .waitFor();
      await shot(page, 'globex-7-review-card');
      // Acme, installed at start, still answers from its own.
      const alice = await session.openAs(ALICE);
      await type(alice, 'How do I reset my password?');
      await appMessage(alice, 'password portal').waitFor();
      await expect(alice.getByRole('log', { name: 'Messages' }).innerText()).resolves.not.toContain('Globex');

      // Uninstalled: the page says so, and a question there reaches nothing.
      await page.getByRole('button', { name: 'Uninstall' }).click();
      await page.locator('.install-banner').waitFor();
      await page.locator('.workspace-link.current', { hasText: 'not installed' }).waitFor();
      const answered = await mindy.locator('.message.from-app').count();
      const calls = await mindy.locator('.calls > li').count();
      const acknowledged = mindy.waitForResponse((response) =>
        response.url().includes('/playground/api/send'),
      );
      await type(mindy, 'How do I connect to the Wi-Fi?');
      expect((await acknowledged).status()).toBe(200);
      await mindy.locator('.install-banner').waitFor();
      expect(await mindy.locator('.message.from-app').count()).toBe(answered);
      expect(await mindy.locator('.calls > li').count()).toBe(calls);
      await shot(mindy, 'globex-8-uninstalled');

      // Installed again, it starts over: the account set before went with the uninstall.
      await page.locator('.workspaces').getByRole('link', { name: 'Add to Slack' }).click();
      await page.getByRole('link', { name: 'Add to Slack' }).click();
      await page.getByRole('link', { name: 'Allow' }).click();
      await page.getByRole('link', { name: 'Back to the playground' }).click();
      await page.locator('.app.ready').waitFor();
      await page.getByRole('button', { name: /Home/ }).click();
      await page.getByRole('button', { name: 'Set up the platform account' }).waitFor();
      await expect(page.locator('.home-tab').innerText()).resolves.not.toContain(account.sysNum);
    },
    TEST_MS,
  );

  it(
    "gives every page it serves an icon, the gateway's install page too: nothing missing in the console",
    async () => {
      const page = await session.context().newPage();
      try {
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
        });
        // Chromium asks for a page's icon once the page has loaded: each waits until that is answered.
        await page.goto(`${session.playground().url}?${WORKSPACE_PARAM}=${GLOBEX}`, {
          waitUntil: 'networkidle',
        });
        await page.goto(`${session.playground().url}slack/install?${WORKSPACE_PARAM}=${GLOBEX}`, {
          waitUntil: 'networkidle',
        });
        await page.getByRole('heading', { name: 'Add the help desk to Slack' }).waitFor();
        await page.getByRole('link', { name: 'Add to Slack' }).click();
        await page.getByRole('heading', { name: /requesting permission to access the Globex/ }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(errors).toEqual([]);
        // The icon itself, as a person would see it opened on its own.
        await page.setViewportSize({ width: 160, height: 160 });
        await page.goto(new URL('favicon.ico', session.playground().url).href);
        await shot(page, 'favicon');
      } finally {
        await page.close();
      }
    },
    TEST_MS,
  );
});
