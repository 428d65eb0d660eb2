import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  askByMention,
  buttonOf,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import { IDS } from '../../support/slack-payloads.js';
import { waitFor } from '../../support/wait.js';

let harness: GatewayHarness;

beforeAll(async () => {
  harness = await startGatewayHarness();
});
afterAll(async () => {
  await harness.close();
});
beforeEach(() => {
  harness.slack.reset();
  harness.simulator.faults.clear();
  harness.slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
  harness.slack.setUser('U_OTHER', { displayName: 'Sam Other', locale: 'en-US' });
});

const partnerId = (userId: string) => `slack-${IDS.team}-${userId}`;
/** The simulator's uid for a partner, derived the way the platform's sample data is. */
const uidOf = (userId: string) =>
  `u-${createHash('md5')
    .update(`acme\u0000${partnerId(userId)}`)
    .digest('hex')
    .slice(0, 16)}`;

const button = buttonOf;

async function ephemeralFor(userId: string) {
  return harness.slack.waitForCall('chat.postEphemeral', (call) => call.body.user === userId);
}

describe('a click on a suggested question', () => {
  it('asks again with questionFlag 1 and the docId, and answers in the same thread saying who asked what', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const suggestion = button(answer, 'suggestion:0');
    const asksBefore = harness.robotAsks().length;

    const response = await harness.click(clickButton(answer, suggestion, { threadTs }));
    expect(response.status).toBe(200);

    const followUp = await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts !== answer.body.ts && textOf(call).includes('asked:'),
    );
    const ask = harness.robotAsks().slice(asksBefore);
    expect(ask).toHaveLength(1);
    expect(ask[0]).toMatchObject({
      partnerId: partnerId(IDS.user),
      questionFlag: 1,
      requestText: 'doc-account-locked',
    });
    // The question sent is the suggestion the user clicked (its label may be shortened with an ellipsis).
    expect(String(ask[0]?.question).startsWith(suggestion.text.replace(/…$/, ''))).toBe(true);
    expect(textOf(followUp)).toContain(`Jane Doe asked: ${String(ask[0]?.question)}`);
    // The new answer lives in the same thread as the first one.
    expect(harness.slack.calls('chat.postMessage').every((call) => call.body.thread_ts === threadTs)).toBe(
      true,
    );
  });

  it('asks for the person who clicked, not the person who asked first', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const asksBefore = harness.robotAsks().length;
    await harness.click(clickButton(answer, button(answer, 'suggestion:1'), { user: 'U_OTHER', threadTs }));
    const followUp = await harness.slack.waitForCall('chat.update', (call) =>
      textOf(call).includes('Sam Other asked:'),
    );
    expect(harness.robotAsks()[asksBefore]).toMatchObject({
      partnerId: partnerId('U_OTHER'),
      uname: 'Sam Other',
    });
    // Only Sam may rate the answer Sam asked for.
    expect(buttonsOf(followUp).some((candidate) => candidate.actionId === 'rate_up')).toBe(true);
  });
});

