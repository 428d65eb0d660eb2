import { beforeEach, describe, expect, it } from 'vitest';
import { slackEventCount, waitForEventCount } from '../../support/event-verdicts.js';
import type { FakeSlackApi, RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  blocksOf,
  buttonOf,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  isRecord,
  textOf,
  useGatewayHarness,
  useRedisReplicas,
} from '../../support/gateway-harness.js';
import {
  type InputValue,
  openedViewId,
  viewOf,
  viewSubmissionPayload,
} from '../../support/review-payloads.js';
import { askInDm, findReasonButton, headerOf } from '../../support/review-steps.js';
import { IDS, nextTs } from '../../support/slack-payloads.js';
import { waitFor } from '../../support/wait.js';

const REVIEW_CHANNEL = 'C0REVIEW';
const OPERATOR = 'U0OPERATOR';
const OTHER = 'U_OTHER';
/** Generous: a busy two-core machine runs other e2e files beside this one. */
const WAIT_MS = 8_000;
const SLOW_TEST_MS = 40_000;

// What the app says, as the people in Slack read it (src/slack/i18n.ts, English).
const OPERATORS_ONLY =
  'Only operators can edit the knowledge base or handle its review cards. To be made one, ask the app’s administrators.';
const NO_OPERATORS =
  'Nobody has been made an operator yet, so nobody can edit the knowledge base or handle its review cards. Ask the app’s administrators to name the operators.';
const REASON_NOT_YOURS = 'Only the person who asked can say what was wrong with this answer.';
const REASON_REQUIRED = 'Choose what was wrong, or say it in your own words.';

type Predicate = (call: RecordedCall) => boolean;

const toReview: Predicate = (call) => call.body.channel === REVIEW_CHANNEL;

function cardPosts(slack: FakeSlackApi): RecordedCall[] {
  return slack.calls('chat.postMessage').filter(toReview);
}

function cardUpdates(slack: FakeSlackApi, cardTs: string): RecordedCall[] {
  return slack.calls('chat.update').filter((call) => toReview(call) && call.body.ts === cardTs);
}

function tsOf(post: RecordedCall): string {
  const ts = post.response?.ts;
  if (typeof ts !== 'string') throw new Error(`no ts in the answer to ${JSON.stringify(post.body)}`);
  return ts;
}

/** The text of every block of a type (sections' text and fields, context elements), in order. */
function blockTexts(call: RecordedCall, type: 'section' | 'context'): string[] {
  return blocksOf(call)
    .filter((block) => block.type === type)
    .flatMap((block) => {
      const parts: unknown[] = [
        block.text,
        ...(Array.isArray(block.fields) ? block.fields : []),
        ...(Array.isArray(block.elements) ? block.elements : []),
      ];
      return parts.filter(isRecord).map((part) => String(part.text ?? ''));
    });
}

function hasActionsBlock(call: RecordedCall): boolean {
  return blocksOf(call).some((block) => block.type === 'actions');
}

/** The input blocks of a view by the type of their element: block id → element type. */
function inputBlockIds(view: Record<string, unknown>): Map<string, string> {
  const ids = new Map<string, string>();
  const blocks = Array.isArray(view.blocks) ? view.blocks.filter(isRecord) : [];
  for (const block of blocks) {
    if (block.type === 'input' && isRecord(block.element)) {
      ids.set(String(block.element.type ?? ''), String(block.block_id ?? ''));
    }
  }
  return ids;
}

interface Disliked {
  answer: RecordedCall;
  threadTs: string;
  /** The answer message after the 👎: the rated line in place of the buttons. */
  rated: RecordedCall;
  /** The fake's call count just before the 👎 was clicked. */
  mark: number;
}

/** Asks by mention, presses 👎 as the asker, and waits for the answer to show the rating. */
async function dislike(h: GatewayHarness, question: string, user: string = IDS.user): Promise<Disliked> {
  const asked = await askByMention(h, question, { user });
  const mark = h.slack.calls().length;
  const response = await h.click(
    clickButton(asked.answer, buttonOf(asked.answer, 'rate_down'), { user, threadTs: asked.threadTs }),
  );
  expect(response.status).toBe(200);
  const rated = await h.slack.waitForCall(
    'chat.update',
    (call) => call.body.ts === asked.answer.body.ts && textOf(call).includes('rated this answer 👎'),
    WAIT_MS,
  );
  return { answer: asked.answer, threadTs: asked.threadTs, rated, mark };
}

