// `/cs channel` typed in the playground as the README writes it (#it-help, @it-oncall, @Alice), in real
// Chromium: the playground escapes the names as Slack does with should_escape, the real gateway applies
// them, and the page draws them by name. Skipped, with one line saying how to enable it, without Chromium.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appMessage, chromium, shot, type, usePlaygroundInChromium } from './playground-session.js';

const TEST_MS = 60_000;

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const OLIVIA = 'U0OLIVIA';

describe.skipIf(chromium.path === undefined)(
  'channel commands in the playground, escaped as Slack does',
  () => {
    const session = usePlaygroundInChromium();
    const openAs = (userId: string) => session.openAs(userId);

    /** A person's top-level message in the open conversation. */
    function posted(page: Page, text: string): Locator {
      return page.locator('.conversation .message', { hasText: text }).last();
    }

    it(
      'applies `/cs channel #it-help escalate:@it-oncall @Bob askers:@Alice`: the names arrive as ids and are drawn by name',
      async () => {
        const page = await openAs(OLIVIA);
        await page.getByRole('button', { name: '# help' }).click();
        // Typed in #help, naming #it-help first, as the README shows; @Bob is new to #it-help's settings.
        await type(page, '/cs channel #it-help escalate:@it-oncall @Bob askers:@Alice');
        const saved = appMessage(page, 'Saved.');
        await saved.waitFor();
        const shown = await saved.innerText();
        expect(shown).toContain('Saved. #it-help now has these settings');
        expect(shown).toMatch(/escalate: @it-oncall, @Bob Okafor|escalate: @Bob Okafor, @it-oncall/);
        expect(shown).toContain('askers: @Alice Martin');
        expect(shown).not.toContain('@group');
        expect(shown).not.toContain('Nothing was changed');
        await shot(page, 'channel-command-saved');

        // Edit opens the modal with #it-help's groups chosen by handle, in plain words.
        await saved.getByRole('button', { name: 'Edit' }).click();
        const modal = page.getByRole('dialog');
        await modal.getByText('Channel settings').waitFor();
        const groups = modal.locator('select[data-action-id=channel_escalate_groups]');
        expect(await groups.locator('option:checked').allInnerTexts()).toEqual(['@it-oncall (IT on call)']);
        const people = modal.locator('select[data-action-id=channel_escalate_people]');
        expect(await people.locator('option:checked').allInnerTexts()).toEqual(['Bob Okafor']);
        expect(await modal.innerText()).toContain('Robot number');
        expect(await modal.innerText()).not.toContain('robotFlag');
        await shot(page, 'channel-command-modal');
        await modal.getByRole('button', { name: 'Cancel' }).click();
        await modal.waitFor({ state: 'detached' });

        // askers:@Alice applied: Bob's question in #it-help is left alone, Alice's is answered on its own.
        const bob = await openAs(BOB);
        await bob.getByRole('button', { name: '# it-help' }).click();
        await type(bob, 'How do I connect to the VPN?');
        const bobsQuestion = posted(bob, 'How do I connect to the VPN?');
        await bobsQuestion.waitFor();
        // A positive control after it: Bob's own mention is answered (his turns are taken in order).
        await type(bob, '@Helpdesk How do I reset my password?');
        await posted(bob, 'How do I reset my password?')
          .getByRole('button', { name: /\d+ repl/ })
          .waitFor();
        expect(await bobsQuestion.getByRole('button', { name: /\d+ repl/ }).count()).toBe(0);

        const alice = await openAs(ALICE);
        await alice.getByRole('button', { name: '# it-help' }).click();
        await type(alice, 'How do I connect to the VPN?');
        await posted(alice, 'How do I connect to the VPN?')
          .getByRole('button', { name: /\d+ repl/ })
          .click();
        const thread = alice.getByRole('complementary', { name: 'Thread' });
        await appMessage(thread, 'IT desk checklist').waitFor();

        // escalate: Get a person calls @it-oncall and Bob, and the line in the button's place says so.
        await alice.getByRole('button', { name: '# it-help' }).click();
        await type(alice, '@Helpdesk Which llama grooms alpacas on Mars?');
        await posted(alice, 'Which llama grooms alpacas on Mars?')
          .getByRole('button', { name: /\d+ repl/ })
          .click();
        const noAnswer = appMessage(thread, 'I have no answer');
        await noAnswer.getByRole('button', { name: 'Get a person' }).click();
        const call = appMessage(thread, 'asks for a person to help');
        await call.waitFor();
        expect(await call.locator('.mention', { hasText: '@it-oncall' }).count()).toBe(1);
        const line = noAnswer.locator('.block', { hasText: 'called' });
        await line.waitFor();
        expect(await line.innerText()).toMatch(
          /@Alice Martin called (@it-oncall, @Bob Okafor|@Bob Okafor, @it-oncall)/,
        );
        // When, as Slack draws its date token: in the reader's own zone, not the fallback's UTC.
        expect(await line.locator('.slack-date').innerText()).toMatch(/^Today \d{1,2}:\d{2}\s[AP]M$/);
        await shot(alice, 'channel-command-escalated');
      },
      TEST_MS,
    );

    it(
      'refuses a name Slack does not know, saying it arrived as plain text and what to do',
      async () => {
        const page = await openAs(OLIVIA);
        await page.getByRole('button', { name: '# it-help' }).click();
        // No such group or channel: Slack leaves the names as typed, and the gateway says so.
        await type(page, '/cs channel #it-hlep escalate:@it-on-call');
        const refused = appMessage(page, 'Nothing was changed');
        await refused.waitFor();
        const shown = await refused.innerText();
        expect(shown).toContain(
          '#it-hlep arrived as plain text, not as a channel Slack recognised: pick it from the autocomplete as you type #, or check its name.',
        );
        expect(shown).toContain(
          '@it-on-call arrived as plain text, not as a person or user group Slack recognised: pick it from the autocomplete as you type @, or check the handle.',
        );
        await shot(page, 'channel-command-unknown-names');
      },
      TEST_MS,
    );
  },
);
