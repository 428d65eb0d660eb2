// Ratings on private answers (a channel set to `reply:ephemeral`), over signed HTTP: Slack sends a
// click in an ephemeral message with its container and a response_url only, so the rated line is a
// message of its own; a reason sent replaces it (without its button), and a second click is told once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { writeChannelSettings } from '../../../src/stores/sqlite.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  buttonOf,
  clickButton,
  type GatewayHarness,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { openedViewId, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { findReasonButton } from '../../support/review-steps.js';
import { appMention, IDS } from '../../support/slack-payloads.js';

const PRIVATE = 'C0PRIVATE';
const REVIEW_CHANNEL = 'C0REVIEW';
const ASKER = 'U0ASKER';
const WAIT_MS = 8_000;
const RATED_DOWN = `<@${ASKER}> rated this answer 👎 not helpful`;
const REASON_SENT = '✓ What was wrong was sent to the team. Thank you.';
const ALREADY_RATED = 'This answer has already been rated. Thank you!';

const folder = mkdtempSync(join(tmpdir(), 'private-answers-'));
const statePath = join(folder, 'gateway.sqlite');
await writeChannelSettings(statePath, { [PRIVATE]: { reply: 'ephemeral' } }, 'U0OPERATOR');

const harness = useGatewayHarness({
  env: { STATE_PATH: statePath, REVIEW_CHANNEL_ID: REVIEW_CHANNEL, PLACEHOLDER_DELAY_MS: '10000' },
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

beforeEach(() => {
  harness().slack.setUser(ASKER, { displayName: 'Ann Asker', locale: 'en-US' });
});

/** Asks by mention in the private channel; resolves with the ephemeral answer and its thread. */
async function askPrivately(
  h: GatewayHarness,
  question: string,
): Promise<{ answer: RecordedCall; threadTs: string }> {
  const mention = appMention({ channel: PRIVATE, user: ASKER, text: `<@${IDS.botUser}> ${question}` });
  expect((await h.sendEvent(mention)).status).toBe(200);
  const answer = await h.slack.waitForCall(
    'chat.postEphemeral',
    (call) => call.body.thread_ts === mention.ts && call.body.user === ASKER,
    WAIT_MS,
  );
  return { answer, threadTs: mention.ts };
}

/** A click on a button of an ephemeral message, as Slack sends it: no message, the container, a response_url. */
async function clickPrivately(
  h: GatewayHarness,
  message: RecordedCall,
  button: { actionId: string; blockId: string; value: string; text: string },
  threadTs: string,
  responseUrlKey: string,
): Promise<void> {
  const { message: _none, ...click } = clickButton(message, button, {
    user: ASKER,
    threadTs,
    ts: String(message.response?.message_ts),
  });
  const response = await h.click({
    ...click,
    container: { ...click.container, is_ephemeral: true, thread_ts: threadTs },
    response_url: h.slack.responseUrl(responseUrlKey),
  });
  expect(response.status).toBe(200);
}

describe('a private answer', () => {
  it('after a 👎 reason is sent, the rated line says so in place, and Say what was wrong is gone', async () => {
    const h = harness();
    const { answer, threadTs } = await askPrivately(h, 'How do I set up email on my phone?');
    const beforeRating = h.slack.calls().length;
    await clickPrivately(h, answer, buttonOf(answer, 'rate_down'), threadTs, 'answer');
    const rated = await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) =>
        h.slack.madeSince(beforeRating)(call) &&
        call.body.user === ASKER &&
        textOf(call).includes(RATED_DOWN),
      WAIT_MS,
    );
    const reason = findReasonButton(rated);
    if (!reason) throw new Error(`no reason button on the rated line: ${JSON.stringify(rated.body.blocks)}`);
    await h.slack.waitForCall('chat.postMessage', (call) => call.body.channel === REVIEW_CHANNEL, WAIT_MS);

    const beforeReason = h.slack.calls().length;
    await clickPrivately(h, rated, reason, threadTs, 'rated-line');
    const opened = await h.slack.waitForCall('views.open', h.slack.madeSince(beforeReason), WAIT_MS);
    const view = viewOf(opened);
    const submitted = await h.click(
      viewSubmissionPayload(
        { view, id: openedViewId(opened) },
        { dislike_reason: { radio: 'wrong_answer' } },
        ASKER,
      ),
    );
    expect(submitted.status).toBe(200);

    // The rated line is replaced through its own response_url: seen by the asker alone, no button.
    const sent = await h.slack.waitForCall('response_url', h.slack.madeSince(beforeReason), WAIT_MS);
    expect(sent.body.replace_original).toBe(true);
    expect(sent.body.response_type).toBe('ephemeral');
    expect(textOf(sent)).toContain(`${RATED_DOWN} · ${REASON_SENT}`);
    expect(findReasonButton(sent)).toBeUndefined();
    expect(JSON.stringify(sent.body.blocks)).not.toContain('dislike_reason');
  });

  it('a second 👍/👎 click is told "already rated" once, without the rated line again', async () => {
    const h = harness();
    const { answer, threadTs } = await askPrivately(h, 'How do I connect to the VPN?');
    const beforeRating = h.slack.calls().length;
    await clickPrivately(h, answer, buttonOf(answer, 'rate_up'), threadTs, 'answer');
    await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) => h.slack.madeSince(beforeRating)(call) && textOf(call).includes('rated this answer 👍'),
      WAIT_MS,
    );

    const mark = h.slack.calls().length;
    await clickPrivately(h, answer, buttonOf(answer, 'rate_down'), threadTs, 'answer');
    await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) => h.slack.madeSince(mark)(call) && call.body.text === ALREADY_RATED,
      WAIT_MS,
    );
    // The control: a third click, whose notice comes after anything the second click still posts.
    await clickPrivately(h, answer, buttonOf(answer, 'rate_up'), threadTs, 'answer');
    await h.slack.waitForCall(
      'chat.postEphemeral',
      (call) =>
        h.slack.madeSince(mark)(call) &&
        call.body.text === ALREADY_RATED &&
        h.slack.calls('chat.postEphemeral').filter(h.slack.madeSince(mark)).indexOf(call) > 0,
      WAIT_MS,
    );
    const toAsker = h.slack
      .calls('chat.postEphemeral')
      .filter((call) => h.slack.madeSince(mark)(call) && call.body.user === ASKER)
      .map((call) => call.body.text);
    expect(toAsker).toEqual([ALREADY_RATED, ALREADY_RATED]);
  });
});