/** Waits for the review card a 👎 posted (a new card, not an update). */
function postedCard(h: GatewayHarness, mark: number): Promise<RecordedCall> {
  const since = h.slack.madeSince(mark);
  return h.slack.waitForCall('chat.postMessage', (call) => toReview(call) && since(call), WAIT_MS);
}

describe('with a review channel and an operator', () => {
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR, CS_HEADERS_TIMEOUT_MS: '6000' },
  });

  it(
    'a 👎 posts one card with the question as asked, the entry, the answer, the asker and a link',
    async () => {
      const h = harness();
      const question = 'I forgot my password, what now?';
      const { mark, rated } = await dislike(h, question);
      const card = await postedCard(h, mark);

      expect(headerOf(card)).toBe('👎 Answer disliked');
      const sections = blockTexts(card, 'section');
      expect(sections).toContain(`*Question asked*\n>${question}`);
      const answer = sections.find((text) => text.startsWith('*Answer shown*'));
      expect(answer).toContain('the password portal');
      expect(answer).toContain('Forgot password');
      expect(answer).toContain('12 characters');
      expect(sections).toContain('*Entry*\nHow do I reset my password?\n`doc-password-reset`');

      // The link is the one Slack gave for the rated answer.
      const permalinkCall = await h.slack.waitForCall('chat.getPermalink', undefined, WAIT_MS);
      expect(permalinkCall.body).toMatchObject({ channel: IDS.channel, message_ts: rated.body.ts });
      const permalink = String(permalinkCall.response?.permalink);
      expect(permalink).toMatch(/^https:\/\/acme\.slack\.com\/archives\//);
      expect(blockTexts(card, 'context')).toEqual([
        `Latest report: Jane Doe · <${permalink}|View the message>`,
      ]);
      expect(textOf(card)).toContain(question);

      // Open and unhandled: Edit entry and Dismiss.
      expect(buttonsOf(card).map((button) => button.actionId)).toEqual(['review_edit', 'review_dismiss']);
      expect(cardPosts(h.slack)).toHaveLength(1);
      // The 👎 itself reached the platform as feedback.
      expect(h.feedbacks().length).toBeGreaterThan(0);
    },
    SLOW_TEST_MS,
  );

  it(
    'a 👎 in a direct message says so on the card instead of linking to it',
    async () => {
      const h = harness();
      const answer = await askInDm(h, 'How do I add a printer?');
      expect(answer.body.channel).toBe(IDS.dm);
      const mark = h.slack.calls().length;
      await h.click(clickButton(answer, buttonOf(answer, 'rate_down')));
      const card = await postedCard(h, mark);

      expect(sectionsWithEntry(card)).toContain('`doc-printer`');
      expect(blockTexts(card, 'context')).toEqual(['Latest report: Jane Doe · in a direct message']);
      expect(textOf(card)).not.toContain('archives/');
      expect(h.slack.calls('chat.getPermalink')).toEqual([]);
    },
    SLOW_TEST_MS,
  );

  it(
    "a second 👎 on the same entry, by someone else, updates the first card's count: no second post",
    async () => {
      const h = harness();
      const first = await dislike(h, 'How do I connect to the VPN?');
      const card = await postedCard(h, first.mark);
      const cardTs = tsOf(card);
      expect(headerOf(card)).toBe('👎 Answer disliked');

      // Another wording that the robot answers from the same entry.
      const second = await dislike(h, 'my vpn does not connect, help', OTHER);
      const since = h.slack.madeSince(second.mark);
      const counted = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && since(call),
        WAIT_MS,
      );
      expect(counted.body.ts).toBe(cardTs);
      expect(counted.body.channel).toBe(REVIEW_CHANNEL);
      expect(headerOf(counted)).toBe('👎 Answer disliked · 2 times');
      // The latest report is Sam's, in his words.
      expect(blockTexts(counted, 'section')).toContain('*Question asked*\n>my vpn does not connect, help');
      expect(blockTexts(counted, 'context')[0]).toMatch(/^Latest report: User U_OTHER · <https:/);
      expect(cardPosts(h.slack)).toHaveLength(1);
    },
    SLOW_TEST_MS,
  );

  it(
    'an unanswered question asked three ways is one card, updated in place to a count of 3, keeping its first wording',
    async () => {
      const h = harness();
      const mark = h.slack.calls().length;
      const first = await askByMention(h, 'Which llama grooms alpacas on Mars?');
      // An unknown question gets no rating buttons: the card comes from the answer itself.
      expect(buttonsOf(first.answer).map((button) => button.actionId)).not.toContain('rate_down');
      const card = await postedCard(h, mark);
      const cardTs = tsOf(card);
      expect(headerOf(card)).toBe('❓ Unanswered question');
      expect(blockTexts(card, 'section')).toContain('*Question asked*\n>Which llama grooms alpacas on Mars?');

      await askByMention(h, 'which LLAMA grooms   alpacas on mars', { user: OTHER });
      const twice = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && headerOf(call).includes('2 times'),
        WAIT_MS,
      );
      expect(twice.body.ts).toBe(cardTs);
      expect(headerOf(twice)).toBe('❓ Unanswered question · asked 2 times');

      // Punctuation inside the question, an ellipsis and full-width marks make no other question.
      await askByMention(h, 'which llama, grooms alpacas on Mars …！！');
      const thrice = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && headerOf(call).includes('3 times'),
        WAIT_MS,
      );
      expect(thrice.body.ts).toBe(cardTs);
      expect(headerOf(thrice)).toBe('❓ Unanswered question · asked 3 times');
      // The card keeps the wording it was opened with and lists the others, each once.
      expect(blockTexts(thrice, 'section')).toContain(
        '*Question asked*\n>Which llama grooms alpacas on Mars?',
      );
      expect(blockTexts(thrice, 'section')).toContain(
        '*Also asked as*\n• which LLAMA grooms alpacas on mars\n• which llama, grooms alpacas on Mars …！！',
      );
      // No entry to edit: answer the askers, link an entry, or dismiss.
      expect(buttonsOf(thrice).map((button) => button.actionId)).toEqual([
        'review_answer',
        'review_link',
        'review_dismiss',
      ]);
      expect(cardPosts(h.slack)).toHaveLength(1);
      expect(cardUpdates(h.slack, cardTs)).toHaveLength(2);
    },
    SLOW_TEST_MS,
  );

  it(
    'an unanswered question asked by five people at once is counted five times, its card updated once for them, not per asker',
    async () => {
      const h = harness();
      const mark = h.slack.calls().length;
      await askByMention(h, 'Which llama shears alpacas on Jupiter?');
      const card = await postedCard(h, mark);
      const cardTs = tsOf(card);
      await Promise.all(
        ['U_ASKER1', 'U_ASKER2', 'U_ASKER3', 'U_ASKER4'].map((user) =>
          askByMention(h, 'which llama shears alpacas on Jupiter', { user }),
        ),
      );
      // The card's message is refreshed once for the four (REVIEW_CARD_REFRESH_SECONDS, 5 by default).
      const counted = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(headerOf(counted)).toBe('❓ Unanswered question · asked 5 times');
      // The control: a sixth asker's report is shown by the next refresh, and the card changed only
      // these two times (not once per asker in between).
      await askByMention(h, 'which llama shears alpacas on Jupiter', { user: 'U_ASKER5' });
      await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && call.body.ts === cardTs && headerOf(call).endsWith('asked 6 times'),
        10_000,
      );
      expect(cardUpdates(h.slack, cardTs).map((call) => headerOf(call))).toEqual([
        '❓ Unanswered question · asked 5 times',
        '❓ Unanswered question · asked 6 times',
      ]);
      expect(cardPosts(h.slack)).toHaveLength(1);
    },
    SLOW_TEST_MS,
  );

  it(
    'emoji, a mention alone or one word asked without an answer make no card; a real question does',
    async () => {
      const h = harness();
      const mark = h.slack.calls().length;
      for (const junk of ['🦙🦙 🦙', '<@U0SOMEONE>', 'hello?', ':llama: :tada:', '*help*'])
        await askByMention(h, junk);
      const question = 'Which llama shears alpacas on Venus?';
      await askByMention(h, question);
      const card = await postedCard(h, mark);
      expect(blockTexts(card, 'section')).toContain(`*Question asked*\n>${question}`);
      expect(cardPosts(h.slack)).toHaveLength(1);
    },
    SLOW_TEST_MS,
  );

  it(
    'the reason button opens a modal for the asker only; a reason reaches the card; an empty one is refused inline',
    async () => {
      const h = harness();
      const { rated, threadTs, mark } = await dislike(h, 'How do I set up email on my phone?');
      const card = await postedCard(h, mark);
      const cardTs = tsOf(card);
      const reason = findReasonButton(rated);
      if (!reason)
        throw new Error(`no reason button on the rated line: ${JSON.stringify(rated.body.blocks)}`);
      expect(reason.text).toBe('Say what was wrong');
      expect(textOf(rated)).toContain(`<@${IDS.user}> rated this answer 👎 not helpful`);
      const ratedMessage = { ...rated, body: { ...rated.body, channel: IDS.channel } };

      // Sam did not ask: he is told so, and no modal opens.
      await h.click(clickButton(ratedMessage, reason, { user: OTHER, threadTs }));
      const refusal = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OTHER,
        WAIT_MS,
      );
      expect(textOf(refusal)).toContain(REASON_NOT_YOURS);
      expect(h.slack.calls('views.open')).toEqual([]);

      // Jane asked: the modal opens for her.
      await h.click(clickButton(ratedMessage, reason, { threadTs }));
      const opened = await h.slack.waitForCall('views.open', undefined, WAIT_MS);
      const view = viewOf(opened);
      expect(view.callback_id).toBe('dislike_reason');
      expect(JSON.stringify(view.title)).toContain('What was wrong?');
      const inputs = inputBlockIds(view);
      const radioBlock = inputs.get('radio_buttons');
      const textBlock = inputs.get('plain_text_input');
      if (!radioBlock || !textBlock)
        throw new Error(`reason modal lacks its inputs: ${JSON.stringify(view)}`);
      const modal = { view, id: openedViewId(opened) };

      // Nothing chosen, nothing typed: refused inline, the card untouched.
      const empty = await h.click(viewSubmissionPayload(modal, {}, IDS.user));
      expect(empty.status).toBe(200);
      expect(JSON.parse(empty.text)).toEqual({
        response_action: 'errors',
        errors: { [radioBlock]: REASON_REQUIRED },
      });
      expect(cardUpdates(h.slack, cardTs)).toEqual([]);

      // A reason and words: the modal closes, and the card shows them.
      const values: Record<string, InputValue> = {
        [radioBlock]: { radio: 'wrong_answer' },
        [textBlock]: { text: 'Outlook asks for a code the article never mentions' },
      };
      const submitted = await h.click(viewSubmissionPayload(modal, values, IDS.user));
      expect(submitted.status).toBe(200);
      expect(submitted.text === '' ? {} : JSON.parse(submitted.text)).not.toHaveProperty('response_action');
      const withReason = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(blockTexts(withReason, 'section')).toContain(
        '*What askers said*\n• Wrong answer: “Outlook asks for a code the article never mentions”',
      );
      expect(headerOf(withReason)).toBe('👎 Answer disliked');

      // The rated line says the reason was sent, in place of its button; the answer above it stays.
      const sentLine = await h.slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === rated.body.ts && textOf(call).includes('was sent to the team'),
        WAIT_MS,
      );
      expect(findReasonButton(sentLine)).toBeUndefined();
      expect(textOf(sentLine)).toContain(
        `<@${IDS.user}> rated this answer 👎 not helpful · ✓ What was wrong was sent to the team. Thank you.`,
      );
      expect(blocksOf(sentLine).length).toBe(blocksOf(rated).length);
    },
    SLOW_TEST_MS,
  );

  it(
    'a reason given after its card was handled is not lost: it opens a new card, counted, with the reason and a link',
    async () => {
      const h = harness();
      const { rated, threadTs, mark } = await dislike(h, 'How do I submit an expense claim?');
      const card = await postedCard(h, mark);
      const cardTs = tsOf(card);
      const reason = findReasonButton(rated);
      if (!reason)
        throw new Error(`no reason button on the rated line: ${JSON.stringify(rated.body.blocks)}`);

      // Jane opens the reason modal; meanwhile an operator dismisses the card.
      await h.click(
        clickButton({ ...rated, body: { ...rated.body, channel: IDS.channel } }, reason, { threadTs }),
      );
      const opened = await h.slack.waitForCall('views.open', undefined, WAIT_MS);
      const view = viewOf(opened);
      const radioBlock = inputBlockIds(view).get('radio_buttons');
      if (!radioBlock) throw new Error(`reason modal lacks its choices: ${JSON.stringify(view)}`);
      await h.click(clickButton(card, buttonOf(card, 'review_dismiss'), { user: OPERATOR, ts: cardTs }));
      await h.slack.waitForCall('chat.update', (call) => toReview(call) && call.body.ts === cardTs, WAIT_MS);

      const beforeReason = h.slack.calls().length;
      const submitted = await h.click(
        viewSubmissionPayload(
          { view, id: openedViewId(opened) },
          { [radioBlock]: { radio: 'out_of_date' } },
          IDS.user,
        ),
      );
      expect(submitted.status).toBe(200);
      const reopened = await postedCard(h, beforeReason);
      expect(tsOf(reopened)).not.toBe(cardTs);
      expect(headerOf(reopened)).toBe('👎 Answer disliked');
      expect(blockTexts(reopened, 'section')).toContain('*What askers said*\n• Out of date');
      expect(blockTexts(reopened, 'section')).toContain(
        '*Question asked*\n>How do I submit an expense claim?',
      );
      expect(blockTexts(reopened, 'context')[0]).toMatch(
        /^Latest report: Jane Doe · <https:\/\/acme\.slack\.com\/archives\//,
      );
      expect(buttonsOf(reopened).map((button) => button.actionId)).toEqual(['review_edit', 'review_dismiss']);
      // The dismissed card keeps its record.
      expect(cardUpdates(h.slack, cardTs)).toHaveLength(1);
    },
    SLOW_TEST_MS,
  );

  it(
    'Dismiss: a non-operator is told why and the card stays; an operator closes it, buttons gone',
    async () => {
      const h = harness();
      const { mark } = await dislike(h, 'How do I request a new laptop?');
      const card = await postedCard(h, mark);
      const cardTs = tsOf(card);
      const dismiss = buttonOf(card, 'review_dismiss');
      expect(dismiss.text).toBe('Dismiss');

      await h.click(clickButton(card, dismiss, { user: OTHER, ts: cardTs }));
      const refusal = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OTHER,
        WAIT_MS,
      );
      expect(refusal.body.channel).toBe(REVIEW_CHANNEL);
      expect(textOf(refusal)).toContain(OPERATORS_ONLY);
      expect(cardUpdates(h.slack, cardTs)).toEqual([]);

      await h.click(clickButton(card, dismiss, { user: OPERATOR, ts: cardTs }));
      const dismissed = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      const handled = blockTexts(dismissed, 'context').find((text) => text.startsWith('Dismissed by'));
      expect(handled).toMatch(new RegExp(`^Dismissed by <@${OPERATOR}> <!date\\^\\d+\\^`));
      expect(hasActionsBlock(dismissed)).toBe(false);
      expect(buttonsOf(dismissed)).toEqual([]);
      // What was reported is still there to read.
      expect(blockTexts(dismissed, 'section')).toContain('*Question asked*\n>How do I request a new laptop?');

      // A second Dismiss (say, from a stale copy of the card) is told the card was already handled.
      await h.click(clickButton(card, dismiss, { user: OPERATOR, ts: cardTs }));
      const already = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OPERATOR,
        WAIT_MS,
      );
      expect(textOf(already)).toContain('This card was already handled.');
      expect(cardUpdates(h.slack, cardTs)).toHaveLength(1);

      // A new 👎 after that starts a new card.
      const again = await dislike(h, 'How do I request a new laptop?', OTHER);
      const fresh = await postedCard(h, again.mark);
      expect(tsOf(fresh)).not.toBe(cardTs);
      expect(headerOf(fresh)).toBe('👎 Answer disliked');
      expect(cardPosts(h.slack)).toHaveLength(2);
    },
    SLOW_TEST_MS,
  );

  it(
    "a reason submitted by someone else is not noted; the asker's own words alone are noted as Other",
    async () => {
      const h = harness();
      const { rated, threadTs, mark } = await dislike(h, 'What benefits do I get?');
      const card = await postedCard(h, mark);
      const cardTs = tsOf(card);
      const reason = findReasonButton(rated);
      if (!reason)
        throw new Error(`no reason button on the rated line: ${JSON.stringify(rated.body.blocks)}`);
      await h.click(
        clickButton({ ...rated, body: { ...rated.body, channel: IDS.channel } }, reason, { threadTs }),
      );
      const opened = await h.slack.waitForCall('views.open', undefined, WAIT_MS);
      const view = viewOf(opened);
      const textBlock = inputBlockIds(view).get('plain_text_input');
      if (!textBlock) throw new Error(`reason modal lacks its text input: ${JSON.stringify(view)}`);
      const modal = { view, id: openedViewId(opened) };

      // A submission of Jane's modal under Sam's name (forged: Slack would not send one) changes nothing.
      const logsBefore = h.logs.length;
      const forged = await h.click(
        viewSubmissionPayload(modal, { [textBlock]: { text: 'Sam was never asked' } }, OTHER),
      );
      expect(forged.status).toBe(200);
      await waitFor(
        () =>
          h.logs
            .slice(logsBefore)
            .some((record) => record.msg === 'reason not noted: not the asker, or expired'),
        { timeoutMs: WAIT_MS },
      );
      expect(cardUpdates(h.slack, cardTs)).toEqual([]);

      // Jane's words without a choice: a reason too, shown as Other.
      await h.click(
        viewSubmissionPayload(modal, { [textBlock]: { text: 'The pension link is dead' } }, IDS.user),
      );
      const withReason = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      const said = blockTexts(withReason, 'section').find((text) => text.startsWith('*What askers said*'));
      expect(said).toBe('*What askers said*\n• Other: “The pension link is dead”');
      expect(textOf(withReason)).not.toContain('Sam was never asked');
    },
    SLOW_TEST_MS,
  );

  it(
    'a card Slack refused to post keeps its count: the next 👎 posts it, counted twice',
    async () => {
      const h = harness();
      const question = 'Where can I find my payslip?';
      const asked = await askByMention(h, question);
      // The next post is the card's (the rated line is an update): Slack refuses it.
      h.slack.failNext('chat.postMessage', { error: 'channel_not_found' });
      const mark = h.slack.calls().length;
      const logsBefore = h.logs.length;
      await h.click(
        clickButton(asked.answer, buttonOf(asked.answer, 'rate_down'), { threadTs: asked.threadTs }),
      );
      // The gateway tried to post the card (Slack's refusal is the fake's, programmed above).
      await postedCard(h, mark);
      const notShown = await waitFor(
        () => h.logs.slice(logsBefore).find((record) => record.msg === 'review card not shown'),
        { timeoutMs: WAIT_MS },
      );
      // The operator reading the log is told what to do about it.
      expect(JSON.stringify(notShown.err)).toContain('invite the app to the REVIEW_CHANNEL_ID channel');

      const second = await dislike(h, question, OTHER);
      const card = await postedCard(h, second.mark);
      expect(card.response?.ok).toBe(true);
      expect(headerOf(card)).toBe('👎 Answer disliked · 2 times');
      expect(sectionsWithEntry(card)).toContain('`doc-payslip`');
      expect(cardPosts(h.slack)).toHaveLength(2);
    },
    SLOW_TEST_MS,
  );

  it(
    'a card deleted from the channel is posted again by the next 👎, with the count carried on',
    async () => {
      const h = harness();
      const question = 'How do I request annual leave?';
      const first = await dislike(h, question);
      const card = await postedCard(h, first.mark);
      const cardTs = tsOf(card);

      // Someone deleted the card: Slack answers its update with message_not_found.
      h.slack.setHandler('chat.update', (call) =>
        toReview(call)
          ? { ok: false, error: 'message_not_found' }
          : { ok: true, channel: call.body.channel, ts: call.body.ts, text: call.body.text ?? '' },
      );
      const second = await dislike(h, question, OTHER);
      const reposted = await postedCard(h, second.mark);
      const gone = h.slack.calls('chat.update').filter((call) => toReview(call) && call.body.ts === cardTs);
      // It tried the card's message once, then posted a new one.
      expect(gone).toHaveLength(1);
      expect(tsOf(reposted)).not.toBe(cardTs);
      expect(headerOf(reposted)).toBe('👎 Answer disliked · 2 times');
      expect(cardPosts(h.slack)).toHaveLength(2);
    },
    SLOW_TEST_MS,
  );
});

