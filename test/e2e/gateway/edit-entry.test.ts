// The edit loop end to end, with signed requests against the real gateway, the platform simulator and
// the fake Slack: an operator opens the edit modal from a review card (Edit entry) or from the "Edit
// this answer" message shortcut, the modal is prefilled from what the gateway last saw, the submission
// sends update_robot_doc with only what changed (plus docId and robotFlag), the next answer is the new
// one, the card shows the fix and the asker is told, with Ask again. Also: inline errors (nothing sent),
// the right checked at open and again at submit, a failing and a slow platform, and the receiver's
// boundary for these two request shapes.
//
// One gateway (and one simulator) per describe block: every test works on an entry of its own, because
// a saved edit changes what the simulator answers from that entry for the rest of the file.
import { describe, expect, it } from 'vitest';
import { renderEditModal } from '../../../src/slack/review/edit-modal.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  blocksOf,
  buttonOf,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  isRecord,
  SIGNING_SECRET,
  textOf,
  textsIn,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import {
  elementOf,
  type InputValue,
  messageShortcutPayload,
  type OpenedView,
  viewBlocks,
  viewOf,
  viewSubmissionPayload,
} from '../../support/review-payloads.js';
import { ackOf, asSubmitted, since } from '../../support/review-steps.js';
import { IDS } from '../../support/slack-payloads.js';
import { FORM_CONTENT_TYPE, interactionBody, signSlackRequest } from '../../support/slack-signing.js';

const REVIEW_CHANNEL = 'C0REVIEW';
const OPERATOR = 'U0OPERATOR';
const QUESTION = 'How do I reset my password?';
/** How long to wait for something the gateway does after answering Slack: generous for a busy machine. */
const WAIT_MS = 10_000;
/** Per test: several round trips each, on a 2-core machine shared with other suites. */
const TEST_MS = 60_000;

// ---------------------------------------------------------------- helpers

const toReview = (call: RecordedCall) => call.body.channel === REVIEW_CHANNEL;

/**
 * What Slack submits for `view` when the person changed only `changes`: every input holds its initial
 * value (text, option, date or time) unless changed; `null` is an input the person emptied.
 */
/** The data of every update_robot_doc the simulator received for this entry, oldest first. */
function updatesFor(h: GatewayHarness, docId: string): Array<Record<string, unknown>> {
  return h.simulator.received.flatMap((request) =>
    isRecord(request.body) &&
    request.body.action === 'update_robot_doc' &&
    isRecord(request.body.data) &&
    request.body.data.docId === docId
      ? [request.body.data]
      : [],
  );
}

function allUpdates(h: GatewayHarness): number {
  return h.simulator.received.filter(
    (request) => isRecord(request.body) && request.body.action === 'update_robot_doc',
  ).length;
}

/** Asks, 👎 as the asker, and waits for the entry's card (posted, or updated when one is open). */
async function dislike(h: GatewayHarness, question: string, user: string = IDS.user) {
  const asked = await askByMention(h, question, { user });
  const fresh = since(h.slack);
  await h.click(
    clickButton(asked.answer, buttonOf(asked.answer, 'rate_down'), { user, threadTs: asked.threadTs }),
  );
  const card = await Promise.any([
    h.slack.waitForCall('chat.postMessage', (call) => toReview(call) && fresh(call), WAIT_MS),
    h.slack.waitForCall('chat.update', (call) => toReview(call) && fresh(call), WAIT_MS),
  ]);
  return { ...asked, card, cardTs: String(card.response?.ts ?? card.body.ts) };
}

interface Opened extends OpenedView {
  call: RecordedCall;
}

function openedFrom(call: RecordedCall): Opened {
  const answered = call.response?.view;
  const id = isRecord(answered) && typeof answered.id === 'string' ? answered.id : '';
  if (id === '') throw new Error(`views.open was not given an id: ${JSON.stringify(call.response)}`);
  return { call, view: viewOf(call), id };
}

