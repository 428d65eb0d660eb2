// A 👎's reason given after an operator fixed the entry, over signed HTTP: the new card it opens shows
// the answer the asker saw and disliked (not the fixed one), and says the reason came after the change,
// with when, as a Slack date token each reader sees in their own zone.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  blocksOf,
  buttonOf,
  clickButton,
  isRecord,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { elementOf, openedViewId, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { asSubmitted, reasonButtonOf, since } from '../../support/review-steps.js';
import { IDS } from '../../support/slack-payloads.js';

const REVIEW_CHANNEL = 'C0REVIEW';
const OPERATOR = 'U0OPERATOR';
const QUESTION = 'How do I reset my password?';
const WAIT_MS = 10_000;
const TEST_MS = 60_000;
/** Jane's reason on the card: said after the change, with when, as a Slack date token. */
const AFTER_CHANGE =
  /^\*What askers said\*\n• Out of date \(given after the entry was changed <!date\^(\d+)\^\{date_short_pretty\} \{time\}\|[^>]+>, about the answer before\)$/;

const harness = useGatewayHarness({
  env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR, CS_HEADERS_TIMEOUT_MS: '8000' },
});

const toReview = (call: RecordedCall) => call.body.channel === REVIEW_CHANNEL;

function sectionTexts(call: RecordedCall): string[] {
  return blocksOf(call)
    .filter((block) => block.type === 'section' && isRecord(block.text))
    .map((block) => String((block.text as Record<string, unknown>).text ?? ''));
}

describe('a reason given after the entry was fixed', () => {
  it(
    'opens a card with the answer the asker disliked, saying the reason came after the change, and when',
    async () => {
      const h = harness();
      // Jane asks and dislikes the answer: the entry's card is posted.
      const asked = await askByMention(h, QUESTION);
      expect(textOf(asked.answer)).toContain('12 characters');
      const disliking = since(h.slack);
      await h.click(
        clickButton(asked.answer, buttonOf(asked.answer, 'rate_down'), { threadTs: asked.threadTs }),
      );
      const rated = await h.slack.waitForCall(
        'chat.update',
        (call) =>
          disliking(call) &&
          call.body.ts === asked.answer.body.ts &&
          textOf(call).includes('rated this answer 👎'),
        WAIT_MS,
      );
      const card = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => disliking(call) && toReview(call),
        WAIT_MS,
      );
      const cardTs = String(card.response?.ts);

      // An operator fixes the entry from the card before Jane says what was wrong.
      const editing = since(h.slack);
      await h.click(clickButton(card, buttonOf(card, 'review_edit'), { user: OPERATOR, ts: cardTs }));
      const editOpened = await h.slack.waitForCall('views.open', editing, WAIT_MS);
      const editView = viewOf(editOpened);
      const markup = String(elementOf(editView, 'edit_answer')?.initial_value);
      const fixedAnswer = markup.replace('12 characters', '16 characters');
      expect(fixedAnswer).not.toBe(markup);
      const beforeFix = Date.now();
      await h.click(
        viewSubmissionPayload(
          { view: editView, id: openedViewId(editOpened) },
          asSubmitted(editView, { edit_answer: { text: fixedAnswer } }),
          OPERATOR,
        ),
      );
      await h.slack.waitForCall(
        'chat.update',
        (call) =>
          editing(call) && call.body.ts === cardTs && textOf(call).includes(`Fixed by <@${OPERATOR}>`),
        WAIT_MS,
      );
      const afterFix = Date.now();

      // Jane now says what was wrong, from the rated line under the answer she saw.
      const reasoning = since(h.slack);
      await h.click(
        clickButton({ ...rated, body: { ...rated.body, channel: IDS.channel } }, reasonButtonOf(rated), {
          threadTs: asked.threadTs,
        }),
      );
      const reasonOpened = await h.slack.waitForCall('views.open', reasoning, WAIT_MS);
      await h.click(
        viewSubmissionPayload(
          { view: viewOf(reasonOpened), id: openedViewId(reasonOpened) },
          { dislike_reason: { radio: 'out_of_date' } },
          IDS.user,
        ),
      );
      const reopened = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => reasoning(call) && toReview(call),
        WAIT_MS,
      );

      // The answer she disliked, not the fixed one.
      const answer = sectionTexts(reopened).find((text) => text.startsWith('*Answer shown*'));
      expect(answer).toContain('12 characters');
      expect(answer).not.toContain('16 characters');
      // Her reason says it came after the change, and when (a date token between the fix's click and its card update).
      const reasons = sectionTexts(reopened).find((text) => text.startsWith('*What askers said*'));
      expect(reasons).toMatch(AFTER_CHANGE);
      const seconds = Number(AFTER_CHANGE.exec(reasons ?? '')?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(Math.floor(beforeFix / 1000));
      expect(seconds).toBeLessThanOrEqual(Math.ceil(afterFix / 1000));

      // Sam then dislikes the fixed answer: the card shows his (the latest report's), and Jane's reason
      // still says it was about the answer before the change.
      const sam = await askByMention(h, QUESTION, { user: 'U0SAM' });
      expect(textOf(sam.answer)).toContain('16 characters');
      const samDisliking = since(h.slack);
      await h.click(
        clickButton(sam.answer, buttonOf(sam.answer, 'rate_down'), { user: 'U0SAM', threadTs: sam.threadTs }),
      );
      const counted = await h.slack.waitForCall(
        'chat.update',
        (call) => samDisliking(call) && toReview(call) && call.body.ts === reopened.response?.ts,
        WAIT_MS,
      );
      expect(sectionTexts(counted).find((text) => text.startsWith('*Answer shown*'))).toContain(
        '16 characters',
      );
      expect(sectionTexts(counted).find((text) => text.startsWith('*What askers said*'))).toMatch(
        AFTER_CHANGE,
      );
    },
    TEST_MS,
  );
});