/** The entry field of a card (title and docId). */
function sectionsWithEntry(card: RecordedCall): string {
  return blockTexts(card, 'section').find((text) => text.startsWith('*Entry*')) ?? '';
}

describe('with a review channel, the asker hidden, and no operators set up', () => {
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, REVIEW_SHOW_ASKER: 'false' },
  });

  it(
    "the card leaves out the asker's name but keeps the link",
    async () => {
      const h = harness();
      const { mark } = await dislike(h, 'How do I reset my password?');
      const card = await postedCard(h, mark);
      expect(textOf(card)).not.toContain('Jane Doe');
      const [latest] = blockTexts(card, 'context');
      expect(latest).toMatch(
        /^Latest report: <https:\/\/acme\.slack\.com\/archives\/[^|]+\|View the message>$/,
      );
      expect(sectionsWithEntry(card)).toContain('`doc-password-reset`');
    },
    SLOW_TEST_MS,
  );

  it(
    'Dismiss is refused to everyone, saying who can name operators and naming no setting',
    async () => {
      const h = harness();
      const { mark } = await dislike(h, 'When is payday?');
      const card = await postedCard(h, mark);
      const cardTs = tsOf(card);
      await h.click(clickButton(card, buttonOf(card, 'review_dismiss'), { user: OPERATOR, ts: cardTs }));
      const refusal = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OPERATOR,
        WAIT_MS,
      );
      expect(textOf(refusal)).toContain(NO_OPERATORS);
      expect(textOf(refusal)).not.toContain('OPERATOR_');
      expect(cardUpdates(h.slack, cardTs)).toEqual([]);
    },
    SLOW_TEST_MS,
  );
});

