import { describe, expect, it } from 'vitest';
import type { Fault } from '../../../src/simulator/index.js';
import { slackEventCount } from '../../support/event-verdicts.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  isRecord,
  SIGNING_SECRET,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { appMention, channelMessage, eventCallback, IDS } from '../../support/slack-payloads.js';
import {
  JSON_CONTENT_TYPE,
  nowSeconds,
  postToSlackApp,
  retryHeaders,
  signSlackRequest,
} from '../../support/slack-signing.js';
import { sleep, waitFor } from '../../support/wait.js';

const QUESTION = 'How do I reset my password?';
/** Text of the simulator's answer to QUESTION. */
const ANSWER_TEXT = 'password portal';

function tsOf(post: RecordedCall): string {
  const ts = isRecord(post.response) ? post.response.ts : undefined;
  if (typeof ts !== 'string') throw new Error(`no ts in ${JSON.stringify(post.response)}`);
  return ts;
}

describe('requests that are not from Slack', () => {
  const harness = useGatewayHarness();

  const body = () => JSON.stringify(eventCallback(appMention({ text: `<@${IDS.botUser}> ${QUESTION}` })));

  it.each([
    ['a forged signature', { signature: `v0=${'0'.repeat(64)}` }],
    ['a signature made with another secret', { signature: signatureWith('not-the-secret') }],
    ['a stale timestamp (10 minutes old)', { timestamp: nowSeconds() - 600 }],
    ['a far-future timestamp (10 minutes ahead)', { timestamp: nowSeconds() + 600 }],
  ])('refuses %s with 401 and never asks the robot', async (_name, overrides) => {
    const asksBefore = harness().robotAsks().length;
    const response = await postToSlackApp(harness().url, {
      body: body(),
      contentType: JSON_CONTENT_TYPE,
      secret: SIGNING_SECRET,
      ...overrides,
    });
    expect(response.status).toBe(401);
    // The control: a signed question, answered; the refused one asked nothing before or beside it.
    const { threadTs } = await askByMention(harness(), 'How do I connect to the VPN?');
    expect(
      harness()
        .robotAsks()
        .slice(asksBefore)
        .map((ask) => ask.question),
    ).toEqual(['How do I connect to the VPN?']);
    const posts = harness().slack.calls('chat.postMessage');
    expect(posts.map((call) => call.body.thread_ts)).toEqual([threadTs]);
  });

  function signatureWith(secret: string): string {
    return signSlackRequest(secret, body())['x-slack-signature'];
  }
});

