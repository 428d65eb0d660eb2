// An unanswered question's card, acted on by an operator over signed requests against the real
// gateway, the platform simulator and the fake Slack: answer the askers from the card (each told
// where they asked, as from that person; the card marked answered), or link the question to an entry
// and edit that (the card marked linked, the askers told). Operators only, checked again on submit.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  buttonOf,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  isRecord,
  SIGNING_SECRET,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { elementOf, openedViewId, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { ackOf, askInDm, headerOf, since } from '../../support/review-steps.js';
import { IDS } from '../../support/slack-payloads.js';
import { FORM_CONTENT_TYPE, interactionBody, signSlackRequest } from '../../support/slack-signing.js';

const REVIEW_CHANNEL = 'C0REVIEW';
const OPERATOR = 'U0OPERATOR';
const OTHER = 'U_OTHER';
const WAIT_MS = 8_000;
const SLOW_TEST_MS = 40_000;
const OPERATORS_ONLY =
  'Only operators can edit the knowledge base or handle its review cards. To be made one, ask the app’s administrators.';

const toReview = (call: RecordedCall) => call.body.channel === REVIEW_CHANNEL;

/** The unanswered question's card once `count` askers are on it. */
function cardCounted(h: GatewayHarness, count: number): Promise<RecordedCall> {
  const headline = count === 1 ? '❓ Unanswered question' : `❓ Unanswered question · asked ${count} times`;
  return h.slack.waitForCall(
    count === 1 ? 'chat.postMessage' : 'chat.update',
    (call) => toReview(call) && headerOf(call) === headline,
    WAIT_MS,
  );
}

async function openCardModal(
  h: GatewayHarness,
  card: RecordedCall,
  cardTs: string,
  actionId: 'review_answer' | 'review_link',
) {
  const fresh = since(h.slack);
  const response = await h.click(clickButton(card, buttonOf(card, actionId), { user: OPERATOR, ts: cardTs }));
  expect(response.status).toBe(200);
  const opened = await h.slack.waitForCall('views.open', fresh, WAIT_MS);
  return { view: viewOf(opened), id: openedViewId(opened) };
}

describe('an unanswered question answered from its card', () => {
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR },
  });

  it(
    'the operator answers the askers: each is told where they asked, as from that person, and the card says answered',
    async () => {
      const h = harness();
      const question = 'Which llama grooms alpacas on Mars?';
      const jane = await askByMention(h, question);
      const first = await cardCounted(h, 1);
      const cardTs = String(first.response?.ts);
      await askInDm(h, 'which llama grooms alpacas on mars', OTHER);
      const card = await cardCounted(h, 2);
      expect(buttonsOf(card).map((button) => button.actionId)).toEqual([
        'review_answer',
        'review_link',
        'review_dismiss',
      ]);

      // Sam is no operator: told so, and no modal opens.
      await h.click(clickButton(card, buttonOf(card, 'review_answer'), { user: OTHER, ts: cardTs }));
      const refusal = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OTHER,
        WAIT_MS,
      );
      expect(textOf(refusal)).toContain(OPERATORS_ONLY);
      expect(h.slack.calls('views.open')).toEqual([]);

      const modal = await openCardModal(h, card, cardTs, 'review_answer');
      expect(modal.view.callback_id).toBe('review_answer');
      expect(modal.view.submit).toBeDefined();
      expect(JSON.stringify(modal.view.blocks)).toContain(question);

      // Nothing written: refused inline, nobody told.
      expect(ackOf(await h.click(viewSubmissionPayload(modal, {}, OPERATOR)))).toEqual({
        response_action: 'errors',
        errors: { review_answer_text: 'Write the answer to send.' },
      });
      // The right is checked again on submit: a submission under Sam's name is refused.
      const typed = { review_answer_text: { text: 'Llamas stay on Earth.\nAsk *facilities* for alpacas.' } };
      const forged = ackOf(await h.click(viewSubmissionPayload(modal, typed, OTHER)));
      expect(forged).toMatchObject({ response_action: 'errors' });
      expect(JSON.stringify(forged)).toContain(OPERATORS_ONLY);

      const fresh = since(h.slack);
      expect(ackOf(await h.click(viewSubmissionPayload(modal, typed, OPERATOR)))).toEqual({});

      // Jane in her thread, Sam in his DM, each from the operator by name, not from the bot.
      const toJane = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => fresh(call) && call.body.thread_ts === jane.threadTs,
        WAIT_MS,
      );
      expect(textOf(toJane)).toContain(
        `<@${OPERATOR}>, a person on the support team (not the bot), answered`,
      );
      expect(textOf(toJane)).toContain('>Llamas stay on Earth.\n>Ask *facilities* for alpacas.');
      expect(textOf(toJane)).toContain(question);
      const toSam = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => fresh(call) && call.body.channel === IDS.dm,
        WAIT_MS,
      );
      expect(textOf(toSam)).toContain('Llamas stay on Earth.');
      expect(textOf(toSam)).toContain('which llama grooms alpacas on mars');

      // The card says who answered and when, and keeps no buttons.
      const answered = await h.slack.waitForCall(
        'chat.update',
        (call) => fresh(call) && toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(textOf(answered)).toMatch(new RegExp(`💬 Answered by <@${OPERATOR}> <!date\\^\\d+\\^`));
      expect(buttonsOf(answered)).toEqual([]);
      // The operator is told how it went, beside the card.
      const told = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => fresh(call) && call.body.user === OPERATOR,
        WAIT_MS,
      );
      expect(told.body.channel).toBe(REVIEW_CHANNEL);
      expect(textOf(told)).toBe('Your answer was sent to 2 people who asked.');

      // Pressing Answer again on the old card is told it is handled.
      await h.click(clickButton(card, buttonOf(card, 'review_answer'), { user: OPERATOR, ts: cardTs }));
      const handled = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OPERATOR && textOf(call).includes('already handled'),
        WAIT_MS,
      );
      expect(handled.body.channel).toBe(REVIEW_CHANNEL);
    },
    SLOW_TEST_MS,
  );

  it(
    'the operator links the question to an entry: the card says linked, the asker is told, and its edit form opens and saves',
    async () => {
      const h = harness();
      // The robot answered from the entry once, so the form is prefilled from it.
      await askByMention(h, 'How do I reset my password?');
      const question = 'Which llama resets alpaca passwords on Jupiter?';
      const jane = await askByMention(h, question);
      const card = await cardCounted(h, 1);
      const cardTs = String(card.response?.ts);

      const modal = await openCardModal(h, card, cardTs, 'review_link');
      expect(modal.view.callback_id).toBe('review_link');
      expect(
        ackOf(
          await h.click(viewSubmissionPayload(modal, { review_link_doc: { text: 'not an id' } }, OPERATOR)),
        ),
      ).toEqual({
        response_action: 'errors',
        errors: { review_link_doc: expect.stringContaining('entry id') },
      });

      const fresh = since(h.slack);
      const linked = ackOf(
        await h.click(
          viewSubmissionPayload(modal, { review_link_doc: { text: ' doc-password-reset ' } }, OPERATOR),
        ),
      );
      expect(linked.response_action).toBe('update');
      const edit = isRecord(linked.view) ? linked.view : {};
      expect(edit.callback_id).toBe('edit_entry');
      expect(elementOf(edit, 'edit_question_title')?.initial_value).toBe('How do I reset my password?');
      const markup = String(elementOf(edit, 'edit_answer')?.initial_value);
      expect(markup).toContain('12 characters');

      const saved = ackOf(
        await h.click(
          viewSubmissionPayload(
            { view: edit, id: modal.id },
            {
              edit_question_title: { text: 'How do I reset my password?' },
              edit_answer: { text: markup.replace('12 characters', '15 characters') },
            },
            OPERATOR,
          ),
        ),
      );
      expect(saved.response_action).toBe('update');
      expect(JSON.stringify(saved.view)).toContain('Changed: answer.');
      const card2 = await h.slack.waitForCall(
        'chat.update',
        (call) => fresh(call) && toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(textOf(card2)).toContain(`🔗 Linked by <@${OPERATOR}>`);
      expect(buttonsOf(card2).map((button) => button.actionId)).toEqual(['review_unlink']);
      const notice = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => fresh(call) && call.body.thread_ts === jane.threadTs,
        WAIT_MS,
      );
      expect(textOf(notice)).toContain(`Your question “${question}” now has an answer`);
    },
    SLOW_TEST_MS,
  );

  it(
    'refuses an unsigned answer submission (401): nobody is told, the card unchanged',
    async () => {
      const h = harness();
      const forged = viewSubmissionPayload(
        {
          view: {
            type: 'modal',
            callback_id: 'review_answer',
            private_metadata: JSON.stringify({ v: 1, c: `q:${'0'.repeat(32)}`, ch: REVIEW_CHANNEL }),
            blocks: [
              {
                type: 'input',
                block_id: 'review_answer_text',
                element: { type: 'plain_text_input', action_id: 'review_answer_text' },
              },
            ],
          },
          id: 'V0FORGED',
        },
        { review_answer_text: { text: 'Forged answer' } },
        OPERATOR,
      );
      const body = interactionBody(forged);
      const post = (headers: Record<string, string>) =>
        fetch(`${h.url}/slack/events`, {
          method: 'POST',
          headers: { 'content-type': FORM_CONTENT_TYPE, ...headers },
          body,
        }).then((response) => response.status);
      expect(await post({})).toBe(401);
      expect(await post({ ...signSlackRequest('not-the-signing-secret', body) })).toBe(401);
      // Signed, it reaches the listener, which finds no such card and says so to the operator.
      expect(await post({ ...signSlackRequest(SIGNING_SECRET, body) })).toBe(200);
      const unknown = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OPERATOR,
        WAIT_MS,
      );
      expect(textOf(unknown)).toContain('no longer known');
      expect(h.slack.calls('chat.postMessage')).toEqual([]);
    },
    SLOW_TEST_MS,
  );
});
