// #it-help in the playground answers on its own what the robot knows and nothing else: chatter gets
// no reply, no "Get a person" and no on-call mention, while a question in the same breath is answered.
import { describe, expect, it } from 'vitest';
import { appMessage, chromium, shot, type, usePlaygroundInChromium } from './playground-session.js';

const TEST_MS = 45_000;
const BOB = 'U0BOB';

describe.skipIf(chromium.path === undefined)('#it-help in Chromium', () => {
  const session = usePlaygroundInChromium();

  it(
    'leaves chatter the robot cannot answer alone, and answers the question after it',
    async () => {
      const page = await session.openAs(BOB);
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
      await appMessage(thread, 'IT desk checklist').waitFor();
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
      await appMessage(thread, 'password portal').waitFor();
      expect(await thread.locator('.message.from-app').count()).toBe(2);
      await shot(page, 'it-help-chatter');
    },
    TEST_MS,
  );
});
