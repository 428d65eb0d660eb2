// An unanswered question linked to the entry that answers it, over signed requests against the real
// gateway, the platform simulator and the fake Slack: the entry is checked with the robot before the
// link is made (an unknown docId is refused inline), the card says to which entry, the askers' Ask
// again asks by the entry, the same words asked later are answered from it, and Remove link (operators
// only) brings "no answer" back. A link is for the robot asked: the same words asked of another
// robot (a channel set to robot 2, on a SQLite state file) keep that robot's own answer. Beside them, two smaller things of the same cards: a reason of "Other"
// with no words is refused in its modal, and a ❓ card says where and of which robot it was asked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChannelSettings } from '../../../src/stores/sqlite.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
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
} from '../../support/gateway-harness.js';
import { elementOf, openedViewId, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { ackOf, askInDm, headerOf, reasonButtonOf, since } from '../../support/review-steps.js';
import { directMessage, IDS, nextTs } from '../../support/slack-payloads.js';

const REVIEW_CHANNEL = 'C0REVIEW';
const OPERATOR = 'U0OPERATOR';
const OTHER = 'U_OTHER';
const WAIT_MS = 8_000;
const SLOW_TEST_MS = 40_000;
/** What the simulator's robot says when it matches nothing. */
const NO_ANSWER = "Sorry, I don't know the answer to that yet.";
/** A line of the answer of the simulator's entry doc-password-reset. */
const ENTRY_ANSWER = 'New passwords need at least 12 characters.';
const ENTRY = 'doc-password-reset';
const OPERATORS_ONLY = 'Only operators can edit the knowledge base or handle its review cards.';

const toReview = (call: RecordedCall) => call.body.channel === REVIEW_CHANNEL;

/** The robot asks made since the mark, as (questionFlag, requestText) pairs. */
function asksSince(h: GatewayHarness, mark: number): Array<{ flag: unknown; text: unknown }> {
  return h
    .robotAsks()
    .slice(mark)
    .map((ask) => ({ flag: ask.questionFlag, text: ask.requestText }));
}

async function openLinkModal(h: GatewayHarness, card: RecordedCall, cardTs: string) {
  const fresh = since(h.slack);
  const response = await h.click(
    clickButton(card, buttonOf(card, 'review_link'), { user: OPERATOR, ts: cardTs }),
  );
  expect(response.status).toBe(200);
  const opened = await h.slack.waitForCall('views.open', fresh, WAIT_MS);
  return { view: viewOf(opened), id: openedViewId(opened) };
}

/** Asks by mention a question the robot does not know, and waits for its new card. */
async function unansweredCard(h: GatewayHarness, question: string) {
  const jane = await askByMention(h, question);
  expect(textOf(jane.answer)).toContain(NO_ANSWER);
  const card = await h.slack.waitForCall(
    'chat.postMessage',
    (call) =>
      toReview(call) && headerOf(call) === '❓ Unanswered question' && textOf(call).includes(question),
    WAIT_MS,
  );
  return { jane, card, cardTs: String(card.response?.ts) };
}

describe('an unanswered question linked to an entry', () => {
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR },
  });

  it(
    'is answered from the entry: Ask again asks by it, and the same words asked later get its answer; the card says linked',
    async () => {
      const h = harness();
      const question = 'Which llama resets alpaca passwords on Jupiter?';
      const { jane, card, cardTs } = await unansweredCard(h, question);
      const modal = await openLinkModal(h, card, cardTs);

      const checked = h.robotAsks().length;
      const fresh = since(h.slack);
      const linked = ackOf(
        await h.click(viewSubmissionPayload(modal, { review_link_doc: { text: ` ${ENTRY} ` } }, OPERATOR)),
      );
      // The entry was read by asking the robot by its docId, as the operator, of the card's robot.
      expect(asksSince(h, checked)).toEqual([{ flag: 1, text: ENTRY }]);
      expect(h.robotAsks()[checked]).toMatchObject({ robotFlag: 1, question });
      // The edit form follows, filled from that answer (the gateway had never seen the entry before).
      expect(linked.response_action).toBe('update');
      const edit = isRecord(linked.view) ? linked.view : {};
      expect(edit.callback_id).toBe('edit_entry');
      expect(JSON.stringify(edit.blocks)).toContain(`Linked: “${question}” is now answered from this entry.`);
      expect(elementOf(edit, 'edit_question_title')?.initial_value).toBe('How do I reset my password?');
      expect(String(elementOf(edit, 'edit_answer')?.initial_value)).toContain('12 characters');

      // The card says linked, to which entry and by whom, and offers only to remove the link.
      const linkedCard = await h.slack.waitForCall(
        'chat.update',
        (call) => fresh(call) && toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(textOf(linkedCard)).toMatch(
        new RegExp(
          `🔗 Linked by <@${OPERATOR}> <!date\\^\\d+\\^[^>]*> to the entry \\*How do I reset my password\\?\\* \`${ENTRY}\``,
        ),
      );
      expect(buttonsOf(linkedCard).map((button) => button.actionId)).toEqual(['review_unlink']);

      // Jane is told in her thread, with Ask again, which asks by the entry (no typed ask first).
      const notice = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => fresh(call) && call.body.thread_ts === jane.threadTs,
        WAIT_MS,
      );
      expect(textOf(notice)).toContain(
        `Your question “${question}” now has an answer: the knowledge-base team found it in the entry “How do I reset my password?”.`,
      );
      const beforeAgain = h.robotAsks().length;
      const again = since(h.slack);
      await h.click(
        clickButton(notice, buttonOf(notice, 'ask_again'), {
          ts: String(notice.response?.ts),
          threadTs: jane.threadTs,
        }),
      );
      const answered = await h.slack.waitForCall(
        'chat.update',
        (call) => again(call) && call.body.channel === IDS.channel && textOf(call).includes(ENTRY_ANSWER),
        WAIT_MS,
      );
      expect(textOf(answered)).not.toContain(NO_ANSWER);
      expect(asksSince(h, beforeAgain)).toEqual([{ flag: 1, text: ENTRY }]);

      // Sam types the same words (other case and punctuation) in a DM: no match, so the entry answers.
      const beforeSam = h.robotAsks().length;
      const toSam = await askInDm(h, 'which llama resets alpaca passwords on jupiter', OTHER);
      expect(textOf(toSam)).toContain(ENTRY_ANSWER);
      expect(textOf(toSam)).not.toContain(NO_ANSWER);
      expect(asksSince(h, beforeSam)).toEqual([
        { flag: 0, text: 'which llama resets alpaca passwords on jupiter' },
        { flag: 1, text: ENTRY },
      ]);
    },
    SLOW_TEST_MS,
  );

  it(
    'refuses a docId the robot answers nothing from, inline, before the edit form opens: nothing linked, nobody told',
    async () => {
      const h = harness();
      const question = 'Which llama paints alpaca fences on Saturn?';
      const { jane, card, cardTs } = await unansweredCard(h, question);
      const modal = await openLinkModal(h, card, cardTs);
      const fresh = since(h.slack);

      for (const unknown of ['doc-no-such-entry', 'doc-it-vpn']) {
        // doc-it-vpn is an entry of robot 2 (the IT desk): the card's question was asked of robot 1.
        expect(
          ackOf(
            await h.click(viewSubmissionPayload(modal, { review_link_doc: { text: unknown } }, OPERATOR)),
          ),
        ).toEqual({
          response_action: 'errors',
          errors: {
            review_link_doc: `Robot 1 has no entry ${unknown}: it answers nothing from it. Check the id in the platform's console.`,
          },
        });
      }
      // The same words asked again still get the robot's "no answer" and count on the card.
      const again = await askByMention(h, question);
      expect(textOf(again.answer)).toContain(NO_ANSWER);
      await h.slack.waitForCall(
        'chat.update',
        (call) => toReview(call) && headerOf(call) === '❓ Unanswered question · asked 2 times',
        WAIT_MS,
      );
      const told = h.slack
        .calls('chat.postMessage')
        .filter((call) => fresh(call) && textOf(call).includes('now has an answer'));
      expect(told).toEqual([]);
      expect(jane.threadTs).toBeDefined();

      // A known entry is then taken (the control: the refusals above were for the ids alone).
      const linked = ackOf(
        await h.click(viewSubmissionPayload(modal, { review_link_doc: { text: ENTRY } }, OPERATOR)),
      );
      expect(linked.response_action).toBe('update');
    },
    SLOW_TEST_MS,
  );

  it(
    'answers the modal with the edit form within Slack’s 3 s when the card’s update is slow, and links after',
    async () => {
      const h = harness();
      const question = 'Which llama sweeps alpaca stables on Mars?';
      const { jane, card, cardTs } = await unansweredCard(h, question);
      const modal = await openLinkModal(h, card, cardTs);
      const fresh = since(h.slack);
      // The card's update in Slack (inside the link) takes longer than Slack waits for the modal's answer.
      h.slack.delayNext('chat.update', 4_000);
      const linked = ackOf(
        await h.click(viewSubmissionPayload(modal, { review_link_doc: { text: ENTRY } }, OPERATOR)),
      );
      expect(linked.response_action).toBe('update');
      expect(isRecord(linked.view) ? linked.view.callback_id : undefined).toBe('edit_entry');
      // The link is made all the same: the card says so, and Jane is told.
      const linkedCard = await h.slack.waitForCall(
        'chat.update',
        (call) => fresh(call) && toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(textOf(linkedCard)).toContain('🔗 Linked by');
      const notice = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => fresh(call) && call.body.thread_ts === jane.threadTs,
        WAIT_MS,
      );
      expect(textOf(notice)).toContain('now has an answer');
      // Nothing said the link failed: the form was not replaced by a failure.
      expect(h.slack.calls('views.update').filter(fresh)).toEqual([]);
    },
    SLOW_TEST_MS,
  );

  it(
    'a linked question asked again with no answer (the entry disabled) opens a card that says so, with Remove link',
    async () => {
      const h = harness();
      const question = 'Which llama trims alpaca wool on Ceres?';
      const { card, cardTs } = await unansweredCard(h, question);
      const modal = await openLinkModal(h, card, cardTs);
      // An entry of its own: disabled here, it answers no other test.
      const entry = 'doc-payslip';
      const linked = ackOf(
        await h.click(viewSubmissionPayload(modal, { review_link_doc: { text: entry } }, OPERATOR)),
      );
      // The operator disables the entry in the edit form that follows the link.
      const edit = isRecord(linked.view) ? linked.view : {};
      const saved = ackOf(
        await h.click(
          viewSubmissionPayload(
            { view: edit, id: modal.id },
            {
              edit_question_title: { text: String(elementOf(edit, 'edit_question_title')?.initial_value) },
              edit_answer: { text: String(elementOf(edit, 'edit_answer')?.initial_value) },
              edit_used_flag: { option: 'disabled' },
            },
            OPERATOR,
          ),
        ),
      );
      expect(JSON.stringify(saved.view)).toContain('Changed: state.');

      const fresh = since(h.slack);
      const again = await askByMention(h, question);
      expect(textOf(again.answer)).toContain(NO_ANSWER);
      // A new card, which says the link did not answer, and offers to remove it beside the usual buttons.
      const reopened = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => fresh(call) && toReview(call) && headerOf(call) === '❓ Unanswered question',
        WAIT_MS,
      );
      expect(textOf(reopened)).toContain(
        `🔗 Linked to the entry *Where can I find my payslip?* \`${entry}\`, yet asked again it got no answer`,
      );
      expect(buttonsOf(reopened).map((button) => button.actionId)).toEqual([
        'review_answer',
        'review_link',
        'review_unlink',
        'review_dismiss',
      ]);

      const removed = since(h.slack);
      const reopenedTs = String(reopened.response?.ts);
      await h.click(
        clickButton(reopened, buttonOf(reopened, 'review_unlink'), { user: OPERATOR, ts: reopenedTs }),
      );
      const unlinked = await h.slack.waitForCall(
        'chat.update',
        (call) => removed(call) && toReview(call) && call.body.ts === reopenedTs,
        WAIT_MS,
      );
      expect(textOf(unlinked)).not.toContain('Linked to the entry');
      expect(buttonsOf(unlinked).map((button) => button.actionId)).toEqual([
        'review_answer',
        'review_link',
        'review_dismiss',
      ]);
      // The link is gone: asked again, the robot is asked as typed only, not by the entry.
      const before = h.robotAsks().length;
      expect(textOf((await askByMention(h, question)).answer)).toContain(NO_ANSWER);
      expect(asksSince(h, before)).toEqual([{ flag: 0, text: question }]);
    },
    SLOW_TEST_MS,
  );

  it(
    'Remove link (operators only) brings the robot’s own “no answer” back, and the card is open again',
    async () => {
      const h = harness();
      const question = 'Which llama waters alpaca gardens on Venus?';
      const { card, cardTs } = await unansweredCard(h, question);
      const modal = await openLinkModal(h, card, cardTs);
      const fresh = since(h.slack);
      ackOf(await h.click(viewSubmissionPayload(modal, { review_link_doc: { text: ENTRY } }, OPERATOR)));
      const linkedCard = await h.slack.waitForCall(
        'chat.update',
        (call) => fresh(call) && toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(textOf(await askInDm(h, question, OTHER))).toContain(ENTRY_ANSWER);

      // Sam is no operator: told so, and the link stays.
      const unlink = buttonOf(linkedCard, 'review_unlink');
      await h.click(clickButton(linkedCard, unlink, { user: OTHER, ts: cardTs }));
      const refusal = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OTHER && textOf(call).includes(OPERATORS_ONLY),
        WAIT_MS,
      );
      expect(refusal.body.channel).toBe(REVIEW_CHANNEL);
      expect(textOf(await askInDm(h, question, OTHER))).toContain(ENTRY_ANSWER);

      const removed = since(h.slack);
      await h.click(clickButton(linkedCard, unlink, { user: OPERATOR, ts: cardTs }));
      const reopened = await h.slack.waitForCall(
        'chat.update',
        (call) => removed(call) && toReview(call) && call.body.ts === cardTs,
        WAIT_MS,
      );
      expect(buttonsOf(reopened).map((button) => button.actionId)).toEqual([
        'review_answer',
        'review_link',
        'review_dismiss',
      ]);
      expect(textOf(reopened)).not.toContain('Linked by');
      const toSam = await askInDm(h, question, OTHER);
      expect(textOf(toSam)).toContain(NO_ANSWER);
      expect(textOf(toSam)).not.toContain(ENTRY_ANSWER);

      // Clicked again on the old card: the link is gone, and the operator is told so.
      await h.click(clickButton(linkedCard, unlink, { user: OPERATOR, ts: cardTs }));
      const told = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => removed(call) && call.body.user === OPERATOR,
        WAIT_MS,
      );
      expect(textOf(told)).toContain('no longer linked');
    },
    SLOW_TEST_MS,
  );
});

