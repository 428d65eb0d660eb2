// The /cs stats charts in real Chromium: the figures, then the charts shown as images in the
// operator's DM with their alt text, as Slack shows an uploaded PNG. Skipped when no Chromium is installed.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appMessage,
  chromium,
  naturalSize,
  shot,
  type,
  useAnotherPlayground,
  usePlaygroundInChromium,
} from './playground-session.js';

const TEST_MS = 60_000;
const OLIVIA = 'U0OLIVIA';
/** 王芳 reads Chinese; a playground of this file's own makes her an operator too. */
const WANG_FANG = 'U0WANGFANG';

const chartImages = (page: Page, altStart: string) =>
  page.locator(`.message .file-image[alt^="${altStart}"]`);

/**
 * A chart image in the DM, by how its alt text begins: waited for, its alt text, its decoded size;
 * `earlier`: how many such images the DM held before, so the newest is the one waited for.
 */
async function chartImage(
  page: Page,
  altStart: string,
  earlier?: number,
): Promise<{ alt: string | null; size: number[] }> {
  const images = chartImages(page, altStart);
  const image = earlier === undefined ? images.last() : images.nth(earlier);
  await image.waitFor({ timeout: 30_000 });
  await image.scrollIntoViewIfNeeded();
  return { alt: await image.getAttribute('alt'), size: await naturalSize(image) };
}

/** Home → the Statistics button (its name in the page's language), the view it opens. */
async function openStatistics(page: Page, button: string): Promise<void> {
  await page.locator('.sidebar, body').getByRole('button', { name: /🏠/ }).first().click();
  await page.locator('.home .block').first().waitFor();
  await page.locator('.home').getByRole('button', { name: button }).click();
}

