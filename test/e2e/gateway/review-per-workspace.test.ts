// Installed in many workspaces, each keeps its own review cards: a 👎 in Acme becomes a card in Acme's
// review channel, posted with Acme's token, and nothing in Globex; Globex's Home lists none of Acme's
// cards, and a click on Acme's card made from Globex is refused and changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import {
  ACME,
  accountOf,
  ask,
  askerOf,
  type Company,
  fromTeam,
  GLOBEX,
  installedInTwo,
  openHome,
  SIGNING_SECRET,
  type Started,
  setUp,
  since,
  viewText,
  WAIT_MS,
} from '../../support/companies.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { blocksOf, buttonOf, textOf } from '../../support/gateway-harness.js';
import { blockActionsPayload } from '../../support/slack-payloads.js';
import { sendInteraction } from '../../support/slack-signing.js';
import { sleep } from '../../support/wait.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const REVIEW_CHANNEL = new Map<Company, string>([
  [ACME, 'C0ACMEREVIEW'],
  [GLOBEX, 'C0GLOBEXREVIEW'],
]);

/** Both set up by their installers, each with its own account and its own review channel. */
async function setUpBoth(): Promise<Started> {
  const started = await installedInTwo(stops);
  for (const company of [ACME, GLOBEX]) {
    const platform = started.platforms.get(company);
    if (!platform) throw new Error('no platform');
    const saved = await setUp(started, company, {
      ...accountOf(company, platform),
      review: REVIEW_CHANNEL.get(company) ?? '',
    });
    expect(saved.text).toBe('');
  }
  return started;
}

/** `user` of `company` clicks `button` on `message`, in the channel it was posted in. */
async function click(
  started: Started,
  company: Company,
  user: string,
  message: RecordedCall,
  button: ReturnType<typeof buttonOf>,
): Promise<void> {
  const payload = fromTeam(
    blockActionsPayload({
      user,
      channel: String(message.body.channel),
      message: { ts: String(message.response?.ts ?? message.body.ts), blocks: blocksOf(message) },
      actions: [
        { action_id: button.actionId, block_id: button.blockId, value: button.value, text: button.text },
      ],
    }) as unknown as Record<string, unknown>,
    company,
    user,
  );
  expect((await sendInteraction(started.gateway.url, SIGNING_SECRET, payload)).status).toBe(200);
}

const postedTo = (started: Started, channel: string) =>
  started.slack.calls('chat.postMessage').filter((call) => call.body.channel === channel);

describe('review cards kept per workspace', () => {
  it("posts a workspace's card in its own channel with its own token, and keeps it from the other", async () => {
    const started = await setUpBoth();
    const { slack } = started;

    // A 👎 in Acme: a card in Acme's review channel, posted with Acme's token.
    const answer = await ask(started, ACME, 'How do I reset my password?');
    await click(started, ACME, askerOf(ACME), answer, buttonOf(answer, 'rate_down'));
    const card = await slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === REVIEW_CHANNEL.get(ACME),
      WAIT_MS,
    );
    expect(card.token).toBe(ACME.botToken);
    expect(textOf(card)).toContain('How do I reset my password?');
    // Nothing in Globex: no card in its channel, nothing posted with its token.
    await sleep(200);
    expect(postedTo(started, REVIEW_CHANNEL.get(GLOBEX) ?? '')).toEqual([]);
    expect(slack.calls('chat.postMessage').filter((call) => call.token === GLOBEX.botToken)).toEqual([]);

    // Acme's Home lists its card; Globex's lists none of Acme's.
    expect(viewText(await openHome(started, ACME, ACME.installer))).toContain('Review cards waiting: 1');
    const globexHome = viewText(await openHome(started, GLOBEX, GLOBEX.installer));
    expect(globexHome).toContain('No review cards waiting');
    expect(globexHome).not.toContain('Most disliked answers');

    // Globex's installer, an operator there, clicks Acme's card as if it were theirs: refused, nothing changed.
    for (const action of ['review_dismiss', 'review_edit']) {
      const mark = slack.calls().length;
      await click(started, GLOBEX, GLOBEX.installer, card, buttonOf(card, action));
      const told = await slack.waitForCall('chat.postEphemeral', since(slack, mark), WAIT_MS);
      expect(told.token).toBe(GLOBEX.botToken);
      expect(textOf(told)).toContain('This card is no longer known');
      const after = slack.calls().filter(since(slack, mark));
      expect(after.filter((call) => call.method === 'views.open' || call.method === 'chat.update')).toEqual(
        [],
      );
    }
    expect(viewText(await openHome(started, ACME, ACME.installer))).toContain('Review cards waiting: 1');

    // Acme's own operator dismisses it: the card in Acme's channel is updated, with Acme's token.
    const mark = slack.calls().length;
    await click(started, ACME, ACME.installer, card, buttonOf(card, 'review_dismiss'));
    const dismissed = await slack.waitForCall(
      'chat.update',
      (call) => since(slack, mark)(call) && call.body.channel === REVIEW_CHANNEL.get(ACME),
      WAIT_MS,
    );
    expect(dismissed.token).toBe(ACME.botToken);
    expect(viewText(await openHome(started, ACME, ACME.installer))).toContain('No review cards waiting');
  });

  it('keeps no cards in a workspace that names no review channel, and its Home says where to name one', async () => {
    const started = await installedInTwo(stops);
    const platform = started.platforms.get(ACME);
    if (!platform) throw new Error('no platform');
    expect((await setUp(started, ACME, accountOf(ACME, platform))).text).toBe('');

    const answer = await ask(started, ACME, 'How do I reset my password?');
    const mark = started.slack.calls().length;
    await click(started, ACME, askerOf(ACME), answer, buttonOf(answer, 'rate_down'));
    // The 👎 is shown, without "Say what was wrong": no card would take the reason.
    const rated = await started.slack.waitForCall('chat.update', since(started.slack, mark), WAIT_MS);
    expect(JSON.stringify(blocksOf(rated))).not.toContain('dislike_reason');
    await sleep(200);
    expect(started.slack.calls('chat.postMessage').filter(since(started.slack, mark))).toEqual([]);
    expect(viewText(await openHome(started, ACME, ACME.installer))).toContain(
      'this workspace has no review channel',
    );
  });
});
