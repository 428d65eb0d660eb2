// The playground page's own manners in real Chromium: the composer's hint says how to ask in each
// channel as its settings have it, and switching persona shows the newest message. Skipped, with one
// line saying how to enable it, when no Chromium is installed.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromium, shot, usePlaygroundInChromium } from './playground-session.js';

const TEST_MS = 45_000;

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const OLIVIA = 'U0OLIVIA';
const REVIEW_CHANNEL = 'C0KBREVIEW';

/** Run in the page (as text: this file has no DOM types): how the conversation composer's Send looks. */
const SEND_LOOK = `(() => {
  const style = getComputedStyle(document.querySelector('.conversation > .composer .composer-send'));
  return { background: style.backgroundColor, cursor: style.cursor };
})()`;

/** Run in the page (as text: this file has no DOM types): whether the last tickets table scrolls, and its shade. */
const TABLE_LOOK = `(() => {
  const element = [...document.querySelectorAll('.message.ephemeral .block-table')].at(-1);
  return { wider: element.scrollWidth > element.clientWidth, shadow: getComputedStyle(element).boxShadow };
})()`;

/** A wide table's shaded edges, as Chromium computes the box-shadow of its scrolling box. */
const RIGHT_EDGE_SHADOW =
  'rgba(0, 0, 0, 0.4) -12px 0px 10px -10px inset, rgba(0, 0, 0, 0) 12px 0px 10px -10px inset';
const BOTH_EDGES_SHADOW =
  'rgba(0, 0, 0, 0.4) -12px 0px 10px -10px inset, rgba(0, 0, 0, 0.4) 12px 0px 10px -10px inset';

/** Run in the page (as text: this file has no DOM types): resolves after the next frame is drawn. */
const NEXT_FRAME = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))';