describe.skipIf(chromium.path === undefined)('the statistics chart in the playground', () => {
  const session = usePlaygroundInChromium();

  it(
    "shows an operator's /cs stats figures, then the chart as an image in their DM, described by its alt text",
    async () => {
      const page = await session.openAs(OLIVIA);
      await type(page, '/cs stats');
      await appMessage(page, 'Service desk,').waitFor();
      const { alt, size } = await chartImage(page, 'Chart of questions a day');
      expect(alt).toMatch(/^Chart of questions a day \(customer messages\), \w{3} \d{1,2} – \w{3} \d{1,2}: /);
      // Decoded by the browser at the size it was drawn: a real PNG, not a broken image.
      expect(size).toEqual([1200, 600]);
      await shot(page, 'statistics-chart');
    },
    TEST_MS,
  );

  it(
    "shows the chart under the figures in the Home's Statistics view, drawn from the file in the operator's DM",
    async () => {
      const page = await session.openAs(OLIVIA);
      await page.getByRole('button', { name: '🏠 Home' }).click();
      await page.locator('.home .block').first().waitFor();
      await page.locator('.home').getByRole('button', { name: 'Statistics' }).click();
      const statistics = page.getByRole('dialog', { name: 'Statistics' });
      // The questions lead; the tickets chart comes under them.
      const image = statistics.locator('img.image').first();
      await image.waitFor({ timeout: 30_000 });
      expect(await statistics.textContent()).toContain('Total messages');
      expect(await image.getAttribute('alt')).toMatch(
        /^Chart of questions a day \(customer messages\), \w{3} \d{1,2} – \w{3} \d{1,2}: /,
      );
      expect(await naturalSize(image)).toEqual([1200, 600]);
      await image.scrollIntoViewIfNeeded();
      await shot(page, 'statistics-chart-home');
      await statistics.getByRole('button', { name: 'Close', exact: true }).last().click();
      await statistics.waitFor({ state: 'detached' });
    },
    TEST_MS,
  );

  it(
    'draws 👍/👎 a day under the questions once an answer is rated',
    async () => {
      const page = await session.openAs(OLIVIA);
      const rated = '.file-image[alt^="Chart of answers rated a day"]';
      // The demo's week of ratings already draws the chart: the one waited for is the next one.
      const earlier = await page.locator(`.message ${rated}`).count();
      await type(page, 'How do I set up multi-factor authentication?');
      const answer = appMessage(page, 'authenticator app');
      await answer.getByRole('button', { name: 'This answer was helpful' }).click();
      await answer.locator('.block', { hasText: 'rated this answer 👍 helpful' }).waitFor();
      await type(page, '/cs stats');
      const ratings = page.locator(`.message ${rated}`).nth(earlier);
      await ratings.waitFor({ timeout: 30_000 });
      // Today, the chart's last day, holds the 👍 just given.
      expect(await ratings.getAttribute('alt')).toMatch(
        / [1-9]\d* 👍 \d+ 👎\. Total [1-9]\d* helpful, \d+ not helpful; \d+% helpful\.$/,
      );
      // In the same message as the questions chart, under it.
      const message = page.locator('.message', { has: page.locator(rated) }).last();
      expect(await message.locator('.file-image').count()).toBe(3);
      await ratings.scrollIntoViewIfNeeded();
      await shot(page, 'statistics-chart-ratings');
    },
    TEST_MS,
  );

  it(
    'draws tickets opened a day by group as the third chart, each group’s total in its alt text',
    async () => {
      const page = await session.openAs(OLIVIA);
      const earlier = await chartImages(page, 'Chart of tickets opened a day').count();
      await type(page, '/cs stats');
      const { alt, size } = await chartImage(page, 'Chart of tickets opened a day', earlier);
      expect(alt).toMatch(/: total [\d,]+; IT Service Desk [\d,]+, /);
      expect(alt).toMatch(/Busiest day: \w{3}, \w{3} \d{1,2}, [\d,]+\.$/);
      expect(size).toEqual([1200, 600]);
      await shot(page, 'statistics-chart-tickets');
    },
    TEST_MS,
  );

  it(
    "shows 👍/👎 a day and the tickets under the questions in the Home's Statistics view once an answer is rated",
    async () => {
      const page = await session.openAs(OLIVIA);
      await type(page, 'How do I reset my password?');
      const answer = appMessage(page, 'password').last();
      await answer.getByRole('button', { name: 'This answer was helpful' }).click();
      await answer.locator('.block', { hasText: 'rated this answer 👍 helpful' }).waitFor();
      await openStatistics(page, 'Statistics');
      const statistics = page.getByRole('dialog', { name: 'Statistics' });
      const ratings = statistics.locator('img.image[alt^="Chart of answers rated a day"]');
      await ratings.waitFor({ timeout: 30_000 });
      const alts = await statistics
        .locator('img.image')
        .evaluateAll((images) => images.map((image) => (image as unknown as { alt: string }).alt));
      expect(alts).toEqual([
        expect.stringMatching(/^Chart of questions a day \(customer messages\), /),
        // Today, the chart's last day, holds the 👍 just given.
        expect.stringMatching(/^Chart of answers rated a day, .+ [1-9]\d* 👍 \d+ 👎\. Total .+% helpful\.$/),
        expect.stringMatching(/^Chart of tickets opened a day by handling group, /),
      ]);
      expect(await naturalSize(ratings)).toEqual([1200, 600]);
      await ratings.scrollIntoViewIfNeeded();
      await shot(page, 'statistics-chart-home-ratings');
      const tickets = statistics.locator('img.image[alt^="Chart of tickets opened a day"]');
      expect(await naturalSize(tickets)).toEqual([1200, 600]);
      await tickets.scrollIntoViewIfNeeded();
      await shot(page, 'statistics-chart-home-tickets');
      await statistics.getByRole('button', { name: 'Close', exact: true }).last().click();
      await statistics.waitFor({ state: 'detached' });
    },
    TEST_MS,
  );

  describe('for a Chinese operator', () => {
    const chinese = useAnotherPlayground({ gatewayEnv: { OPERATOR_USER_IDS: `${OLIVIA},${WANG_FANG}` } });

    it(
      'writes the chart and its alt text in Chinese',
      async () => {
        const page = await session.openAs(WANG_FANG, chinese());
        // The page speaks her language too: its composer is 消息.
        await type(page, '/cs stats', '消息');
        await appMessage(page, '客服数据，').waitFor();
        const { alt, size } = await chartImage(page, '每日提问');
        expect(alt).toMatch(/^每日提问（客户消息）图表，\d{1,2}月\d{1,2}日 – \d{1,2}月\d{1,2}日：/);
        expect(size).toEqual([1200, 600]);
        await shot(page, 'statistics-chart-zh');
        const tickets = await chartImage(page, '每日新建工单');
        expect(tickets.alt).toMatch(/：合计 [\d,]+；.*行政服务 [\d,]+/);
        await shot(page, 'statistics-chart-tickets-zh');
      },
      TEST_MS,
    );

    it(
      "shows the three charts in Chinese in the Home's Statistics view once she rated an answer",
      async () => {
        const page = await session.openAs(WANG_FANG, chinese());
        await type(page, '忘记密码怎么办？', '消息');
        const answer = appMessage(page, /./)
          .filter({ has: page.getByRole('button', { name: '这个回答有帮助' }) })
          .last();
        await answer.getByRole('button', { name: '这个回答有帮助' }).click();
        await appMessage(page, '评价此回答 👍 有帮助').waitFor();
        await openStatistics(page, '统计');
        const statistics = page.getByRole('dialog', { name: '统计' });
        const ratings = statistics.locator('img.image[alt^="每日答案评价"]');
        await ratings.waitFor({ timeout: 30_000 });
        // Today, the chart's last day, holds the 👍 she just gave.
        expect(await ratings.getAttribute('alt')).toMatch(/ 👍 [1-9]\d* 👎 \d+。合计/);
        expect(await statistics.locator('img.image').first().getAttribute('alt')).toMatch(
          /^每日提问（客户消息）图表，/,
        );
        expect(await statistics.locator('img.image').count()).toBe(3);
        await ratings.scrollIntoViewIfNeeded();
        await shot(page, 'statistics-chart-home-zh');
        const tickets = statistics.locator('img.image').last();
        expect(await tickets.getAttribute('alt')).toMatch(/^每日新建工单（按处理组）图表，.*行政服务 [\d,]+/);
        await tickets.scrollIntoViewIfNeeded();
        await shot(page, 'statistics-chart-home-tickets-zh');
      },
      TEST_MS,
    );
  });
});
