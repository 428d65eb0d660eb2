// The weekly statistics digest in real Chromium: the page's control runs the gateway's own digest now,
// the page opens its channel, and the digest's thread shows the week's three charts as images. Installed
// in many workspaces, a workspace whose set-up names no digest channel is told so. Skipped when no
// Chromium is installed.
import { describe, expect, it } from 'vitest';
import {
  appMessage,
  chromium,
  naturalSize,
  shot,
  useAnotherPlayground,
  usePlaygroundInChromium,
} from './playground-session.js';

const TEST_MS = 60_000;
const OLIVIA = 'U0OLIVIA';
const ALICE = 'U0ALICE';
const POST_DIGEST = '📊 Post the weekly digest now';

describe.skipIf(chromium.path === undefined)('the weekly digest in the playground', () => {
  const session = usePlaygroundInChromium();

  it(
    "posts the week's figures to #kb-review at once, with the three charts in the digest's thread",
    async () => {
      const page = await session.openAs(OLIVIA);
      await page.getByRole('button', { name: POST_DIGEST }).click();
      // The page opens the digest's channel.
      await page
        .getByRole('button', { name: '# kb-review', exact: true })
        .and(page.locator('.current'))
        .waitFor();
      const list = page.getByRole('log', { name: 'Messages' });
      const digest = appMessage(list, 'Service desk digest');
      await digest.waitFor();
      // Taller than the list once its thread has begun, the digest stays opened at its top (who posted
      // it, when), not scrolled past it.
      await digest.getByRole('button', { name: '1 reply' }).waitFor();
      const listTop = (await list.boundingBox())?.y ?? 0;
      expect((await digest.boundingBox())?.height).toBeGreaterThan((await list.boundingBox())?.height ?? 0);
      await expect.poll(async () => (await digest.boundingBox())?.y).toBeGreaterThanOrEqual(listTop);
      await shot(page, 'digest-opened');
      const figures = await digest.innerText();
      expect(figures).toMatch(/Service desk, \d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}/);
      expect(figures).toMatch(/Total messages\s+[\d,]+/);

      await digest.getByRole('button', { name: '1 reply' }).click();
      const thread = page.getByRole('complementary', { name: 'Thread' });
      const charts = thread.locator('.message .file-image');
      await charts.nth(2).waitFor({ timeout: 30_000 });
      const alts = await charts.evaluateAll((images) =>
        images.map((image) => (image as unknown as { alt: string }).alt),
      );
      expect(alts).toEqual([
        expect.stringMatching(/^Chart of questions a day \(customer messages\), /),
        expect.stringMatching(
          /^Chart of answers rated a day, .+ Total 50 helpful, 11 not helpful; 82% helpful\.$/,
        ),
        expect.stringMatching(/^Chart of tickets opened a day by handling group, /),
      ]);
      for (const index of [0, 1, 2]) expect(await naturalSize(charts.nth(index))).toEqual([1200, 600]);
      await charts.nth(1).scrollIntoViewIfNeeded();
      await shot(page, 'digest-thread');
    },
    TEST_MS,
  );

  describe('installed in many workspaces', () => {
    const workspaces = useAnotherPlayground({ workspaces: true });

    it(
      "says where to name the channel when the workspace's set-up names none",
      async () => {
        const page = await session.openAs(ALICE, workspaces());
        await page.getByRole('button', { name: POST_DIGEST }).click();
        await page
          .getByRole('alert')
          .filter({
            hasText: 'Acme (playground) names no digest channel: Home → Set up the platform account',
          })
          .waitFor();
        expect(await page.locator('.message.from-app', { hasText: 'Service desk digest' }).count()).toBe(0);
        await shot(page, 'digest-no-channel');
      },
      TEST_MS,
    );
  });
});