/** A channel whose questions go to robot 2 (the simulator's IT desk), in a SQLite state file. */
const ROBOT_2_CHANNEL = 'C0ROBOT2';
const stateFolder = mkdtempSync(join(tmpdir(), 'review-links-'));
const statePath = join(stateFolder, 'gateway.sqlite');
await writeChannelSettings(statePath, { [ROBOT_2_CHANNEL]: { robot: 2 } }, OPERATOR);
afterAll(() => {
  rmSync(stateFolder, { recursive: true, force: true });
});

describe('a link is for the robot the question was asked of', () => {
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR, STATE_PATH: statePath },
  });

  it('the same words asked of another robot get that robot’s own “no answer”, and no ask by the entry', async () => {
    const h = harness();
    const question = 'Which llama feeds alpacas on Pluto?';
    const { card, cardTs } = await unansweredCard(h, question);
    const modal = await openLinkModal(h, card, cardTs);
    const linked = ackOf(
      await h.click(viewSubmissionPayload(modal, { review_link_doc: { text: ENTRY } }, OPERATOR)),
    );
    expect(linked.response_action).toBe('update');

    const before = h.robotAsks().length;
    const elsewhere = await askByMention(h, question, { channel: ROBOT_2_CHANNEL });
    expect(textOf(elsewhere.answer)).toContain(NO_ANSWER);
    expect(h.robotAsks().slice(before)).toEqual([
      expect.objectContaining({ robotFlag: 2, questionFlag: 0, question }),
    ]);
    // The control: asked of robot 1 again (this gateway's state is SQLite), the entry answers.
    const here = await askByMention(h, question);
    expect(textOf(here.answer)).toContain(ENTRY_ANSWER);
  });
});