describe('one message delivered more than once', () => {
  const harness = useGatewayHarness();

  /** Waits for the gateway to log the second delivery of the message at `ts` as a duplicate. */
  async function duplicateOf(ts: string): Promise<void> {
    await waitFor(
      () => harness().logs.some((line) => line.msg === 'duplicate delivery ignored' && line.ts === ts),
      { timeoutMs: 10_000, message: `no duplicate logged for ${ts}` },
    );
  }

  /**
   * Waits for the gateway's verdict on the one of two deliveries of the message at `ts` that it must
   * not answer: one more message event counted as ignored, or the delivery logged as a duplicate.
   */
  async function leftOrDuplicate(ts: string, ignoredBefore: number): Promise<void> {
    await waitFor(
      async () =>
        harness().logs.some((line) => line.msg === 'duplicate delivery ignored' && line.ts === ts) ||
        (await slackEventCount(harness().url, 'message', 'ignored')) > ignoredBefore,
      { timeoutMs: 10_000, message: `neither delivery of ${ts} was left alone` },
    );
  }

  /**
   * Robot asks and visible replies (posts and updates) in the thread of `threadTs`, once the answer is
   * shown and `secondDelivery` (the gateway's verdict on the other delivery) has been seen.
   */
  async function repliesIn(threadTs: string, asksBefore: number, secondDelivery: () => Promise<void>) {
    await harness().slack.waitForCall('chat.update', (call) => textOf(call).includes(ANSWER_TEXT), 5_000);
    await secondDelivery();
    const posts = harness()
      .slack.calls('chat.postMessage')
      .filter((call) => call.body.thread_ts === threadTs);
    const answers = harness()
      .slack.calls('chat.update')
      .filter((call) => textOf(call).includes(ANSWER_TEXT));
    return { asks: harness().robotAsks().slice(asksBefore), posts, answers };
  }

  it('answers a Slack retry (X-Slack-Retry-Num: 1, http_timeout) of the same event once', async () => {
    const asksBefore = harness().robotAsks().length;
    const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
    const eventId = 'Ev0RETRY00001';
    expect((await harness().sendEvent(event, undefined, eventId)).status).toBe(200);
    // Slack retries when the first ack was late; the first delivery is still being answered.
    expect((await harness().sendEvent(event, retryHeaders(1, 'http_timeout'), eventId)).status).toBe(200);

    // The retry waits in its asker's turn behind the first delivery's whole answer: waited for, not
    // assumed done within a fixed pause.
    await waitFor(
      () =>
        harness().logs.some(
          (line) => line.msg === 'duplicate delivery ignored' && line.retryNum === 1 && line.ts === event.ts,
        ),
      { timeoutMs: 10_000, message: 'the retry found a duplicate' },
    );
    const { asks, posts, answers } = await repliesIn(event.ts, asksBefore, async () => undefined);
    expect(asks).toHaveLength(1);
    expect(posts).toHaveLength(1);
    expect(answers).toHaveLength(1);
  });

  it('answers one message delivered under two different event ids once', async () => {
    const asksBefore = harness().robotAsks().length;
    const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
    expect((await harness().sendEvent(event, undefined, 'Ev0DUP0000001')).status).toBe(200);
    expect((await harness().sendEvent(event, undefined, 'Ev0DUP0000002')).status).toBe(200);

    const { asks, posts, answers } = await repliesIn(event.ts, asksBefore, () => duplicateOf(event.ts));
    expect(asks).toHaveLength(1);
    expect(posts).toHaveLength(1);
    expect(answers).toHaveLength(1);
  });

  it('answers a mention once when it also arrives as message.channels (top level)', async () => {
    const asksBefore = harness().robotAsks().length;
    const mention = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
    const message = channelMessage({ text: mention.text, ts: mention.ts });
    const ignored = await slackEventCount(harness().url, 'message', 'ignored');
    expect((await harness().sendEvent(message)).status).toBe(200);
    expect((await harness().sendEvent(mention)).status).toBe(200);

    const { asks, posts, answers } = await repliesIn(mention.ts, asksBefore, () =>
      leftOrDuplicate(mention.ts, ignored),
    );
    expect(asks).toHaveLength(1);
    expect(posts).toHaveLength(1);
    expect(answers).toHaveLength(1);
  });

  it('answers a mention once when it also arrives as message.channels in a thread the app answers', async () => {
    const { threadTs } = await askByMention(harness(), 'How do I connect to the VPN?');
    harness().slack.reset();
    const asksBefore = harness().robotAsks().length;
    const mention = appMention({ text: `<@${IDS.botUser}> ${QUESTION}`, thread_ts: threadTs });
    const message = channelMessage({ text: mention.text, ts: mention.ts, thread_ts: threadTs });
    const ignored = await slackEventCount(harness().url, 'message', 'ignored');
    // Both orders of arrival happen in practice; the message event comes first here.
    expect((await harness().sendEvent(message)).status).toBe(200);
    expect((await harness().sendEvent(mention)).status).toBe(200);

    const { asks, posts, answers } = await repliesIn(threadTs, asksBefore, () =>
      leftOrDuplicate(mention.ts, ignored),
    );
    expect(asks.map((ask) => ask.question)).toEqual([QUESTION]);
    expect(posts).toHaveLength(1);
    expect(answers).toHaveLength(1);
  });
});