/** Clicks Edit entry on the card as `user` and waits for the modal. */
async function openFromCard(h: GatewayHarness, card: RecordedCall, cardTs: string): Promise<Opened> {
  const fresh = since(h.slack);
  const response = await h.click(
    clickButton(card, buttonOf(card, 'review_edit'), { user: OPERATOR, ts: cardTs }),
  );
  expect(response.status).toBe(200);
  return openedFrom(await h.slack.waitForCall('views.open', fresh, WAIT_MS));
}

const isSaving = (view: Record<string, unknown>) => textsIn(view).includes('⏳');

/**
 * The view that shows the submission's result: the `update` answer itself, or, when the platform did
 * not answer at once and that answer was "Saving…", the views.update that replaced it (one made
 * after `fresh`'s mark, when a view is submitted more than once).
 */
async function resultOf(
  h: GatewayHarness,
  opened: Opened,
  response: { status: number; text: string },
  fresh: (call: RecordedCall) => boolean = () => true,
): Promise<Record<string, unknown>> {
  const body = ackOf(response);
  expect(body.response_action).toBe('update');
  if (!isRecord(body.view)) throw new Error(`update without a view: ${response.text}`);
  if (!isSaving(body.view)) return body.view;
  // Saving: nothing in it can be submitted again.
  expect(body.view.submit).toBeUndefined();
  return viewOf(
    await h.slack.waitForCall(
      'views.update',
      (call) => fresh(call) && call.body.view_id === opened.id,
      WAIT_MS,
    ),
  );
}

function messageOf(call: RecordedCall) {
  return { ts: String(call.body.ts), blocks: blocksOf(call) };
}

// ---------------------------------------------------------------- English, one operator