/** The context lines of a card: the latest report's line among them. */
function contextTexts(call: RecordedCall): string[] {
  return blocksOf(call)
    .filter((block) => block.type === 'context' && Array.isArray(block.elements))
    .map((block) =>
      (block.elements as unknown[])
        .map((element) => (isRecord(element) ? String(element.text ?? '') : ''))
        .join(' '),
    );
}

describe('an unanswered question’s card', () => {
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR },
  });

  it(
    'says where it was asked (the channel with a link to the question, or a DM) and of which robot',
    async () => {
      const h = harness();
      const question = 'Which llama knits alpaca scarves on Mercury?';
      const { jane, card } = await unansweredCard(h, question);
      // The link is the one Slack gave for the question (the thread the answer is in).
      const permalinkCall = await h.slack.waitForCall(
        'chat.getPermalink',
        (call) => call.body.message_ts === jane.threadTs,
        WAIT_MS,
      );
      expect(permalinkCall.body.channel).toBe(IDS.channel);
      const permalink = String(permalinkCall.response?.permalink);
      expect(permalink).toMatch(/^https:\/\/acme\.slack\.com\/archives\//);
      expect(contextTexts(card)).toContain(
        `Latest report: Jane Doe · in <#${IDS.channel}> · <${permalink}|View the message> · robot 1`,
      );

      // Asked again in a DM: the card says so instead of linking to it (operators cannot open a DM).
      const fresh = since(h.slack);
      await askInDm(h, question, OTHER);
      const counted = await h.slack.waitForCall(
        'chat.update',
        (call) =>
          fresh(call) && toReview(call) && headerOf(call) === '❓ Unanswered question · asked 2 times',
        WAIT_MS,
      );
      expect(contextTexts(counted)).toContain('Latest report: User U_OTHER · in a direct message · robot 1');
      expect(textOf(counted)).not.toContain('archives/');

      // Asked in the assistant panel (a thread of the app's DM): the card says the panel.
      const inPanel = since(h.slack);
      const panelThread = nextTs();
      await h.sendEvent(directMessage({ text: question, channel: IDS.dm, thread_ts: panelThread }));
      const third = await h.slack.waitForCall(
        'chat.update',
        (call) =>
          inPanel(call) && toReview(call) && headerOf(call) === '❓ Unanswered question · asked 3 times',
        WAIT_MS,
      );
      expect(contextTexts(third)).toContain('Latest report: Jane Doe · in the assistant panel · robot 1');
    },
    SLOW_TEST_MS,
  );
});