describe('a robot that fails', () => {
  const harness = useGatewayHarness();

  const cases: Array<{ name: string; fault: Fault; code: string; says: string; extra?: object }> = [
    {
      name: 'HTTP 500',
      fault: { kind: 'http500' },
      code: 'PLATFORM_HTTP_STATUS',
      says: 'unavailable',
      extra: { httpStatus: 500 },
    },
    {
      name: 'code 1001',
      fault: { kind: 'code', code: '1001' },
      code: 'PLATFORM_CODE',
      says: 'refused',
      extra: { platformCode: '1001' },
    },
    {
      name: 'malformed JSON',
      fault: { kind: 'malformed' },
      code: 'PLATFORM_MALFORMED_RESPONSE',
      says: "couldn't read",
    },
    {
      name: 'a dropped connection',
      fault: { kind: 'drop' },
      code: 'PLATFORM_TRANSPORT',
      says: 'unavailable',
    },
    {
      name: 'a delay past CS_HEADERS_TIMEOUT_MS',
      fault: { kind: 'delay', ms: 2_500 },
      code: 'PLATFORM_TRANSPORT',
      says: 'too long',
      extra: { transportFailure: 'timeout' },
    },
  ];

  it.each(cases)(
    '$name: the placeholder becomes a failure with Try again, the failure is logged, and Try again answers',
    async ({ fault, code, says, extra }) => {
      const h = harness();
      const logsBefore = h.logs.length;
      const asksBefore = h.robotAsks().length;
      h.simulator.faults.set({ ...fault, actions: ['chat_user_robot_ask'], times: 1 });

      const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
      expect((await h.sendEvent(event)).status).toBe(200);
      const placeholder = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => call.body.thread_ts === event.ts,
        5_000,
      );
      const placeholderTs = tsOf(placeholder);
      const failure = await h.slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === placeholderTs && hasTryAgain(call),
        5_000,
      );
      expect(textOf(failure)).toContain(says);
      expect(h.robotAsks().slice(asksBefore)).toHaveLength(1);

      const logged = h.logs
        .slice(logsBefore)
        .filter((line) => line.level === 40 && line.action === 'chat_user_robot_ask');
      expect(logged.length).toBeGreaterThan(0);
      expect(logged[0]).toMatchObject({ code, ...extra });

      // Try again asks the same question once more and the answer replaces the failure message.
      const tryAgain = buttonsOf(failure).find((button) => button.actionId === 'try_again');
      if (!tryAgain) throw new Error('no try_again button');
      const clicked = await h.click(clickButton(failure, tryAgain, { threadTs: event.ts }));
      expect(clicked.status).toBe(200);
      const answer = await h.slack.waitForCall(
        'chat.update',
        (call) => call.body.ts === placeholderTs && textOf(call).includes(ANSWER_TEXT),
        5_000,
      );
      expect(hasTryAgain(answer)).toBe(false);
      expect(
        h
          .robotAsks()
          .slice(asksBefore)
          .map((ask) => ask.question),
      ).toEqual([QUESTION, QUESTION]);
      // No second message: the failure turned into the answer in place.
      expect(
        h.slack.calls('chat.postMessage').filter((call) => call.body.thread_ts === event.ts),
      ).toHaveLength(1);

      // The process is still up and the next question is answered normally.
      const next = await askByMention(h, 'How do I connect to the VPN?');
      expect(textOf(next.answer).toLowerCase()).toContain('vpn');
    },
  );

  function hasTryAgain(call: RecordedCall): boolean {
    return buttonsOf(call).some((button) => button.actionId === 'try_again');
  }
});

