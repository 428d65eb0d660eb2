// The "Thinking…" placeholder with its production default: shown only when the robot is slow, so a
// fast answer arrives as one message (and its notification carries the answer, not the placeholder).
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  buttonsOf,
  clickButton,
  isRecord,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { appMention, directMessage, IDS } from '../../support/slack-payloads.js';
import { sleep } from '../../support/wait.js';

const DELAY_MS = 700;
const THINKING = 'Thinking…';

const useHarness = useGatewayHarness({
  env: { PLACEHOLDER_DELAY_MS: String(DELAY_MS), CS_HEADERS_TIMEOUT_MS: '3000', CS_BODY_TIMEOUT_MS: '3000' },
});

function inThread(threadTs: string) {
  return (call: RecordedCall) => call.body.thread_ts === threadTs;
}

function tsOf(call: RecordedCall): string {
  const ts = isRecord(call.response) ? call.response.ts : undefined;
  if (typeof ts !== 'string') throw new Error('no ts recorded');
  return ts;
}

describe('a robot that answers quickly', () => {
  it('posts the answer as one message, with no placeholder and no edit', async () => {
    const harness = useHarness();
    const event = appMention({ text: `<@${IDS.botUser}> How do I reset my password?` });
    expect((await harness.sendEvent(event)).status).toBe(200);
    const answer = await harness.slack.waitForCall('chat.postMessage', inThread(event.ts), 5_000);
    expect(textOf(answer)).toContain('password portal');
    // The notification text is the answer itself.
    expect(String(answer.body.text)).toContain('password portal');
    await sleep(DELAY_MS + 200);
    expect(harness.slack.calls('chat.postMessage').filter(inThread(event.ts))).toHaveLength(1);
    expect(harness.slack.calls('chat.update')).toHaveLength(0);
    expect(harness.slack.calls().some((call) => textOf(call).includes(THINKING))).toBe(false);
  });

  it('answers a direct message in one message too', async () => {
    const harness = useHarness();
    const event = directMessage({ text: 'my vpn is not working' });
    expect((await harness.sendEvent(event)).status).toBe(200);
    const answer = await harness.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === event.channel,
    );
    expect(textOf(answer).toLowerCase()).toContain('vpn');
    await sleep(DELAY_MS + 200);
    expect(harness.slack.calls('chat.postMessage')).toHaveLength(1);
    expect(harness.slack.calls('chat.update')).toHaveLength(0);
  });
});

describe('a robot that takes its time', () => {
  it('shows the placeholder after the delay, then the answer replaces it', async () => {
    const harness = useHarness();
    harness.simulator.faults.set({ kind: 'delay', ms: 1_800, actions: ['chat_user_robot_ask'], times: 1 });
    const event = appMention({ text: `<@${IDS.botUser}> How do I reset my password?` });
    const sentAt = Date.now();
    expect((await harness.sendEvent(event)).status).toBe(200);

    const placeholder = await harness.slack.waitForCall('chat.postMessage', inThread(event.ts), 5_000);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(DELAY_MS - 50);
    expect(textOf(placeholder)).toContain(THINKING);

    const answer = await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === tsOf(placeholder),
      5_000,
    );
    expect(textOf(answer)).toContain('password portal');
    expect(harness.slack.calls('chat.postMessage').filter(inThread(event.ts))).toHaveLength(1);
  });

  it('turns the placeholder into the failure when the robot gives up, and Try again replaces it at once', async () => {
    const harness = useHarness();
    harness.simulator.faults.set({ kind: 'delay', ms: 4_000, actions: ['chat_user_robot_ask'], times: 1 });
    const event = appMention({ text: `<@${IDS.botUser}> How do I reset my password?` });
    expect((await harness.sendEvent(event)).status).toBe(200);
    const placeholder = await harness.slack.waitForCall('chat.postMessage', inThread(event.ts), 5_000);
    const failure = await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === tsOf(placeholder) && textOf(call).includes('too long'),
      6_000,
    );

    // The click gets immediate feedback on its own message, whatever the delay.
    const tryAgain = buttonsOf(failure).find((button) => button.actionId === 'try_again');
    if (!tryAgain) throw new Error('no Try again button');
    harness.simulator.faults.set({ kind: 'delay', ms: 1_000, actions: ['chat_user_robot_ask'], times: 1 });
    const clickedAt = Date.now();
    expect((await harness.click(clickButton(failure, tryAgain, { threadTs: event.ts }))).status).toBe(200);
    const thinking = await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === tsOf(placeholder) && textOf(call).includes(THINKING),
      5_000,
    );
    expect(Date.now() - clickedAt).toBeLessThan(DELAY_MS);
    expect(thinking.body.ts).toBe(tsOf(placeholder));
    const answer = await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === tsOf(placeholder) && textOf(call).includes('password portal'),
      5_000,
    );
    expect(buttonsOf(answer).some((button) => button.actionId === 'try_again')).toBe(false);
    expect(harness.slack.calls('chat.postMessage').filter(inThread(event.ts))).toHaveLength(1);
  });
});

describe('a robot that fails at once', () => {
  it('posts the failure with Try again as the only message', async () => {
    const harness = useHarness();
    harness.simulator.faults.set({ kind: 'http500', actions: ['chat_user_robot_ask'], times: 1 });
    const event = appMention({ text: `<@${IDS.botUser}> How do I reset my password?` });
    expect((await harness.sendEvent(event)).status).toBe(200);
    const failure = await harness.slack.waitForCall('chat.postMessage', inThread(event.ts), 5_000);
    expect(buttonsOf(failure).map((button) => button.actionId)).toContain('try_again');
    await sleep(DELAY_MS + 200);
    expect(harness.slack.calls('chat.postMessage').filter(inThread(event.ts))).toHaveLength(1);
    expect(harness.slack.calls().some((call) => textOf(call).includes(THINKING))).toBe(false);
  });
});