describe('the reason for a 👎', () => {
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR },
  });

  it(
    '“Other” with no words of the asker’s own is refused inline, as its hint says; with words it is sent',
    async () => {
      const h = harness();
      const asked = await askByMention(h, 'How do I reset my password?');
      await h.click(
        clickButton(asked.answer, buttonOf(asked.answer, 'rate_down'), { threadTs: asked.threadTs }),
      );
      const rated = await h.slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === asked.answer.body.ts && textOf(call).includes('rated this answer 👎'),
        WAIT_MS,
      );
      const card = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => toReview(call) && headerOf(call) === '👎 Answer disliked',
        WAIT_MS,
      );
      const ratedMessage = { ...rated, body: { ...rated.body, channel: IDS.channel } };
      const fresh = since(h.slack);
      await h.click(clickButton(ratedMessage, reasonButtonOf(rated), { threadTs: asked.threadTs }));
      const opened = await h.slack.waitForCall('views.open', fresh, WAIT_MS);
      const modal = { view: viewOf(opened), id: openedViewId(opened) };

      for (const blank of [undefined, '   ']) {
        const typed = blank === undefined ? {} : { dislike_reason_text: { text: blank } };
        const refused = ackOf(
          await h.click(
            viewSubmissionPayload(modal, { dislike_reason: { radio: 'other' }, ...typed }, IDS.user),
          ),
        );
        expect(refused).toEqual({
          response_action: 'errors',
          errors: { dislike_reason_text: 'You chose “Other”: please say in your own words what was wrong.' },
        });
      }
      const sent = ackOf(
        await h.click(
          viewSubmissionPayload(
            modal,
            {
              dislike_reason: { radio: 'other' },
              dislike_reason_text: { text: 'It is about the old portal' },
            },
            IDS.user,
          ),
        ),
      );
      expect(sent).toEqual({});
      // The card is changed once, by the reason with words: the refused ones changed nothing.
      const withReason = await h.slack.waitForCall(
        'chat.update',
        (call) => fresh(call) && toReview(call) && call.body.ts === card.response?.ts,
        WAIT_MS,
      );
      expect(textOf(withReason)).toContain('• Other: “It is about the old portal”');
      expect(
        h.slack.calls('chat.update').filter((call) => fresh(call) && call.body.ts === card.response?.ts),
      ).toHaveLength(1);
    },
    SLOW_TEST_MS,
  );
});