describe('operators by user group', () => {
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USERGROUP_ID: 'S0OPS' },
  });
  const GROUP_OPERATOR = 'U0GROUPOP';

  it(
    'a member may dismiss; once Slack says the group changed, the same user is refused',
    async () => {
      const h = harness();
      h.slack.setUsergroup('S0OPS', [GROUP_OPERATOR]);

      const first = await dislike(h, 'How do I connect to the office Wi-Fi?');
      const firstCard = await postedCard(h, first.mark);
      const firstTs = tsOf(firstCard);
      await h.click(
        clickButton(firstCard, buttonOf(firstCard, 'review_dismiss'), { user: GROUP_OPERATOR, ts: firstTs }),
      );
      const dismissed = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && call.body.ts === firstTs,
        WAIT_MS,
      );
      expect(blockTexts(dismissed, 'context').join('\n')).toContain(`Dismissed by <@${GROUP_OPERATOR}>`);
      expect(hasActionsBlock(dismissed)).toBe(false);
      const readsBefore = h.slack.calls('usergroups.users.list');
      expect(readsBefore.length).toBeGreaterThanOrEqual(1);
      expect(readsBefore[0]?.body.usergroup).toBe('S0OPS');

      const second = await dislike(h, 'How do I submit an expense claim?');
      const secondCard = await postedCard(h, second.mark);
      const secondTs = tsOf(secondCard);

      // The user leaves the group, and Slack says so.
      h.slack.setUsergroup('S0OPS', []);
      const logsBefore = h.logs.length;
      const membersChanged = {
        type: 'subteam_members_changed',
        subteam_id: 'S0OPS',
        team_id: IDS.team,
        date_previous_update: Math.floor(Date.now() / 1000) - 60,
        date_update: Math.floor(Date.now() / 1000),
        added_users: [],
        added_users_count: 0,
        removed_users: [GROUP_OPERATOR],
        removed_users_count: 1,
      };
      const response = await h.sendEvent(membersChanged);
      expect(response.status).toBe(200);
      const reread = await h.slack.waitForCall(
        'usergroups.users.list',
        (call) => h.slack.calls('usergroups.users.list').indexOf(call) >= readsBefore.length,
        WAIT_MS,
      );
      expect(reread.response).toMatchObject({ ok: true, users: [] });
      // The new members are kept (and logged) before the next click is judged.
      await waitFor(
        () =>
          h.logs
            .slice(logsBefore)
            .some((record) => record.msg === 'operator user group read' && record.members === 0),
        { timeoutMs: WAIT_MS },
      );

      await h.click(
        clickButton(secondCard, buttonOf(secondCard, 'review_dismiss'), {
          user: GROUP_OPERATOR,
          ts: secondTs,
        }),
      );
      const refusal = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === GROUP_OPERATOR,
        WAIT_MS,
      );
      expect(textOf(refusal)).toContain(OPERATORS_ONLY);
      expect(cardUpdates(h.slack, secondTs)).toEqual([]);
    },
    SLOW_TEST_MS,
  );
  it(
    'subteam_updated of the operators’ group grants from the next click; one of another group reads nothing',
    async () => {
      const h = harness();
      h.slack.setUsergroup('S0OPS', []);
      const { mark } = await dislike(h, 'How do I request annual leave?');
      const card = await postedCard(h, mark);
      const cardTs = tsOf(card);
      const dismiss = () =>
        h.click(clickButton(card, buttonOf(card, 'review_dismiss'), { user: GROUP_OPERATOR, ts: cardTs }));
      await dismiss();
      const refusal = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === GROUP_OPERATOR,
        WAIT_MS,
      );
      expect(textOf(refusal)).toContain(OPERATORS_ONLY);

      // The user joins the group; Slack says so with subteam_updated (the group inside), first for
      // another group, which the gateway does not read, then for the operators'.
      h.slack.setUsergroup('S0OPS', [GROUP_OPERATOR]);
      const readsMark = h.slack.calls('usergroups.users.list').length;
      const logsBefore = h.logs.length;
      const updated = (id: string, users: string[]) => ({
        type: 'subteam_updated',
        subteam: {
          id,
          team_id: IDS.team,
          is_usergroup: true,
          name: id === 'S0OPS' ? 'Operators' : 'Network team',
          handle: id === 'S0OPS' ? 'ops' : 'network',
          users,
          user_count: users.length,
          date_update: Math.floor(Date.now() / 1000),
        },
        event_ts: nextTs(),
      });
      const refreshes = await slackEventCount(h.url, 'subteam_updated', 'refresh');
      expect((await h.sendEvent(updated('S0NETWORK', ['U0SOMEONE']))).status).toBe(200);
      expect((await h.sendEvent(updated('S0OPS', [GROUP_OPERATOR]))).status).toBe(200);
      // One refresh counted, the operators' group's: the other group's event was not one.
      await waitForEventCount(h.url, 'subteam_updated', 'refresh', refreshes + 1);
      await waitFor(
        () =>
          h.logs
            .slice(logsBefore)
            .some((record) => record.msg === 'operator user group read' && record.members === 1),
        { timeoutMs: WAIT_MS, message: 'the operators’ group was not read again' },
      );
      expect(
        h.slack
          .calls('usergroups.users.list')
          .slice(readsMark)
          .map((call) => call.body.usergroup),
      ).toEqual(['S0OPS']);

      await dismiss();
      const dismissed = await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(blockTexts(dismissed, 'context').join('\n')).toContain(`Dismissed by <@${GROUP_OPERATOR}>`);
    },
    SLOW_TEST_MS,
  );
});

