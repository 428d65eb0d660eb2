// Ask again in the assistant panel, over signed HTTP: once an operator fixed the entry behind a panel
// answer, the notice's Ask again asks the robot that answer came from (the one the fix was made to),
// whatever channel is beside the panel by then, and answers the panel's way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChannelSettings } from '../../../src/stores/sqlite.js';
import {
  buttonOf,
  clickButton,
  clickFeedback,
  type GatewayHarness,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { elementOf, openedViewId, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { asSubmitted, since } from '../../support/review-steps.js';
import { assistantThreadEvent, directMessage, IDS, nextTs } from '../../support/slack-payloads.js';
import { waitFor } from '../../support/wait.js';

const REVIEW_CHANNEL = 'C0REVIEW';
const OPERATOR = 'U0OPERATOR';
const IT_CHANNEL = 'C0ROBOT2';
const PLAIN_CHANNEL = 'C0PLAIN';
/** Robot 2 (the IT desk) answers it from its own entry, robot 1 from another. */
const QUESTION = 'How do I reset my password?';
const WAIT_MS = 10_000;

const folder = mkdtempSync(join(tmpdir(), 'panel-ask-again-'));
const statePath = join(folder, 'gateway.sqlite');
await writeChannelSettings(statePath, { [IT_CHANNEL]: { robot: 2 } }, OPERATOR);

const harness = useGatewayHarness({
  env: { STATE_PATH: statePath, REVIEW_CHANNEL_ID: REVIEW_CHANNEL, OPERATOR_USER_IDS: OPERATOR },
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** Waits until the gateway has kept the channel beside the thread (it says so in its log). */
async function contextKept(h: GatewayHarness, channelId: string, from: number): Promise<void> {
  await waitFor(
    () =>
      h.logs
        .slice(from)
        .some((log) => log.msg === 'assistant thread beside a channel' && log.channelId === channelId),
    { timeoutMs: WAIT_MS },
  );
}

describe('Ask again in the assistant panel', () => {
  it('asks the robot the fixed answer came from, though another channel is beside the panel now', async () => {
    const h = harness();
    // The panel opens beside the IT channel (robot 2), and the question is answered by robot 2.
    const logsBefore = h.logs.length;
    const threadTs = nextTs();
    const started = assistantThreadEvent('assistant_thread_started', {
      threadTs,
      contextChannel: IT_CHANNEL,
    });
    expect((await h.sendEvent(started)).status).toBe(200);
    await contextKept(h, IT_CHANNEL, logsBefore);
    const asking = since(h.slack);
    expect(
      (await h.sendEvent(directMessage({ text: QUESTION, channel: IDS.dm, thread_ts: threadTs }))).status,
    ).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => asking(call) && call.body.thread_ts === threadTs && textOf(call).includes('password'),
      WAIT_MS,
    );
    expect(h.robotAsks().find((ask) => ask.question === QUESTION)?.robotFlag).toBe(2);

    // 👎 (the panel's own element): the entry's card.
    const disliking = since(h.slack);
    await h.click(clickFeedback(answer, 'negative', { threadTs }));
    const card = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => disliking(call) && call.body.channel === REVIEW_CHANNEL,
      WAIT_MS,
    );
    expect(textOf(card)).toContain('doc-it-password');

    // The person moves the panel beside a channel without settings (the default robot).
    const movedLogs = h.logs.length;
    const moved = assistantThreadEvent('assistant_thread_context_changed', {
      threadTs,
      contextChannel: PLAIN_CHANNEL,
    });
    expect((await h.sendEvent(moved)).status).toBe(200);
    await contextKept(h, PLAIN_CHANNEL, movedLogs);

    // An operator fixes robot 2's entry: the asker is told in the panel thread, with Ask again.
    const cardTs = String(card.response?.ts);
    const editing = since(h.slack);
    await h.click(clickButton(card, buttonOf(card, 'review_edit'), { user: OPERATOR, ts: cardTs }));
    const opened = await h.slack.waitForCall('views.open', editing, WAIT_MS);
    const view = viewOf(opened);
    const markup = String(elementOf(view, 'edit_answer')?.initial_value);
    await h.click(
      viewSubmissionPayload(
        { view, id: openedViewId(opened) },
        asSubmitted(view, { edit_answer: { text: `${markup}\n\nCall the IT desk if it fails twice.` } }),
        OPERATOR,
      ),
    );
    const notice = await h.slack.waitForCall(
      'chat.postMessage',
      (call) =>
        editing(call) && call.body.thread_ts === threadTs && textOf(call).includes('updated the answer'),
      WAIT_MS,
    );

    // Ask again: robot 2 again, and the panel's way (Slack's status line, no placeholder).
    const asks = h.robotAsks().length;
    const askingAgain = since(h.slack);
    await h.click(
      clickButton(notice, buttonOf(notice, 'ask_again'), { threadTs, ts: String(notice.response?.ts) }),
    );
    const again = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => askingAgain(call) && call.body.thread_ts === threadTs && textOf(call).includes('IT desk'),
      WAIT_MS,
    );
    expect(h.robotAsks().slice(asks)).toEqual([
      expect.objectContaining({ question: QUESTION, robotFlag: 2 }),
    ]);
    expect(textOf(again)).toContain('Call the IT desk if it fails twice.');
    expect(h.slack.calls('assistant.threads.setStatus').filter(askingAgain).length).toBeGreaterThan(0);
  });
});