describe('the edit loop, with a review channel and one operator', () => {
  const harness = useGatewayHarness({
    env: {
      REVIEW_CHANNEL_ID: REVIEW_CHANNEL,
      OPERATOR_USER_IDS: OPERATOR,
      // The slow-platform test delays update_robot_doc past Slack's 3 s: the client must outwait it.
      CS_HEADERS_TIMEOUT_MS: '8000',
    },
  });

  it(
    'prefills the modal, sends only the changed answer, and closes the loop: new answer, card fixed, asker told with Ask again',
    async () => {
      const h = harness();
      h.slack.setUser(OPERATOR, {
        displayName: 'Olga Operator',
        locale: 'en-GB',
        timeZone: 'America/New_York',
      });
      const inNewYork = (ms: number) =>
        new Intl.DateTimeFormat('en-GB', {
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
          timeZone: 'America/New_York',
        }).format(ms);
      const askedFrom = inNewYork(Date.now());
      const { card, cardTs, threadTs } = await dislike(h, QUESTION);
      expect(textOf(card)).toContain('doc-password-reset');
      const askedTo = inNewYork(Date.now());

      const opened = await openFromCard(h, card, cardTs);
      // When the answer was seen: Slack's date token, its fallback in the operator's own zone as people
      // write a date, not ISO UTC.
      const seen = /last saw it \(<!date\^\d+\^\{date_short_pretty\} \{time\}\|([^>]+)>\)\./.exec(
        textsIn(opened.view),
      )?.[1];
      expect([askedFrom, askedTo]).toContain(seen);
      expect(opened.view.callback_id).toBe('edit_entry');
      expect(elementOf(opened.view, 'edit_question_title')?.initial_value).toBe(QUESTION);
      const markup = String(elementOf(opened.view, 'edit_answer')?.initial_value);
      expect(markup).toContain('[the password portal](https://password.example.com)');
      expect(markup).toContain('**Forgot password**');
      expect(markup).toContain('12 characters');
      // Said to be filled from what the gateway saw: the platform has no call that reads an entry.
      expect(textsIn(opened.view)).toContain("filled from the robot's answer as the gateway last saw it");
      // Settings that never show in answers are not preselected.
      expect(elementOf(opened.view, 'edit_match_flag')?.initial_option).toBeUndefined();
      expect(elementOf(opened.view, 'edit_used_flag')?.initial_option).toBeUndefined();
      expect(elementOf(opened.view, 'edit_validity')?.initial_option).toBeUndefined();

      const updatesBefore = allUpdates(h);
      const changed = markup.replace('12 characters', '16 characters');
      const response = await h.click(
        viewSubmissionPayload(opened, asSubmitted(opened.view, { edit_answer: { text: changed } }), OPERATOR),
      );
      const result = await resultOf(h, opened, response);
      expect(result.submit).toBeUndefined();
      expect(textsIn(result)).toContain('The platform accepted the change to entry');
      expect(textsIn(result)).toContain('doc-password-reset');

      // Exactly one update, with only docId, robotFlag and the changed answer, as HTML.
      expect(allUpdates(h)).toBe(updatesBefore + 1);
      const updates = updatesFor(h, 'doc-password-reset');
      expect(updates).toHaveLength(1);
      const [data = {}] = updates;
      expect(Object.keys(data).sort()).toEqual(['answerDesc', 'docId', 'robotFlag']);
      expect(data).toMatchObject({ docId: 'doc-password-reset', robotFlag: 1 });
      const html = String(data.answerDesc);
      expect(html).toContain('<a href="https://password.example.com">the password portal</a>');
      expect(html).toMatch(/<(b|strong)>Forgot password<\/(b|strong)>/);
      expect(html).toContain('16 characters');
      expect(html).not.toContain('12 characters');

      // The card shows who fixed it and what changed, and loses its buttons.
      const fixed = await h.slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === cardTs && textOf(call).includes(`Fixed by <@${OPERATOR}>`),
        WAIT_MS,
      );
      expect(toReview(fixed)).toBe(true);
      expect(textOf(fixed)).toMatch(/changed answer/);
      expect(buttonsOf(fixed)).toEqual([]);

      // The asker is told in their thread, with Ask again.
      const told = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => call.body.thread_ts === threadTs && buttonsOf(call).some((b) => b.actionId === 'ask_again'),
        WAIT_MS,
      );
      expect(told.body.channel).toBe(IDS.channel);
      expect(textOf(told)).toContain(`updated the answer to “${QUESTION}”`);

      // Asking again gets the new answer.
      const again = await askByMention(h, QUESTION);
      expect(textOf(again.answer)).toContain('16 characters');
      expect(textOf(again.answer)).not.toContain('12 characters');

      // So does Ask again, below the notice, which stays to say why the answer changed.
      const asksBefore = h.robotAsks().length;
      const toldTs = String(told.response?.ts);
      const fresh = since(h.slack);
      const clicked = await h.click(clickButton(told, buttonOf(told, 'ask_again'), { ts: toldTs, threadTs }));
      expect(clicked.status).toBe(200);
      const reanswered = await h.slack.waitForCall(
        'chat.update',
        (call) => fresh(call) && textOf(call).includes('16 characters'),
        WAIT_MS,
      );
      expect(reanswered.body.channel).toBe(IDS.channel);
      expect(reanswered.body.ts).not.toBe(toldTs);
      expect(h.slack.calls('chat.update').filter((call) => call.body.ts === toldTs)).toEqual([]);
      expect(
        h
          .robotAsks()
          .slice(asksBefore)
          .map((ask) => ask.question),
      ).toContain(QUESTION);
    },
    TEST_MS,
  );

  it(
    'sends a chosen match mode, state and validity as the spec spells them, and nothing else',
    async () => {
      const h = harness();
      const { card, cardTs } = await dislike(h, 'How do I request annual leave?');
      expect(textOf(card)).toContain('doc-leave-request');
      const opened = await openFromCard(h, card, cardTs);
      const submit = async (changes: Record<string, InputValue | null>) =>
        resultOf(
          h,
          opened,
          await h.click(viewSubmissionPayload(opened, asSubmitted(opened.view, changes), OPERATOR)),
        );

      const period = await submit({
        edit_match_flag: { option: 'exact' },
        edit_used_flag: { option: 'disabled' },
        edit_validity: { option: 'period' },
        edit_effect_date: { date: '2026-12-01' },
        edit_effect_clock: { time: '08:30' },
        edit_invalid_date: { date: '2027-01-31' },
      });
      expect(textsIn(period)).toContain('The platform accepted the change');
      expect(updatesFor(h, 'doc-leave-request')).toEqual([
        {
          docId: 'doc-leave-request',
          robotFlag: 1,
          matchFlag: 1,
          usedFlag: 1,
          auditStatus: 2,
          effectTime: '2026-12-01 08:30:00',
          invalidTime: '2027-01-31 23:59:59',
        },
      ]);

      await submit({
        edit_match_flag: { option: 'contains' },
        edit_used_flag: { option: 'enabled' },
        edit_validity: { option: 'permanent' },
      });
      await submit({
        edit_match_flag: { option: 'smart' },
        edit_validity: { option: 'period' },
        edit_effect_date: { date: '2027-02-28' },
        edit_invalid_date: { date: '2027-03-01' },
        edit_invalid_clock: { time: '17:45' },
      });
      const [, permanent, times] = updatesFor(h, 'doc-leave-request');
      expect(permanent).toEqual({
        docId: 'doc-leave-request',
        robotFlag: 1,
        matchFlag: 2,
        usedFlag: 0,
        auditStatus: 1,
      });
      expect(times).toEqual({
        docId: 'doc-leave-request',
        robotFlag: 1,
        matchFlag: 0,
        auditStatus: 2,
        effectTime: '2027-02-28 00:00:00',
        invalidTime: '2027-03-01 17:45:00',
      });
      for (const sent of updatesFor(h, 'doc-leave-request')) {
        for (const field of ['effectTime', 'invalidTime'] as const) {
          if (field in sent) expect(sent[field]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        }
      }
    },
    TEST_MS,
  );

  it(
    'refuses a cleared question, a cleared answer, a bad period and an unchanged form inline, sending nothing',
    async () => {
      const h = harness();
      const { card, cardTs } = await dislike(h, 'How do I add a printer?');
      expect(textOf(card)).toContain('doc-printer');
      const opened = await openFromCard(h, card, cardTs);
      expect(elementOf(opened.view, 'edit_question_title')?.initial_value).toBe('How do I add a printer?');
      const updatesBefore = allUpdates(h);
      const submit = async (changes: Record<string, InputValue | null>) =>
        ackOf(await h.click(viewSubmissionPayload(opened, asSubmitted(opened.view, changes), OPERATOR)));

      expect(await submit({ edit_question_title: null })).toEqual({
        response_action: 'errors',
        errors: { edit_question_title: expect.stringMatching(/standard question cannot be empty/) },
      });
      expect(await submit({ edit_question_title: { text: '   ' } })).toEqual({
        response_action: 'errors',
        errors: { edit_question_title: expect.stringMatching(/standard question cannot be empty/) },
      });
      expect(await submit({ edit_answer: null })).toEqual({
        response_action: 'errors',
        errors: { edit_answer: expect.stringMatching(/answer cannot be empty/) },
      });
      expect(
        await submit({
          edit_validity: { option: 'period' },
          edit_effect_date: { date: '2026-12-10' },
          edit_invalid_date: { date: '2026-12-01' },
        }),
      ).toEqual({
        response_action: 'errors',
        errors: { edit_invalid_date: expect.stringMatching(/end must be after the start/) },
      });
      expect(
        await submit({
          edit_validity: { option: 'period' },
          edit_effect_date: { date: '2026-12-10' },
          edit_effect_clock: { time: '10:00' },
          edit_invalid_date: { date: '2026-12-10' },
          edit_invalid_clock: { time: '09:00' },
        }),
      ).toEqual({
        response_action: 'errors',
        errors: { edit_invalid_date: expect.stringMatching(/end must be after the start/) },
      });
      expect(
        await submit({ edit_validity: { option: 'period' }, edit_effect_date: { date: '2026-12-10' } }),
      ).toEqual({
        response_action: 'errors',
        errors: { edit_invalid_date: expect.stringMatching(/choose a date/) },
      });
      expect(await submit({})).toEqual({
        response_action: 'errors',
        errors: { edit_question_title: expect.stringMatching(/Nothing was changed/) },
      });
      // A knowledge base chosen alone says where the entry lives, not what it says: still no change.
      expect(await submit({ edit_robot_flag: { option: 'public' } })).toEqual({
        response_action: 'errors',
        errors: { edit_question_title: expect.stringMatching(/Nothing was changed/) },
      });

      expect(allUpdates(h)).toBe(updatesBefore);
      expect(h.slack.calls('views.update')).toEqual([]);
      expect(h.slack.calls('chat.update').filter((call) => call.body.ts === cardTs)).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'refuses a non-operator at Edit entry and again at submit, where nothing is sent',
    async () => {
      const h = harness();
      const { card, cardTs } = await dislike(h, 'How do I request a new laptop?');
      expect(textOf(card)).toContain('doc-laptop-request');

      const clicked = await h.click(
        clickButton(card, buttonOf(card, 'review_edit'), { user: 'U_OTHER', ts: cardTs }),
      );
      expect(clicked.status).toBe(200);
      const refusal = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === 'U_OTHER',
        WAIT_MS,
      );
      expect(textOf(refusal)).toContain('Only operators can edit the knowledge base');
      expect(h.slack.calls('views.open')).toEqual([]);

      // The operator opens the modal; someone else submits it (the right is checked at submit).
      const opened = await openFromCard(h, card, cardTs);
      const markup = String(elementOf(opened.view, 'edit_answer')?.initial_value);
      const values = asSubmitted(opened.view, { edit_answer: { text: `${markup}\n\nAsk IT first.` } });
      const updatesBefore = allUpdates(h);
      const refused = ackOf(await h.click(viewSubmissionPayload(opened, values, 'U_OTHER')));
      expect(refused).toEqual({
        response_action: 'errors',
        errors: { edit_question_title: expect.stringMatching(/Only operators can edit the knowledge base/) },
      });
      expect(allUpdates(h)).toBe(updatesBefore);

      // The same form from the operator is saved: only the right stood in the way.
      const saved = await resultOf(h, opened, await h.click(viewSubmissionPayload(opened, values, OPERATOR)));
      expect(textsIn(saved)).toContain('The platform accepted the change');
      expect(updatesFor(h, 'doc-laptop-request')).toHaveLength(1);
    },
    TEST_MS,
  );

  it(
    'keeps the modal and what was typed when the platform fails, marking nothing fixed',
    async () => {
      const h = harness();
      const { card, cardTs, threadTs } = await dislike(h, 'When is payday?');
      expect(textOf(card)).toContain('doc-payroll-date');
      const opened = await openFromCard(h, card, cardTs);
      const title = String(elementOf(opened.view, 'edit_question_title')?.initial_value);
      const typed = 'Salaries are paid on the **25th** of each month.';
      const values = asSubmitted(opened.view, { edit_answer: { text: typed } });

      h.simulator.faults.set({ kind: 'http500', actions: ['update_robot_doc'] });
      const beforeFailed = since(h.slack);
      const kept = await resultOf(
        h,
        opened,
        await h.click(viewSubmissionPayload(opened, values, OPERATOR)),
        beforeFailed,
      );
      expect(kept.callback_id).toBe('edit_entry');
      expect(kept.submit).toBeDefined();
      expect(elementOf(kept, 'edit_answer')?.initial_value).toBe(typed);
      expect(elementOf(kept, 'edit_question_title')?.initial_value).toBe(title);
      expect(textsIn(kept)).toContain('⚠️');
      expect(textsIn(kept)).toContain('The change may not have been saved');
      // It was tried once (a write is not retried after it may have reached the platform).
      expect(updatesFor(h, 'doc-payroll-date')).toHaveLength(1);

      // The platform refusing it (an error code) keeps the modal too, and says so.
      h.simulator.faults.set({ kind: 'code', code: '999999', actions: ['update_robot_doc'] });
      const beforeRefused = since(h.slack);
      const keptAgain = await resultOf(
        h,
        opened,
        await h.click(viewSubmissionPayload(opened, values, OPERATOR)),
        beforeRefused,
      );
      expect(elementOf(keptAgain, 'edit_answer')?.initial_value).toBe(typed);
      expect(textsIn(keptAgain)).toContain('The platform refused the change (999999)');
      expect(textsIn(keptAgain)).toContain('Nothing was changed');

      // Nothing was marked fixed: once the platform is back, the same form saves, and the card's only
      // "fixed" update, and the asker's only notice, come after that save.
      h.simulator.faults.clear();
      const savedAt = Date.now();
      const beforeSaved = since(h.slack);
      const saved = await resultOf(
        h,
        opened,
        await h.click(viewSubmissionPayload(opened, values, OPERATOR)),
        beforeSaved,
      );
      expect(textsIn(saved)).toContain('The platform accepted the change');
      const fixed = await h.slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === cardTs && /Fixed by/.test(textOf(call)),
        WAIT_MS,
      );
      expect(fixed.at).toBeGreaterThanOrEqual(savedAt);
      const told = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => call.body.thread_ts === threadTs && /updated the answer/.test(textOf(call)),
        WAIT_MS,
      );
      expect(told.at).toBeGreaterThanOrEqual(savedAt);
      expect(
        h.slack
          .calls('chat.update')
          .filter((call) => call.body.ts === cardTs && /Fixed by/.test(textOf(call))),
      ).toHaveLength(1);
      expect(
        h.slack
          .calls('chat.postMessage')
          .filter((call) => call.body.thread_ts === threadTs && /updated the answer/.test(textOf(call))),
      ).toHaveLength(1);
    },
    TEST_MS,
  );

  it(
    'answers a slow save at once with a Saving… view that cannot be submitted again, then shows the result',
    async () => {
      const h = harness();
      const { card, cardTs } = await dislike(h, 'Where can I find my payslip?');
      expect(textOf(card)).toContain('doc-payslip');
      const opened = await openFromCard(h, card, cardTs);
      const markup = String(elementOf(opened.view, 'edit_answer')?.initial_value);
      const typed = `${markup}\n\nPayslips are kept for 7 years.`;

      h.simulator.faults.set({ kind: 'delay', ms: 3_500, actions: ['update_robot_doc'], times: 1 });
      const started = Date.now();
      const response = await h.click(
        viewSubmissionPayload(opened, asSubmitted(opened.view, { edit_answer: { text: typed } }), OPERATOR),
      );
      const answeredInMs = Date.now() - started;
      // Well within Slack's 3 s (the budget is half a second; a busy machine adds to it).
      expect(answeredInMs).toBeLessThan(2_000);
      const saving = ackOf(response);
      expect(saving.response_action).toBe('update');
      const savingView = isRecord(saving.view) ? saving.view : {};
      expect(textsIn(savingView)).toContain('Saving the change to entry `doc-payslip` to the platform…');
      // Nothing to press Save on a second time: no submit button, no inputs, no callback to route.
      expect(savingView.submit).toBeUndefined();
      expect(savingView.callback_id).toBeUndefined();
      expect(viewBlocks(savingView).filter((block) => block.type === 'input')).toEqual([]);

      const updated = await h.slack.waitForCall(
        'views.update',
        (call) => call.body.view_id === opened.id,
        WAIT_MS,
      );
      expect(textsIn(viewOf(updated))).toContain('The platform accepted the change to entry');
      expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
      await h.slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === cardTs && textOf(call).includes(`Fixed by <@${OPERATOR}>`),
        WAIT_MS,
      );
      expect(updatesFor(h, 'doc-payslip')).toHaveLength(1);
    },
    TEST_MS,
  );

  it(
    'opens the modal from "Edit this answer" for an operator, refuses anyone else, and only on the app\'s answers',
    async () => {
      const h = harness();
      const question = 'How do I connect to the office Wi-Fi?';
      const { answer } = await askByMention(h, question);
      const message = messageOf(answer);
      expect(message.blocks.some((block) => block.block_id === 'entry:doc-wifi')).toBe(true);

      const fresh = since(h.slack);
      const shortcut = await h.click(messageShortcutPayload({ user: OPERATOR, message }));
      expect(shortcut.status).toBe(200);
      const opened = openedFrom(await h.slack.waitForCall('views.open', fresh, WAIT_MS));
      expect(opened.view.callback_id).toBe('edit_entry');
      expect(elementOf(opened.view, 'edit_question_title')?.initial_value).toBe(question);
      expect(String(elementOf(opened.view, 'edit_answer')?.initial_value)).not.toBe('');
      // Not from a card: no card to mark fixed.
      expect(JSON.parse(String(opened.view.private_metadata))).toMatchObject({ v: 1, d: 'doc-wifi' });
      expect(JSON.parse(String(opened.view.private_metadata))).not.toHaveProperty('c');

      await h.click(messageShortcutPayload({ user: 'U_OTHER', message }));
      const refused = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === 'U_OTHER',
        WAIT_MS,
      );
      expect(textOf(refused)).toContain('Only operators can edit the knowledge base');

      // A person's message, even with an answer's blocks, is not the app's.
      await h.click(messageShortcutPayload({ user: OPERATOR, message: { ...message, user: 'U_OTHER' } }));
      const notOurs = await h.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === OPERATOR,
        WAIT_MS,
      );
      expect(textOf(notOurs)).toContain("works only on the app's answers");
      expect(h.slack.calls('views.open')).toHaveLength(1);
    },
    TEST_MS,
  );

  it(
    'refuses an unsigned edit submission (401, nothing sent) and a signed one of an unknown kind at once',
    async () => {
      const h = harness();
      const updatesBefore = allUpdates(h);
      const modal = renderEditModal({
        locale: 'en',
        timeZone: undefined,
        docId: 'doc-benefits',
        cardId: undefined,
        robotFlag: undefined,
        prefill: {
          questionTitle: undefined,
          answerMarkup: undefined,
          answerLength: undefined,
          seenAt: undefined,
          unsupportedMarkup: [],
        },
      });
      const forged = viewSubmissionPayload(
        { view: { ...modal }, id: 'V0FORGED' },
        { edit_used_flag: { option: 'disabled' } },
        OPERATOR,
      );
      const post = (body: string, headers: Record<string, string>) =>
        fetch(`${h.url}/slack/events`, {
          method: 'POST',
          headers: { 'content-type': FORM_CONTENT_TYPE, ...headers },
          body,
        }).then(async (response) => ({ status: response.status, text: await response.text() }));

      const body = interactionBody(forged);
      expect((await post(body, {})).status).toBe(401);
      expect((await post(body, { ...signSlackRequest('not-the-signing-secret', body) })).status).toBe(401);

      // Signed, but no listener's: refused by the receiver at once, not after Bolt's 3 s wait.
      for (const unknown of [
        viewSubmissionPayload(
          { view: { ...modal, callback_id: 'not_ours' }, id: 'V0UNKNOWN' },
          { edit_used_flag: { option: 'disabled' } },
          OPERATOR,
        ),
        messageShortcutPayload({ user: OPERATOR, callbackId: 'not_ours' }),
      ]) {
        const signedBody = interactionBody(unknown);
        const started = Date.now();
        const response = await post(signedBody, { ...signSlackRequest(SIGNING_SECRET, signedBody) });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(Date.now() - started).toBeLessThan(2_000);
      }

      // The 401 and the 400 are answered before Bolt sees the request: nothing can still be on its way.
      expect(allUpdates(h)).toBe(updatesBefore);
      expect(
        h.slack.calls().filter((call) => call.method.startsWith('views.') || call.method.startsWith('chat.')),
      ).toEqual([]);

      // The same submission, signed, is acted on: the refusals above were the boundary, not a broken path.
      const control = ackOf(await h.click(forged));
      expect(control.response_action).toBe('update');
      expect(updatesFor(h, 'doc-benefits')).toEqual([{ docId: 'doc-benefits', robotFlag: 1, usedFlag: 1 }]);
    },
    TEST_MS,
  );
});

