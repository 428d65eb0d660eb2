// What review cards say, over signed HTTP: Dismiss on an unanswered question's card speaks of the
// question, not of an entry it has none of; on a disliked answer's card, of the entry.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  blocksOf,
  buttonOf,
  clickButton,
  type GatewayHarness,
  isRecord,
  useGatewayHarness,
} from '../../support/gateway-harness.js';

const REVIEW_CHANNEL = 'C0REVIEW';
const OPERATOR = 'U0OPERATOR';
const WAIT_MS = 8_000;

const harness = useGatewayHarness({
  env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR },
});

function since(h: GatewayHarness): (call: RecordedCall) => boolean {
  const mark = h.slack.calls().length;
  return h.slack.madeSince(mark);
}

/** The confirmation text of the card's Dismiss button. */
function dismissConfirmation(card: RecordedCall): string {
  for (const block of blocksOf(card)) {
    if (block.type !== 'actions' || !Array.isArray(block.elements)) continue;
    for (const element of block.elements.filter(isRecord)) {
      const confirm = element.confirm;
      if (element.action_id === 'review_dismiss' && isRecord(confirm) && isRecord(confirm.text)) {
        return String(confirm.text.text ?? '');
      }
    }
  }
  throw new Error(`no Dismiss confirmation on ${JSON.stringify(card.body.blocks)}`);
}

describe('Dismiss on a card', () => {
  it('on an unanswered question, says what dismissing it does without naming an entry', async () => {
    const h = harness();
    const asked = since(h);
    await askByMention(h, 'Which llama shears the alpacas on Venus?');
    const card = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => asked(call) && call.body.channel === REVIEW_CHANNEL,
      WAIT_MS,
    );
    const text = dismissConfirmation(card);
    expect(text).toBe('Nobody is answered or told. The same question asked again starts a new card.');
    expect(text).not.toMatch(/entry/i);
  });

  it('on a disliked answer, says the entry is not changed', async () => {
    const h = harness();
    const answered = await askByMention(h, 'How do I reset my password?');
    const disliking = since(h);
    await h.click(
      clickButton(answered.answer, buttonOf(answered.answer, 'rate_down'), { threadTs: answered.threadTs }),
    );
    const card = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => disliking(call) && call.body.channel === REVIEW_CHANNEL,
      WAIT_MS,
    );
    expect(dismissConfirmation(card)).toBe('The entry is not changed. A later report starts a new card.');
  });
});