describe('without a review channel', () => {
  const harness = useGatewayHarness({ env: { OPERATOR_USER_IDS: OPERATOR } });

  it(
    'a 👎 posts no card and the rated line has no reason button; an unanswered question posts none either',
    async () => {
      const h = harness();
      const { rated, mark } = await dislike(h, 'How do I reset my password?');
      expect(findReasonButton(rated)).toBeUndefined();
      expect(JSON.stringify(rated.body.blocks)).not.toContain('dislike_reason');
      expect(textOf(rated)).toContain('rated this answer 👎 not helpful');
      await askByMention(h, 'Which llama grooms alpacas on Mars?');
      // Everything the 👎 and the later question led to has been seen: no post outside their threads.
      const posts = h.slack.calls('chat.postMessage').filter(h.slack.madeSince(mark));
      expect(posts.map((call) => call.body.channel)).toEqual([IDS.channel]);
      expect(posts.every((call) => typeof call.body.thread_ts === 'string')).toBe(true);
      expect(h.slack.calls('chat.getPermalink')).toEqual([]);
      expect(h.slack.calls().filter(toReview)).toEqual([]);
    },
    SLOW_TEST_MS,
  );
});

describe('two replicas on one Redis and one Slack', () => {
  const fleet = useRedisReplicas('review-cards', {
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR },
    users: {
      [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' },
      [OTHER]: { displayName: 'Sam Other', locale: 'en-US' },
    },
  });

  beforeEach(() => {
    const { slack } = fleet();
    slack.reset();
    slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
    slack.setUser(OTHER, { displayName: 'Sam Other', locale: 'en-US' });
  });

  it(
    "a 👎 through each replica on one entry is one card, posted once, and B's update counts 2",
    async () => {
      const {
        replicas: [replicaA, replicaB],
        slack,
      } = fleet();

      const first = await dislike(replicaA, 'How do I install software?');
      const card = await postedCard(replicaA, first.mark);
      const cardTs = tsOf(card);
      expect(headerOf(card)).toBe('👎 Answer disliked');
      expect(blockTexts(card, 'context')[0]).toMatch(/^Latest report: Jane Doe · </);

      const second = await dislike(replicaB, 'How do I install software?', OTHER);
      const since = slack.madeSince(second.mark);
      const counted = await slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && since(call),
        WAIT_MS,
      );
      expect(counted.body.ts).toBe(cardTs);
      expect(headerOf(counted)).toBe('👎 Answer disliked · 2 times');
      expect(blockTexts(counted, 'context')[0]).toMatch(/^Latest report: Sam Other · </);
      expect(cardPosts(slack)).toHaveLength(1);

      // A's Dismiss acts on the card B last updated.
      await replicaA.click(
        clickButton(counted, buttonOf(counted, 'review_dismiss'), { user: OPERATOR, ts: cardTs }),
      );
      const dismissed = await slack.waitForCall(
        'chat.update',
        (call) =>
          toReview(call) && call.body.ts === cardTs && headerOf(call) !== '' && !hasActionsBlock(call),
        WAIT_MS,
      );
      expect(blockTexts(dismissed, 'context').join('\n')).toContain(`Dismissed by <@${OPERATOR}>`);
      expect(headerOf(dismissed)).toBe('👎 Answer disliked · 2 times');
      expect(cardPosts(slack)).toHaveLength(1);
    },
    SLOW_TEST_MS,
  );
});
