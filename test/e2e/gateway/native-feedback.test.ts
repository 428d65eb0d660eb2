// Slack's own rating element, the default (RATING_BUTTONS=native), through the real
// gateway over signed HTTP: answers carry feedback_buttons in a context_actions block, a click on
// either side is the same rating as a 👍/👎 button (robot_feedback once, by the asker, shown in
// place), classic buttons already posted still rate, and forged or repeated clicks change nothing.
import { describe, expect, it } from 'vitest';
import { encodeRatingValue } from '../../../src/slack/kit/button-values.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  blocksOf,
  buttonsOf,
  clickButton,
  clickFeedback,
  feedbackButtonsOf,
  type GatewayHarness,
  isRecord,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { blockActionsPayload, IDS } from '../../support/slack-payloads.js';
import { FORM_CONTENT_TYPE } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const WAIT_MS = 5_000;

// Empty is unset: the production default, whatever the test gateways' own default is.
const harness = useGatewayHarness({ env: { RATING_BUTTONS: '' } });

function ratedUpdate(h: GatewayHarness, answer: RecordedCall): Promise<RecordedCall> {
  return h.slack.waitForCall(
    'chat.update',
    (call) => call.body.ts === answer.body.ts && textOf(call).includes('rated this answer'),
    WAIT_MS,
  );
}

/** The "… rated this answer" line of a message's text, if it has one. */
function ratingLineOf(text: string): string | undefined {
  return text.split('\n').find((line) => line.includes('rated this answer'));
}

/** Changes made to the answer's message after it was shown. */
function changesOf(h: GatewayHarness, answer: RecordedCall): RecordedCall[] {
  const calls = h.slack.calls();
  return calls
    .slice(calls.indexOf(answer) + 1)
    .filter((call) => call.method === 'chat.update' && call.body.ts === answer.body.ts);
}

/** The context key the answer's rating element carries. */
function contextKeyOf(answer: RecordedCall): string {
  const value = feedbackButtonsOf(answer)?.positive.value ?? '';
  const parsed: unknown = JSON.parse(value);
  if (!isRecord(parsed) || typeof parsed.k !== 'string') throw new Error(`no context key in ${value}`);
  return parsed.k;
}

describe('answers by default', () => {
  it('carry Slack’s feedback buttons in a context_actions block, each side labelled, and no 👍/👎 buttons', async () => {
    const h = harness();
    const { answer } = await askByMention(h, 'How do I reset my password?');
    const rating = blocksOf(answer).find((block) => block.type === 'context_actions');
    expect(rating?.block_id).toBe('rating');
    const feedback = feedbackButtonsOf(answer);
    expect(feedback).toMatchObject({
      actionId: 'rate_feedback',
      positive: { text: '👍', accessibilityLabel: 'This answer was helpful' },
      negative: { text: '👎', accessibilityLabel: 'This answer was not helpful' },
    });
    expect(feedback?.positive.value).not.toBe(feedback?.negative.value);
    // Slack took the message: the fake checks context_actions and feedback_buttons as Slack does.
    expect(answer.response).toMatchObject({ ok: true });
    const actionIds = buttonsOf(answer).map((button) => button.actionId);
    expect(actionIds).not.toContain('rate_up');
    expect(actionIds).not.toContain('rate_down');
  });

  it('labels both sides in Chinese for a person whose Slack is in Chinese', async () => {
    const h = harness();
    h.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
    const { answer } = await askByMention(h, '忘记密码怎么办？', { user: 'U_ZH' });
    expect(feedbackButtonsOf(answer)?.negative.accessibilityLabel).toBe('这个回答没帮助');
  });
});

