// The /cs stats chart in real Chromium: the figures, then the chart shown as an image in the
// operator's DM with its alt text, as Slack shows an uploaded PNG. Skipped when no Chromium is installed.
import { describe, expect, it } from 'vitest';
import { appMessage, chromium, shot, type, usePlaygroundInChromium } from './playground-session.js';

const TEST_MS = 60_000;
const OLIVIA = 'U0OLIVIA';

describe.skipIf(chromium.path === undefined)('the statistics chart in the playground', () => {
  const session = usePlaygroundInChromium();

  it(
    "shows an operator's /cs stats figures, then the chart as an image in their DM, described by its alt text",
    async () => {
      const page = await session.openAs(OLIVIA);
      await type(page, '/cs stats');
      await appMessage(page, 'Service desk,').waitFor();
      const image = page.locator('.message .file-image').last();
      await image.waitFor({ timeout: 30_000 });
      expect(await image.getAttribute('alt')).toMatch(
        /^Chart of questions a day \(customer messages\), \w{3} \d{1,2} – \w{3} \d{1,2}: /,
      );
      // Decoded by the browser at the size it was drawn: a real PNG, not a broken image.
      const drawn = await image.evaluate((element) => {
        // Evaluated in the page, where the element is an <img>; this file's types know no DOM.
        const img = element as unknown as { naturalWidth: number; naturalHeight: number };
        return [img.naturalWidth, img.naturalHeight];
      });
      expect(drawn).toEqual([1200, 600]);
      await image.scrollIntoViewIfNeeded();
      await shot(page, 'statistics-chart');
    },
    TEST_MS,
  );
});