describe('a Slack Web API that fails', () => {
  const harness = useGatewayHarness();

  it('logs channel_not_found from chat.postMessage, does not crash, and answers the next question', async () => {
    const h = harness();
    const logsBefore = h.logs.length;
    h.slack.failNext('chat.postMessage', { error: 'channel_not_found' }, 2);
    const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
    expect((await h.sendEvent(event)).status).toBe(200);
    // The placeholder and then the answer itself are refused.
    await waitForLog(h, logsBefore, (line) => line.slackError === 'channel_not_found', 2);
    const failed = h.logs
      .slice(logsBefore)
      .filter((line) => line.level >= 50 && line.slackError === 'channel_not_found');
    expect(failed.every((line) => line.method === 'chat.postMessage' && line.channel === IDS.channel)).toBe(
      true,
    );

    const next = await askByMention(h, QUESTION);
    expect(textOf(next.answer)).toContain(ANSWER_TEXT);
  });

  it('waits out a 429 (Retry-After 1) from chat.postMessage: nothing fails, and the question is answered', async () => {
    const h = harness();
    const logsBefore = h.logs.length;
    h.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
    expect((await h.sendEvent(event)).status).toBe(200);
    const inThread = (call: RecordedCall) => call.body.thread_ts === event.ts;
    const refused = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => inThread(call) && call.status === 429,
    );
    // The placeholder goes again after Retry-After, and the answer replaces it.
    const placeholder = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => inThread(call) && call.status === 200,
      5_000,
    );
    expect(placeholder.at - refused.at).toBeGreaterThanOrEqual(950);
    const placeholderTs = placeholder.response?.ts;
    const answer = await h.slack.waitForCall('chat.update', (call) => call.body.ts === placeholderTs, 5_000);
    expect(textOf(answer)).toContain(ANSWER_TEXT);
    expect(h.slack.calls('chat.postMessage').filter(inThread)).toHaveLength(2);
    expect(h.logs.slice(logsBefore).filter((line) => line.level >= 50)).toEqual([]);

    const next = await askByMention(h, QUESTION);
    expect(textOf(next.answer)).toContain(ANSWER_TEXT);
  });

  async function waitForLog(
    h: GatewayHarness,
    from: number,
    match: (line: GatewayHarness['logs'][number]) => boolean,
    count: number,
  ) {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = h.logs.slice(from).filter((line) => line.level >= 50 && match(line));
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`expected ${count} matching error logs`);
      await sleep(20);
    }
  }
});

describe('health routes', () => {
  const harness = useGatewayHarness();

  it('answers /healthz with 200 JSON and /readyz with 200', async () => {
    const healthz = await fetch(`${harness().url}/healthz`);
    expect(healthz.status).toBe(200);
    expect(healthz.headers.get('content-type')).toContain('application/json');
    expect(await healthz.json()).toEqual({ status: 'ok' });
    const readyz = await fetch(`${harness().url}/readyz`);
    expect(readyz.status).toBe(200);
    expect(await readyz.json()).toEqual({ status: 'ready' });
  });

  it('answers an unknown path with 404 and GET /slack/events with 405', async () => {
    const unknown = await fetch(`${harness().url}/nope`);
    expect(unknown.status).toBe(404);
    await unknown.arrayBuffer();
    const get = await fetch(`${harness().url}/slack/events`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    await get.arrayBuffer();
  });
});

describe('a slow robot', () => {
  const harness = useGatewayHarness({ env: { CS_HEADERS_TIMEOUT_MS: '5000' } });

  it('does not delay the acknowledgement; the answer arrives later', async () => {
    const h = harness();
    h.simulator.faults.set({ kind: 'delay', ms: 2_000, actions: ['chat_user_robot_ask'], times: 1 });
    const event = appMention({ text: `<@${IDS.botUser}> ${QUESTION}` });
    const started = Date.now();
    const response = await h.sendEvent(event);
    const ackMs = Date.now() - started;
    expect(response.status).toBe(200);
    // Slack gives up after 3 s and retries; the ack must not wait for the robot.
    expect(ackMs).toBeLessThan(1_000);

    const answer = await h.slack.waitForCall(
      'chat.update',
      (call) => textOf(call).includes(ANSWER_TEXT),
      6_000,
    );
    expect(answer.at - started).toBeGreaterThanOrEqual(1_900);
  });
});
