// Regression: an answer ending in half an emoji (`<p>Call us \uD83D</p>`) made the Slack SDK throw
// "URI malformed" while encoding chat.update, retry that for five minutes, and hold the asker's next
// question behind it. Strings now leave well formed, a failure that cannot succeed is not retried,
// and no question holds its asker's queue past QUESTION_DEADLINE_SECONDS.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_API_PATH } from '../../../src/platform/schemas.js';
import { DEFAULT_SIMULATOR_TOKEN } from '../../../src/simulator/index.js';
import {
  askByMention,
  type GatewayHarness,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import { directMessage } from '../../support/slack-payloads.js';
import { sleep, waitFor } from '../../support/wait.js';

const LONE_HIGH_SURROGATE = '\uD83D';
/** Far past the 1 s deadline, so the bounds below hold on a busy machine and still fail without it. */
const ROBOT_DELAY_MS = 5_000;
const SLACK_DELAY_MS = 6_000;

/** Sets an entry's answer straight on the simulator: the typed client would repair the string first. */
async function setAnswerRaw(harness: GatewayHarness, docId: string, answerDesc: string): Promise<void> {
  const response = await fetch(`${harness.simulator.url}${OPEN_API_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'update_robot_doc',
      access_token: DEFAULT_SIMULATOR_TOKEN,
      data: { sysNum: 'acme', docId, answerDesc },
    }),
  });
  expect(response.status).toBe(200);
}

describe('a lone surrogate in an answer', () => {
  let harness: GatewayHarness;
  beforeAll(async () => {
    // The Web API client retries as in production: a retried encoding error would stall the test.
    harness = await startGatewayHarness({ env: { SLACK_WEB_API_RETRIES: '4' } });
  });
  afterAll(async () => {
    await harness.close();
  });

  it('is shown at once as a replacement character, and the same user is answered next', async () => {
    await setAnswerRaw(harness, 'doc-password-reset', `<p>Call us ${LONE_HIGH_SURROGATE}</p>`);
    const started = Date.now();
    const { answer } = await askByMention(harness, 'How do I reset my password?');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(textOf(answer)).toContain('Call us \uFFFD');
    expect(JSON.stringify(answer.body).isWellFormed()).toBe(true);

    const next = await askByMention(harness, 'How do I connect to the VPN?');
    expect(textOf(next.answer)).toMatch(/VPN/);
  });

  it("is made well formed in a question before it reaches the robot, as in a user's name", async () => {
    harness.slack.setUser('U_SURROGATE', { displayName: `Ann ${LONE_HIGH_SURROGATE}`, locale: 'en-US' });
    await harness.sendEvent(
      directMessage({ text: `Wi-Fi password ${LONE_HIGH_SURROGATE}?`, user: 'U_SURROGATE' }),
    );
    const ask = await waitFor(() =>
      harness.robotAsks().find((data) => data.partnerId?.toString().endsWith('U_SURROGATE')),
    );
    expect(String(ask.question).isWellFormed()).toBe(true);
    expect(String(ask.uname)).toBe('Ann \uFFFD');
  });
});

describe('a question stuck on Slack or the robot', () => {
  let harness: GatewayHarness;
  beforeAll(async () => {
    harness = await startGatewayHarness({
      env: { QUESTION_DEADLINE_SECONDS: '1', CS_HEADERS_TIMEOUT_MS: '10000', CS_BODY_TIMEOUT_MS: '10000' },
    });
  });
  afterAll(async () => {
    await harness.close();
  });
  afterEach(() => {
    harness.simulator.faults.clear();
  });

  it('that waits on the robot past the deadline ends with Try again, and its late answer is dropped', async () => {
    harness.simulator.faults.set({
      kind: 'delay',
      ms: ROBOT_DELAY_MS,
      actions: ['chat_user_robot_ask'],
      times: 1,
    });
    const started = Date.now();
    const first = askByMention(harness, 'How do I reset my password?');
    // The first question is the one the robot holds: sent at once, the second could reach the gateway
    // first on a busy machine and take the one slow answer.
    await waitFor(() => harness.robotAsks().some((ask) => ask.question === 'How do I reset my password?'), {
      message: 'the first question asked',
    });
    // The same user's next question, while the first one waits on the robot.
    const second = askByMention(harness, 'How do I connect to the VPN?');

    const tooSlow = await first;
    expect(textOf(tooSlow.answer)).toMatch(/took too long/);
    expect(JSON.stringify(tooSlow.answer.body.blocks)).toContain('try_again');
    expect(textOf((await second).answer)).toMatch(/VPN/);
    // The deadline (1 s) plus the second answer, well short of the robot's delay.
    expect(Date.now() - started).toBeLessThan(ROBOT_DELAY_MS - 1_000);

    await sleep(ROBOT_DELAY_MS + 500 - (Date.now() - started));
    const firstThread = harness.slack
      .calls()
      .filter((call) => call.body.ts === tooSlow.placeholderTs || call.body.thread_ts === tooSlow.threadTs);
    expect(firstThread.map(textOf).some((text) => /password portal/i.test(text))).toBe(false);
  });

  it("that waits on Slack holds its asker's queue no longer than the deadline", async () => {
    // The first question's placeholder post hangs, as a stuck Web API call would.
    harness.slack.delayNext('chat.postMessage', SLACK_DELAY_MS);
    const started = Date.now();
    await harness.sendEvent(directMessage({ text: 'How do I reset my password?' }));
    const next = directMessage({ text: 'How do I connect to the VPN?' });
    await harness.sendEvent(next);
    // This asker's answer, in their DM (an earlier test's VPN answer in a channel is no match).
    const answer = await harness.slack.waitForCall(
      'chat.update',
      (call) => call.body.channel === next.channel && /VPN/.test(textOf(call)),
      5_000,
    );
    expect(textOf(answer)).toContain('GlobalProtect');
    expect(Date.now() - started).toBeLessThan(SLACK_DELAY_MS - 1_500);
  });
});