// ---------------------------------------------------------------- Chinese

describe('the edit loop in Chinese', () => {
  // A gateway of its own: users' locales are cached for an hour, and the operator reads Chinese here.
  const harness = useGatewayHarness({
    env: { REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR },
  });

  it(
    'shows the modal in Chinese, keeps the markup of a Chinese answer, and tells the asker in Chinese',
    async () => {
      const h = harness();
      h.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
      h.slack.setUser(OPERATOR, { displayName: '李运营', locale: 'zh-CN' });
      const question = '忘记密码怎么办？';
      const { card, cardTs, threadTs } = await dislike(h, question, 'U_ZH');
      expect(textOf(card)).toContain('doc-zh-password');

      const opened = await openFromCard(h, card, cardTs);
      const title = opened.view.title;
      expect(isRecord(title) ? title.text : undefined).toBe('编辑知识条目');
      const submit = opened.view.submit;
      expect(isRecord(submit) ? submit.text : undefined).toBe('保存');
      const text = textsIn(opened.view);
      expect(text).toContain('按网关最近一次看到的机器人回答填写');
      expect(text).toContain('标准问题');
      expect(text).not.toContain('Standard question');
      expect(elementOf(opened.view, 'edit_question_title')?.initial_value).toBe(question);
      const markup = String(elementOf(opened.view, 'edit_answer')?.initial_value);
      expect(markup).toContain('[密码自助平台](https://password.example.com)');
      expect(markup).toContain('**忘记密码**');
      expect(markup).toContain('手机验证码');

      const response = await h.click(
        viewSubmissionPayload(
          opened,
          asSubmitted(opened.view, { edit_answer: { text: markup.replace('手机验证码', '短信验证码') } }),
          OPERATOR,
        ),
      );
      const result = await resultOf(h, opened, response);
      const resultTitle = result.title;
      expect(isRecord(resultTitle) ? resultTitle.text : undefined).toBe('条目已保存');
      expect(textsIn(result)).toContain('平台已接受对条目');

      const updates = updatesFor(h, 'doc-zh-password');
      expect(updates).toHaveLength(1);
      const [data = {}] = updates;
      expect(Object.keys(data).sort()).toEqual(['answerDesc', 'docId', 'robotFlag']);
      const html = String(data.answerDesc);
      expect(html).toContain('短信验证码');
      expect(html).not.toContain('手机验证码');
      expect(html).toContain('<a href="https://password.example.com">密码自助平台</a>');
      expect(html).toMatch(/<(b|strong)>忘记密码<\/(b|strong)>/);
      expect(html).toMatch(/<(b|strong)>注意：<\/(b|strong)>/);
      expect(html).toContain('src="https://assets.example.com/helpdesk/password-reset-zh.png"');

      const fixed = await h.slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === cardTs && textOf(call).includes(`<@${OPERATOR}>`),
        WAIT_MS,
      );
      expect(buttonsOf(fixed)).toEqual([]);

      const told = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => call.body.thread_ts === threadTs && buttonsOf(call).some((b) => b.actionId === 'ask_again'),
        WAIT_MS,
      );
      expect(textOf(told)).toContain(`知识库团队已更新“${question}”的答案`);
      expect(buttonOf(told, 'ask_again').text).toBe('再问一次');

      const again = await askByMention(h, question, { user: 'U_ZH' });
      expect(textOf(again.answer)).toContain('短信验证码');

      const toldTs = String(told.response?.ts);
      const fresh = since(h.slack);
      await h.click(clickButton(told, buttonOf(told, 'ask_again'), { user: 'U_ZH', ts: toldTs, threadTs }));
      const reanswered = await h.slack.waitForCall(
        'chat.update',
        (call) => fresh(call) && textOf(call).includes('短信验证码'),
        WAIT_MS,
      );
      // Below the notice, which stays.
      expect(reanswered.body.ts).not.toBe(toldTs);
    },
    TEST_MS,
  );
});