describe('a click on the feedback buttons', () => {
  it('👍 sends robot_feedback with status 1 and the answer’s ids, then shows the rating in place of the buttons', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, 'How do I reset my password?');
    expect((await h.click(clickFeedback(answer, 'positive', { threadTs }))).status).toBe(200);
    const rated = await ratedUpdate(h, answer);
    expect(h.feedbacks().slice(before)).toEqual([
      expect.objectContaining({
        status: 1,
        docId: 'doc-password-reset',
        cid: expect.stringMatching(/^c-\d{8}$/),
        msgId: expect.stringMatching(/^m-\d{8}$/),
      }),
    ]);
    expect(h.simulator.stats().feedbackRejected ?? 0).toBe(0);
    expect(feedbackButtonsOf(rated)).toBeUndefined();
    expect(textOf(rated)).toContain(`<@${IDS.user}> rated this answer 👍 helpful`);
    // The answer itself is still there.
    expect(textOf(rated)).toContain('password portal');
  });

  it('👎 sends status 2', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, 'How do I connect to the VPN?');
    await h.click(clickFeedback(answer, 'negative', { threadTs }));
    const rated = await ratedUpdate(h, answer);
    expect(textOf(rated)).toContain('👎 not helpful');
    expect(h.feedbacks().slice(before)).toEqual([
      expect.objectContaining({ status: 2, docId: 'doc-vpn-connect' }),
    ]);
  });

  it('a second click rates nothing more: one robot_feedback, the first rating stands', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, 'How do I reset my password?');
    await h.click(clickFeedback(answer, 'positive', { threadTs }));
    await ratedUpdate(h, answer);
    await h.click(clickFeedback(answer, 'negative', { threadTs }));
    const told = await h.slack.waitForCall('chat.postEphemeral', undefined, WAIT_MS);
    expect(textOf(told)).toContain('already been rated');
    expect(h.feedbacks().slice(before)).toEqual([expect.objectContaining({ status: 1 })]);
    // The message shows the first rating, and only it.
    expect(changesOf(h, answer).map((change) => ratingLineOf(textOf(change)))).toEqual([
      `<@${IDS.user}> rated this answer 👍 helpful`,
    ]);
  });

  it('by someone other than the asker sends nothing; they are told privately', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, 'How do I reset my password?');
    await h.click(clickFeedback(answer, 'positive', { user: 'U_OTHER', threadTs }));
    const told = await h.slack.waitForCall('chat.postEphemeral', undefined, WAIT_MS);
    expect(told.body.user).toBe('U_OTHER');
    expect(textOf(told)).toContain('Only the person who asked');
    expect(h.feedbacks().slice(before)).toEqual([]);
    expect(changesOf(h, answer)).toEqual([]);
  });

  it('with a forged value (an answer that was never given) sends nothing and changes no message', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, 'How do I reset my password?');
    const forged = clickFeedback(answer, 'positive', { threadTs });
    const value = encodeRatingValue({ contextKey: 'forged-context-key', rating: 1 }) ?? '';
    const click = { ...forged, actions: forged.actions.map((action) => ({ ...action, value })) };
    await h.click(click);
    const told = await h.slack.waitForCall('chat.postEphemeral', undefined, WAIT_MS);
    expect(textOf(told)).toContain('too old');
    expect(h.feedbacks().slice(before)).toEqual([]);
    expect(changesOf(h, answer)).toEqual([]);
  });

  it('unsigned or wrongly signed is refused 401 and rates nothing', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, 'How do I reset my password?');
    const body = new URLSearchParams({
      payload: JSON.stringify(clickFeedback(answer, 'positive', { threadTs })),
    }).toString();
    for (const headers of [
      {},
      { 'x-slack-signature': 'v0=00', 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) },
    ]) {
      const response = await fetch(`${h.url}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': FORM_CONTENT_TYPE, ...headers },
        body,
      });
      expect(response.status).toBe(401);
    }
    // The control: the same click, signed, rates; it is the only rating and the only change.
    expect((await h.click(clickFeedback(answer, 'positive', { threadTs }))).status).toBe(200);
    const rated = await ratedUpdate(h, answer);
    expect(h.feedbacks().slice(before)).toEqual([expect.objectContaining({ status: 1 })]);
    expect(changesOf(h, answer)).toEqual([rated]);
  });

  it('that the platform does not take says the rating was not recorded, and a later click can rate', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, 'How do I reset my password?');
    h.simulator.faults.set({ kind: 'http500', actions: ['robot_feedback'], times: 1 });
    await h.click(clickFeedback(answer, 'positive', { threadTs }));
    const told = await h.slack.waitForCall('chat.postEphemeral', undefined, WAIT_MS);
    expect(textOf(told)).toContain('Your rating was not recorded');
    expect(buttonsOf(told).map((button) => button.actionId)).not.toContain('try_again');

    await h.click(clickFeedback(answer, 'positive', { threadTs }));
    await ratedUpdate(h, answer);
    await waitFor(
      () =>
        h
          .feedbacks()
          .slice(before)
          .some((feedback) => feedback.status === 1),
      { timeoutMs: WAIT_MS },
    );
  });
});

describe('classic 👍/👎 buttons posted before the change', () => {
  it('still rate an answer: same robot_feedback, same line in place', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, 'How do I reset my password?');
    // The button an answer of the same context carried when RATING_BUTTONS was classic.
    const value = encodeRatingValue({ contextKey: contextKeyOf(answer), rating: 2 }) ?? '';
    const classic = clickButton(
      answer,
      { actionId: 'rate_down', blockId: 'rating', value, text: '👎 Not helpful' },
      { threadTs },
    );
    expect((await h.click(classic)).status).toBe(200);
    const rated = await ratedUpdate(h, answer);
    expect(textOf(rated)).toContain('👎 not helpful');
    expect(h.feedbacks().slice(before)).toEqual([
      expect.objectContaining({ status: 2, docId: 'doc-password-reset' }),
    ]);
  });

  it('a classic click whose value is not a rating is told too old, and rates nothing', async () => {
    const h = harness();
    const before = h.feedbacks().length;
    const payload = blockActionsPayload({
      message: { ts: '1700000000.000001' },
      actions: [{ action_id: 'rate_up', block_id: 'rating', value: '{"v":1}' }],
    });
    await h.click(payload);
    const told = await h.slack.waitForCall('chat.postEphemeral', undefined, WAIT_MS);
    expect(textOf(told)).toContain('too old');
    expect(h.feedbacks().slice(before)).toEqual([]);
  });
});