describe.skipIf(chromium.path === undefined)('the playground page', () => {
  const session = usePlaygroundInChromium();
  const openAs = (userId: string) => session.openAs(userId);

  function composer(page: Page) {
    return page.getByRole('textbox', { name: 'Message', exact: true });
  }

  /**
   * More notes than the window shows, `<label> 1` to `<label> <count>`, sent in #kb-review (which answers
   * only mentions), then read there by their sender: the page and its message list, the last note drawn.
   */
  async function readNotes(userId: string, label: string, count: number) {
    for (let index = 1; index <= count; index += 1) {
      const response = await fetch(new URL('playground/api/send', session.playground().url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId, channel: REVIEW_CHANNEL, text: `${label} ${index}` }),
      });
      expect(response.status).toBe(200);
    }
    const page = await openAs(userId);
    await page.getByRole('button', { name: '# kb-review' }).click();
    await page.locator('.conversation .message', { hasText: `${label} ${count}` }).waitFor();
    return { page, list: page.locator('.messages[role=log]').first() };
  }

  it(
    "says in the composer how to ask in a channel, as the channel's mode has it, and follows /cs channel",
    async () => {
      const page = await openAs(OLIVIA);
      await page.getByRole('button', { name: '# it-help' }).click();
      // #it-help answers questions on its own: no mention needed there.
      expect(await composer(page).getAttribute('placeholder')).toBe(
        'Message #it-help — ask a question, no mention needed, or type /cs help',
      );
      await shot(page, 'composer-it-help');
      await page.getByRole('button', { name: '# help' }).click();
      expect(await composer(page).getAttribute('placeholder')).toBe(
        'Message #help — mention @Helpdesk to ask, or type /cs help',
      );

      // The operator sets #help to answer everything: the hint follows at once.
      await composer(page).fill('/cs channel answer:all');
      await composer(page).press('Enter');
      await page.locator('.message.from-app', { hasText: 'Saved.' }).waitFor();
      await page
        .locator(
          'textarea[placeholder="Message #help — every message is answered, no mention needed, or type /cs help"]',
        )
        .waitFor();

      // Answered on its own for Alice only: the hint says so to her, and to Bob how he is answered (a mention).
      await composer(page).fill('/cs channel askers:@Alice');
      await composer(page).press('Enter');
      await page.locator('.message.from-app', { hasText: 'askers: @Alice Martin' }).waitFor();
      const alice = await openAs(ALICE);
      await alice.getByRole('button', { name: '# help' }).click();
      expect(await composer(alice).getAttribute('placeholder')).toBe(
        'Message #help — every message is answered, no mention needed, or type /cs help',
      );
      const bob = await openAs(BOB);
      await bob.getByRole('button', { name: '# help' }).click();
      expect(await composer(bob).getAttribute('placeholder')).toBe(
        'Message #help — mention @Helpdesk to ask, or type /cs help',
      );
      await shot(bob, 'composer-not-an-asker');
    },
    TEST_MS,
  );

  it(
    'shows the newest message of the conversation after switching persona, wherever the last one had scrolled',
    async () => {
      const { page, list } = await readNotes(ALICE, 'Note number', 40);
      // Alice reads back to the first message.
      await list.evaluate((element) => {
        element.scrollTop = 0;
      });
      const before = await list.evaluate((element) => element.scrollTop);
      expect(before).toBe(0);

      await page.selectOption('#persona', BOB);
      await page.locator('.conversation-title', { hasText: '# kb-review' }).waitFor();
      const atEnd = await list.evaluate(
        (element) => element.scrollHeight - element.scrollTop - element.clientHeight < 2,
      );
      expect(atEnd).toBe(true);
      await shot(page, 'persona-switched');
    },
    TEST_MS,
  );

  it(
    'keeps the conversation at its end when the window is resized, and where it was when read back',
    async () => {
      const { page, list } = await readNotes(BOB, 'Reading note', 30);
      const fromEnd = () =>
        list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
      expect(await fromEnd()).toBeLessThan(2);

      // Shorter, then narrower (its lines wrap, the list grows): the newest message stays in sight.
      await page.setViewportSize({ width: 1400, height: 520 });
      await expect.poll(fromEnd).toBeLessThan(2);
      await page.setViewportSize({ width: 1024, height: 520 });
      await expect.poll(fromEnd).toBeLessThan(2);
      await shot(page, 'resized-at-end');

      // Read back to the top, the resize leaves it there.
      await list.evaluate((element) => {
        element.scrollTop = 0;
      });
      await page.setViewportSize({ width: 1400, height: 860 });
      // One frame later, when a ResizeObserver would have moved it.
      await page.evaluate(NEXT_FRAME);
      expect(await list.evaluate((element) => element.scrollTop)).toBe(0);
    },
    TEST_MS,
  );

  it(
    'shows no modal after a reload, as Slack closes one when its client reloads',
    async () => {
      const page = await openAs(OLIVIA);
      await composer(page).fill('/cs tickets');
      await composer(page).press('Enter');
      await page.getByRole('dialog', { name: 'Tickets' }).locator('button[type=submit]').waitFor();

      await page.reload();
      await page.locator('.app.ready').waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      // Closed for good: the next modal opens alone, over nothing left from before.
      await composer(page).fill('/cs tickets');
      await composer(page).press('Enter');
      await page.getByRole('dialog', { name: 'Tickets' }).locator('button[type=submit]').waitFor();
      expect(await page.getByRole('dialog').count()).toBe(1);
      await page.reload();
      await page.locator('.app.ready').waitFor();
      await shot(page, 'reloaded-without-modal');
      expect(await page.getByRole('dialog').count()).toBe(0);
    },
    TEST_MS,
  );

  it(
    'keeps the first tab’s modal open when the same person opens a second tab',
    async () => {
      const first = await openAs(OLIVIA);
      await composer(first).fill('/cs tickets');
      await composer(first).press('Enter');
      const modal = first.getByRole('dialog', { name: 'Tickets' });
      await modal.locator('button[type=submit]').waitFor();

      // A new tab is another client, not a reload of this one: the modal stays where it was opened.
      const second = await openAs(OLIVIA);
      await composer(second).fill('Still here?');
      await composer(second).press('Enter');
      await second.locator('.conversation .message', { hasText: 'Still here?' }).waitFor();
      await shot(first, 'first-tab-keeps-modal');
      expect(await modal.count()).toBe(1);

      // Its own reload still closes it.
      await first.reload();
      await first.locator('.app.ready').waitFor();
      await modal.waitFor({ state: 'detached' });
    },
    TEST_MS,
  );

  it(
    'shades the edge of a tickets table that has more columns behind it, and not one that fits',
    async () => {
      const page = await openAs(OLIVIA);
      // Narrow, as a laptop beside an open thread: the table cannot fit the column.
      await page.setViewportSize({ width: 1000, height: 800 });
      await composer(page).fill('/cs tickets');
      await composer(page).press('Enter');
      const modal = page.getByRole('dialog', { name: 'Tickets' });
      await modal.locator('button[type=submit]').click();
      const table = page.locator('.message.ephemeral .block-table').last();
      await table.waitFor();
      const look = (): Promise<unknown> => page.evaluate(TABLE_LOOK);
      await shot(page, 'tickets-table-edge');
      // Headless Chromium draws no scrollbar: the shaded right edge is what says more columns lie there.
      expect(await look()).toEqual({ wider: true, shadow: RIGHT_EDGE_SHADOW });

      // Halfway, both edges have columns behind them.
      await table.evaluate((element) => {
        element.scrollLeft = (element.scrollWidth - element.clientWidth) / 2;
      });
      await expect.poll(look).toEqual({ wider: true, shadow: BOTH_EDGES_SHADOW });
      await shot(page, 'tickets-table-edges-halfway');

      // Wide enough for every column: no shade at all.
      await page.setViewportSize({ width: 1800, height: 800 });
      await expect.poll(look).toEqual({ wider: false, shadow: 'none' });
    },
    TEST_MS,
  );

  it(
    'marks the DM unread when Home → Tickets answers there, as Slack marks it, and shows the answer when opened',
    async () => {
      const page = await openAs(OLIVIA);
      await page.getByRole('button', { name: '🏠 Home' }).click();
      await page.locator('.home').getByRole('button', { name: 'Tickets' }).click();
      const tickets = page.getByRole('dialog', { name: 'Tickets' });
      await tickets.locator('button[type=submit]').click();
      await tickets.waitFor({ state: 'detached' });
      // Still on Home: the DM with the app says something came, as Slack's sidebar does.
      const dm = page.getByRole('button', { name: /🤖 Helpdesk Robot/ });
      await dm.locator('.unread-count', { hasText: '1' }).waitFor();
      expect(await page.locator('.home-tab').isVisible()).toBe(true);
      await shot(page, 'home-tickets-unread');
      await dm.click();
      const answer = page.locator('.conversation .message.from-app', { has: page.locator('table') }).last();
      await answer.waitFor();
      expect(await dm.locator('.unread-count').count()).toBe(0);
      // Above the table, why it is in the DM: the person came from Home, not from this conversation.
      expect(await answer.innerText()).toMatch(/as you asked from the Home tab|你在主页中查询的工单/);
      await shot(page, 'home-tickets-in-dm');
    },
    TEST_MS,
  );

  it(
    'breaks a word longer than the line that a person types, inside the conversation',
    async () => {
      const page = await openAs(BOB);
      await page.getByRole('button', { name: '# kb-review' }).click();
      const word = `unbroken${'x'.repeat(300)}`;
      await composer(page).fill(word);
      await composer(page).press('Enter');
      const text = page.locator('.conversation .message', { hasText: word }).locator('.rt-section');
      await text.waitFor();
      const list = page.locator('.messages[role=log]').first();
      const [textBox, listBox] = [await text.boundingBox(), await list.boundingBox()];
      expect(textBox?.height).toBeGreaterThan(40);
      expect((textBox?.x ?? 0) + (textBox?.width ?? 0)).toBeLessThanOrEqual(
        (listBox?.x ?? 0) + (listBox?.width ?? 0),
      );
      expect(await list.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
      await shot(page, 'long-word');
    },
    TEST_MS,
  );

  it(
    "greys the composer's Send on Home, where nothing can be written, and not in a conversation",
    async () => {
      const page = await openAs(ALICE);
      const send = page.locator('.conversation > .composer .composer-send');
      const look = () => page.evaluate<{ background: string; cursor: string }>(SEND_LOOK);
      const inConversation = await look();
      expect(inConversation.cursor).toBe('pointer');
      await page.getByRole('button', { name: '🏠 Home' }).click();
      await page.locator('.home-tab:not([hidden])').waitFor();
      expect(await send.isDisabled()).toBe(true);
      const onHome = await look();
      expect(onHome.cursor).toBe('not-allowed');
      expect(onHome.background).not.toBe(inConversation.background);
      await shot(page, 'home-send-disabled');
    },
    TEST_MS,
  );

  it(
    "times the gateway's calls in the person's Slack time zone, as the messages beside them",
    async () => {
      const page = await openAs(BOB);
      const before = Date.now() - 1_000;
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('How do I reset my password?');
      await page.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
      await page.locator('.message.from-app', { hasText: 'password portal' }).last().waitFor();
      const after = Date.now() + 1_000;
      const shown = (await page.locator('.call-time').first().innerText()).replace(/\s/g, ' ');
      // Every second the call may have been made at, as Bob's Slack zone (users.info tz) shows it.
      const inShanghai = new Set<string>();
      for (let at = before; at <= after; at += 1_000) {
        inShanghai.add(
          new Date(at).toLocaleTimeString('en-US', { timeZone: 'Asia/Shanghai' }).replace(/\s/g, ' '),
        );
      }
      expect([...inShanghai]).toContain(shown);
    },
    TEST_MS,
  );

  it(
    'shows every column whole in a window 900 pixels wide, with the activity panel beside the conversation',
    async () => {
      const page = await openAs(ALICE);
      await page.setViewportSize({ width: 900, height: 640 });
      await page.getByRole('button', { name: '# kb-review' }).click();
      const right = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((element) => element.getBoundingClientRect().right);
      expect(await right('.activity')).toBeLessThanOrEqual(900);
      expect(await right('.conversation')).toBeLessThan(await right('.activity'));
      expect(await page.locator('.conversation > .composer .composer-send').isVisible()).toBe(true);
      await shot(page, 'narrow-window');
    },
    TEST_MS,
  );

  it(
    'grows the composer with what is typed, and with a hint that wraps in a narrow window',
    async () => {
      const page = await openAs(ALICE);
      await page.setViewportSize({ width: 1024, height: 640 });
      await page.getByRole('button', { name: '# kb-review' }).click();
      const hidden = () => composer(page).evaluate((element) => element.scrollHeight - element.clientHeight);
      // The hint ("Message #kb-review — mention @Helpdesk to ask, or type /cs help") takes two lines here.
      expect(await hidden()).toBe(0);
      await composer(page).fill('My laptop:\n- will not start\n- beeps three times\n- is two years old');
      expect(await hidden()).toBe(0);
      expect((await composer(page).boundingBox())?.height).toBeGreaterThan(60);
      // Send keeps its size, at the foot of the box.
      expect(
        (await page.locator('.conversation > .composer .composer-send').boundingBox())?.height,
      ).toBeLessThan(40);
      await shot(page, 'composer-grown');
    },
    TEST_MS,
  );

  it(
    'draws what a person types as Slack’s composer sends it: styles, emoji and links',
    async () => {
      const page = await openAs(BOB);
      await page.getByRole('button', { name: '# kb-review' }).click();
      await composer(page).fill(
        'Still *broken* :smile: ~old~ see `vpn.example.com` and https://status.example.com & <tags>',
      );
      await composer(page).press('Enter');
      const typed = page.locator('.conversation .message', { hasText: 'Still' }).last();
      await typed.waitFor();
      expect(await typed.locator('b').innerText()).toBe('broken');
      expect(await typed.locator('s').innerText()).toBe('old');
      expect(await typed.locator('code').innerText()).toBe('vpn.example.com');
      expect(await typed.locator('a').getAttribute('href')).toBe('https://status.example.com');
      expect(await typed.locator('.rt-section').innerText()).toBe(
        'Still broken 😄 old see vpn.example.com and https://status.example.com & <tags>',
      );
      await shot(page, 'typed-formatting');
    },
    TEST_MS,
  );
});