describe('👍 and 👎', () => {
  it('👍 sends robot_feedback with the answer’s uid, cid, msgId and docId, then shows how it was rated', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const feedbacksBefore = harness.feedbacks().length;

    await harness.click(clickButton(answer, button(answer, 'rate_up'), { threadTs }));
    const rated = await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === answer.body.ts && textOf(call).includes('rated this answer'),
    );

    const sent = harness.feedbacks().slice(feedbacksBefore);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({
      uid: uidOf(IDS.user),
      cid: expect.stringMatching(/^c-\d{8}$/),
      msgId: expect.stringMatching(/^m-\d{8}$/),
      docId: 'doc-password-reset',
      docName: 'How do I reset my password?',
      robotFlag: 1,
      status: 1,
    });
    // The platform accepted it: the ids matched a real answer.
    expect(harness.simulator.stats().feedbackRejected ?? 0).toBe(0);
    // The rating buttons gave way to a line saying how it was rated; the answer itself is still there.
    expect(buttonsOf(rated).map((candidate) => candidate.actionId)).not.toContain('rate_up');
    expect(textOf(rated)).toContain('👍');
    expect(textOf(rated)).toContain('password portal');
    expect(buttonsOf(rated).some((candidate) => candidate.actionId.startsWith('suggestion:'))).toBe(true);
  });

  it('👎 sends status 2', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I connect to the VPN?');
    const feedbacksBefore = harness.feedbacks().length;
    await harness.click(clickButton(answer, button(answer, 'rate_down'), { threadTs }));
    const rated = await harness.slack.waitForCall('chat.update', (call) =>
      textOf(call).includes('rated this answer'),
    );
    expect(textOf(rated)).toContain('👎 not helpful');
    expect(harness.feedbacks().slice(feedbacksBefore)).toEqual([
      expect.objectContaining({ status: 2, docId: 'doc-vpn-connect', uid: uidOf(IDS.user) }),
    ]);
  });

  it('by someone else: they are told why, privately, and nothing is sent', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const feedbacksBefore = harness.feedbacks().length;
    const updatesBefore = harness.slack.calls('chat.update').length;
    await harness.click(clickButton(answer, button(answer, 'rate_up'), { user: 'U_OTHER', threadTs }));
    const notice = await ephemeralFor('U_OTHER');
    expect(textOf(notice)).toContain('Only the person who asked');
    // The control: the answer kept its rating buttons, and the person who asked can still rate with them.
    await harness.click(clickButton(answer, button(answer, 'rate_up'), { threadTs }));
    await harness.slack.waitForCall('chat.update', (call) => textOf(call).includes('rated this answer'));
    expect(harness.feedbacks().slice(feedbacksBefore)).toEqual([
      expect.objectContaining({ status: 1, uid: uidOf(IDS.user) }),
    ]);
    expect(harness.slack.calls('chat.update').slice(updatesBefore)).toHaveLength(1);
  });

  it('a second click sends nothing twice', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const feedbacksBefore = harness.feedbacks().length;
    const click = clickButton(answer, button(answer, 'rate_up'), { threadTs });
    await Promise.all([harness.click(click), harness.click(click)]);
    await harness.click(clickButton(answer, button(answer, 'rate_down'), { threadTs }));
    // Every click decided: one rated the answer, the other two were told it already was.
    await harness.slack.waitForCall('chat.update', (call) => textOf(call).includes('rated this answer'));
    await waitFor(() => harness.slack.calls('chat.postEphemeral').length >= 2, { timeoutMs: 5_000 });
    expect(harness.feedbacks().length - feedbacksBefore).toBe(1);
    const notices = harness.slack.calls('chat.postEphemeral').map(textOf);
    expect(notices).toHaveLength(2);
    expect(notices.every((text) => text.includes('already been rated'))).toBe(true);
  });

  it('when the answer’s context is gone, the user is told plainly', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const rateUp = button(answer, 'rate_up');
    // A well-formed value whose context key this gateway never stored (as after a restart without Redis).
    const stale = { ...rateUp, value: rateUp.value.replace(/"k":"[^"]+"/, '"k":"AAAAAAAAAAAA"') };
    const feedbacksBefore = harness.feedbacks().length;
    await harness.click(clickButton(answer, stale, { threadTs }));
    expect(textOf(await ephemeralFor(IDS.user))).toMatch(/too old|ask again/i);
    expect(harness.feedbacks().length).toBe(feedbacksBefore);
  });

  it('when the platform refuses the rating, the user is told and may rate again', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    harness.simulator.faults.set({ kind: 'code', code: '1001', actions: ['robot_feedback'], times: 1 });
    await harness.click(clickButton(answer, button(answer, 'rate_up'), { threadTs }));
    expect(textOf(await ephemeralFor(IDS.user))).toContain('Your rating was not recorded');
    expect(harness.logs.some((line) => line.level === 40 && line.action === 'robot_feedback')).toBe(true);

    harness.slack.reset();
    await harness.click(clickButton(answer, button(answer, 'rate_up'), { threadTs }));
    await harness.slack.waitForCall('chat.update', (call) => textOf(call).includes('rated this answer'));
  });
});
