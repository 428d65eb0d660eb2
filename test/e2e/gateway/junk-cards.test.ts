// What makes no review card: HTML typed as text and keyboard mash are answered (the robot has
// nothing) but never put before the operators. Real gateway over signed HTTP.
import { describe, expect, it } from 'vitest';
import { textOf, useGatewayHarness } from '../../support/gateway-harness.js';
import { directMessage, IDS } from '../../support/slack-payloads.js';
import { waitFor } from '../../support/wait.js';

const REVIEW = 'C0JUNKREVIEW';
const WAIT_MS = 8_000;

const harness = useGatewayHarness({
  env: { REVIEW_CHANNEL_ID: REVIEW, REVIEW_CARD_REFRESH_SECONDS: '0', PLACEHOLDER_DELAY_MS: '10000' },
});

describe('junk asked in a DM', () => {
  it('is answered but makes no card, while a real unanswered question after it does', async () => {
    const h = harness();
    const mark = h.slack.calls().length;
    // As Slack sends it: <, > and & escaped.
    const junk = ['asdfgh qwerty', '&lt;b&gt;hello&lt;/b&gt; &lt;i&gt;world&lt;/i&gt;', 'jjjjjjj kkkkkk'];
    for (const text of junk) {
      expect((await h.sendEvent(directMessage({ text }))).status).toBe(200);
    }
    const control = 'Can I bring my pet llama to the office party?';
    expect((await h.sendEvent(directMessage({ text: control }))).status).toBe(200);
    // One person's questions are answered in order, and cards are noted beside each answer.
    const card = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === REVIEW && h.slack.calls().indexOf(call) >= mark,
      WAIT_MS,
    );
    expect(textOf(card)).toContain('llama');
    const answered = () =>
      h.slack
        .calls()
        .slice(mark)
        .filter((call) => call.method === 'chat.postMessage' && call.body.channel === IDS.dm);
    await waitFor(() => answered().length === junk.length + 1, { timeoutMs: WAIT_MS });
    const cards = h.slack
      .calls()
      .slice(mark)
      .filter((call) => call.body.channel === REVIEW);
    expect(cards.map((call) => textOf(call))).toEqual([textOf(card)]);
  });
});
