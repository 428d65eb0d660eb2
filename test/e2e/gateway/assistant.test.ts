// Slack's assistant panel, through the real gateway over signed HTTP: a thread opened is
// greeted with prompts, a question there shows Slack's status line (no placeholder), is answered in
// the thread and names it, and is asked with the robot of the channel the person is looking at, on
// any replica. The tests' gateways run with RATING_BUTTONS=classic: the panel rates natively anyway.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisChannelSettingsStore } from '../../../src/stores/channel-settings.js';
import { RedisConnection } from '../../../src/stores/redis-connection.js';
import { writeChannelSettings } from '../../../src/stores/sqlite.js';
import { slackEventCount, waitForEventCount } from '../../support/event-verdicts.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  buttonsOf,
  clickButton,
  clickFeedback,
  feedbackButtonsOf,
  type GatewayHarness,
  isRecord,
  textOf,
  useGatewayHarness,
  useRedisReplicas,
} from '../../support/gateway-harness.js';
import {
  type AssistantThreadEvent,
  type AssistantThreadFields,
  assistantThreadEvent,
  directMessage,
  eventCallback,
  IDS,
  nextTs,
} from '../../support/slack-payloads.js';
import { JSON_CONTENT_TYPE, signSlackRequest } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const WAIT_MS = 5_000;

/** Opens a panel thread as Slack does, and returns it. */
async function openPanel(
  h: GatewayHarness,
  fields: AssistantThreadFields = {},
): Promise<AssistantThreadEvent> {
  const started = assistantThreadEvent('assistant_thread_started', { threadTs: nextTs(), ...fields });
  const response = await h.sendEvent(started);
  expect(response.status).toBe(200);
  return started;
}

/** Types a question in a panel thread (a message.im in the DM's thread). */
async function askInPanel(h: GatewayHarness, thread: AssistantThreadEvent, text: string, user = IDS.user) {
  const { channel_id: channel, thread_ts: threadTs } = thread.assistant_thread;
  const response = await h.sendEvent(directMessage({ text, user, channel, thread_ts: threadTs }));
  expect(response.status).toBe(200);
}

/** The posts in a panel thread (greeting, answers), oldest first. */
function postsIn(h: GatewayHarness, thread: AssistantThreadEvent): RecordedCall[] {
  const { channel_id: channel, thread_ts: threadTs } = thread.assistant_thread;
  return h.slack
    .calls('chat.postMessage')
    .filter((call) => call.body.channel === channel && call.body.thread_ts === threadTs);
}

function waitForAnswerIn(
  h: GatewayHarness,
  thread: AssistantThreadEvent,
  text: string,
): Promise<RecordedCall> {
  const { channel_id: channel, thread_ts: threadTs } = thread.assistant_thread;
  return h.slack.waitForCall(
    'chat.postMessage',
    (call) =>
      call.body.channel === channel && call.body.thread_ts === threadTs && textOf(call).includes(text),
    WAIT_MS,
  );
}

function promptsOf(call: RecordedCall): Array<{ title: string; message: string }> {
  const prompts = call.body.prompts;
  return (Array.isArray(prompts) ? prompts.filter(isRecord) : []).map((prompt) => ({
    title: String(prompt.title ?? ''),
    message: String(prompt.message ?? ''),
  }));
}

describe('opening the panel', () => {
  const harness = useGatewayHarness();

  it('greets the person in their language and suggests at most four prompts, each with a title and a message', async () => {
    const h = harness();
    const thread = await openPanel(h, { contextChannel: IDS.channel });
    const prompts = await h.slack.waitForCall('assistant.threads.setSuggestedPrompts', undefined, WAIT_MS);
    expect(prompts.response).toEqual({ ok: true });
    expect(prompts.body).toMatchObject({
      channel_id: IDS.dm,
      thread_ts: thread.assistant_thread.thread_ts,
      title: 'Try asking:',
    });
    const suggested = promptsOf(prompts);
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.length).toBeLessThanOrEqual(4);
    for (const prompt of suggested) {
      expect(prompt.title.trim()).not.toBe('');
      expect(prompt.message.trim()).not.toBe('');
    }
    // The built-in prompts are questions the demo knowledge base answers.
    expect(suggested.map((prompt) => prompt.message)).toContain('How do I reset my password?');

    const greeting = await waitFor(() => postsIn(h, thread)[0], { timeoutMs: WAIT_MS });
    expect(textOf(greeting)).toContain('Hi Jane! Ask me your questions about work here');
    expect(h.robotAsks()).toEqual([]);
  });

  it('speaks Chinese to a person whose Slack is in Chinese', async () => {
    const h = harness();
    h.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
    const thread = await openPanel(h, { user: 'U_ZH' });
    const prompts = await h.slack.waitForCall('assistant.threads.setSuggestedPrompts', undefined, WAIT_MS);
    expect(prompts.body.title).toBe('试试问：');
    expect(promptsOf(prompts).map((prompt) => prompt.message)).toContain('忘记密码怎么办？');
    const greeting = await waitFor(() => postsIn(h, thread)[0], { timeoutMs: WAIT_MS });
    expect(textOf(greeting)).toContain('王小明，你好');
  });

  it('greets a thread once when Slack delivers its start twice', async () => {
    const h = harness();
    const thread = await openPanel(h);
    await h.slack.waitForCall('assistant.threads.setSuggestedPrompts', undefined, WAIT_MS);
    await waitFor(() => postsIn(h, thread).length > 0, { timeoutMs: WAIT_MS });
    const duplicates = await slackEventCount(h.url, 'assistant_thread_started', 'duplicate');
    expect((await h.sendEvent(thread, { 'X-Slack-Retry-Num': '1' })).status).toBe(200);
    // The gateway's own verdict on the retry, rather than a pause a second greeting might outlast.
    await waitForEventCount(h.url, 'assistant_thread_started', 'duplicate', duplicates + 1);
    expect(postsIn(h, thread)).toHaveLength(1);
    expect(h.slack.calls('assistant.threads.setSuggestedPrompts')).toHaveLength(1);
  });
});

describe('prompts configured', () => {
  const fromHome = useGatewayHarness({
    env: { HOME_EXAMPLE_QUESTIONS: 'Q one?|Q two?|Q three?|Q four?|Q five?' },
  });

  it('are the Home tab’s examples when ASSISTANT_PROMPTS is unset, four at most', async () => {
    const h = fromHome();
    await openPanel(h);
    const prompts = await h.slack.waitForCall('assistant.threads.setSuggestedPrompts', undefined, WAIT_MS);
    expect(prompts.response).toEqual({ ok: true });
    expect(promptsOf(prompts).map((prompt) => prompt.message)).toEqual([
      'Q one?',
      'Q two?',
      'Q three?',
      'Q four?',
    ]);
  });
});

describe('prompts of their own', () => {
  const own = useGatewayHarness({
    env: {
      HOME_EXAMPLE_QUESTIONS: 'Home question?',
      ASSISTANT_PROMPTS: 'Where is the office? | How do I connect to the VPN?',
    },
  });

  it('are ASSISTANT_PROMPTS when set, in every language', async () => {
    const h = own();
    await openPanel(h, { user: 'U_ZH' });
    const prompts = await h.slack.waitForCall('assistant.threads.setSuggestedPrompts', undefined, WAIT_MS);
    expect(promptsOf(prompts)).toEqual([
      { title: 'Where is the office?', message: 'Where is the office?' },
      { title: 'How do I connect to the VPN?', message: 'How do I connect to the VPN?' },
    ]);
  });
});

describe('asking in the panel', () => {
  // The robot is held 1.5 s so the status is seen; the test default's 1.5 s platform timeout would race
  // it (a busy machine answered "took too long" one CI run in several).
  const harness = useGatewayHarness({ env: { CS_HEADERS_TIMEOUT_MS: '6000', CS_BODY_TIMEOUT_MS: '6000' } });

  it('shows the status while the robot works, then answers in the thread with no placeholder, and titles the thread', async () => {
    const h = harness();
    const thread = await openPanel(h);
    await waitFor(() => postsIn(h, thread).length > 0, { timeoutMs: WAIT_MS });
    // A robot slow enough that the status is seen while it works.
    h.simulator.faults.set({ kind: 'delay', ms: 1_500, actions: ['chat_user_robot_ask'], times: 1 });
    await askInPanel(h, thread, 'How do I reset my password?');

    const status = await h.slack.waitForCall('assistant.threads.setStatus', undefined, WAIT_MS);
    expect(status.response).toEqual({ ok: true });
    expect(status.body).toMatchObject({
      channel_id: IDS.dm,
      thread_ts: thread.assistant_thread.thread_ts,
      status: 'is looking this up…',
    });
    expect(Array.isArray(status.body.loading_messages) && status.body.loading_messages.length).toBe(3);
    // Nothing answered yet: the greeting is the thread's only post.
    expect(postsIn(h, thread)).toHaveLength(1);

    const answer = await waitForAnswerIn(h, thread, 'password portal');
    const calls = h.slack.calls();
    expect(calls.indexOf(status)).toBeLessThan(calls.indexOf(answer));
    expect(h.robotAsks().map((ask) => ask.question)).toEqual(['How do I reset my password?']);
    // No "Thinking…" message, and nothing replaced: the answer is the thread's one new post.
    expect(h.slack.calls('chat.update')).toEqual([]);
    expect(postsIn(h, thread)).toHaveLength(2);
    expect(calls.some((call) => textOf(call).includes('Thinking…'))).toBe(false);

    const title = await h.slack.waitForCall('assistant.threads.setTitle', undefined, WAIT_MS);
    expect(title.body).toMatchObject({
      channel_id: IDS.dm,
      thread_ts: thread.assistant_thread.thread_ts,
      title: 'How do I reset my password?',
    });
    expect(title.response).toEqual({ ok: true });

    // Rated with Slack's own element, though this gateway's RATING_BUTTONS is classic.
    expect(feedbackButtonsOf(answer)).toBeDefined();
    expect(buttonsOf(answer).map((button) => button.actionId)).not.toContain('rate_up');
    // Suggestions are buttons, as everywhere.
    expect(buttonsOf(answer).some((button) => button.actionId.startsWith('suggestion:'))).toBe(true);
  });

  it('asks the robot without waiting for the status', async () => {
    const h = harness();
    const thread = await openPanel(h);
    // Slack slow to take the status: the question must not wait for it.
    h.slack.delayNext('assistant.threads.setStatus', 1_500);
    await askInPanel(h, thread, 'How do I connect to the VPN?');
    const asked = await waitFor(() => h.simulator.received.find((request) => isAsk(request.body)), {
      timeoutMs: WAIT_MS,
    });
    const status = await h.slack.waitForCall('assistant.threads.setStatus', undefined, WAIT_MS);
    expect(asked.at).toBeLessThan(status.at);
    // The answer waits for the status instead, so the status cannot outlive it.
    const answer = await waitForAnswerIn(h, thread, 'VPN');
    const calls = h.slack.calls();
    expect(calls.indexOf(status)).toBeLessThan(calls.indexOf(answer));
  });

  it('titles a thread after its first question only', async () => {
    const h = harness();
    const thread = await openPanel(h);
    await askInPanel(h, thread, 'How do I reset my password?');
    await waitForAnswerIn(h, thread, 'password portal');
    await askInPanel(h, thread, 'How do I connect to the VPN?');
    await waitForAnswerIn(h, thread, 'VPN');
    await h.slack.waitForCall('assistant.threads.setTitle', undefined, WAIT_MS);
    expect(h.slack.calls('assistant.threads.setTitle').map((call) => call.body.title)).toEqual([
      'How do I reset my password?',
    ]);
    expect(h.slack.calls('assistant.threads.setStatus')).toHaveLength(2);
  });

  it('tells a failure in the thread with Try again, as elsewhere, and Try again answers there', async () => {
    const h = harness();
    const thread = await openPanel(h);
    h.simulator.faults.set({ kind: 'http500', actions: ['chat_user_robot_ask'], times: 1 });
    await askInPanel(h, thread, 'How do I reset my password?');
    const failure = await waitForAnswerIn(h, thread, 'unavailable');
    const tryAgain = buttonsOf(failure).find((button) => button.actionId === 'try_again');
    expect(tryAgain).toBeDefined();
    if (!tryAgain) return;

    const click = clickButton(failure, tryAgain, {
      ts: String(failure.response?.ts ?? ''),
      threadTs: thread.assistant_thread.thread_ts,
    });
    expect((await h.click(click)).status).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === failure.response?.ts && textOf(call).includes('password portal'),
      WAIT_MS,
    );
    expect(feedbackButtonsOf(answer)).toBeDefined();
    // The retry posts nothing new, which would have cleared its status: it is cleared outright.
    const statuses = h.slack.calls('assistant.threads.setStatus');
    expect(statuses.map((call) => call.body.status)).toEqual([
      'is looking this up…',
      'is looking this up…',
      '',
    ]);
    const calls = h.slack.calls();
    expect(calls.indexOf(statuses[2] ?? answer)).toBeLessThan(calls.indexOf(answer));
  });

  it('rates an answer with its feedback buttons: 👍 sends robot_feedback status 1 and says so in place', async () => {
    const h = harness();
    const thread = await openPanel(h);
    await askInPanel(h, thread, 'How do I reset my password?');
    const answer = await waitForAnswerIn(h, thread, 'password portal');
    const before = h.feedbacks().length;
    const response = await h.click(
      clickFeedback(answer, 'positive', { threadTs: thread.assistant_thread.thread_ts }),
    );
    expect(response.status).toBe(200);
    const rated = await h.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === answer.response?.ts && textOf(call).includes('rated this answer'),
      WAIT_MS,
    );
    expect(feedbackButtonsOf(rated)).toBeUndefined();
    expect(h.feedbacks().slice(before)).toEqual([
      expect.objectContaining({ status: 1, docId: 'doc-password-reset' }),
    ]);
  });
});

function isAsk(body: unknown): boolean {
  return isRecord(body) && body.action === 'chat_user_robot_ask';
}

describe('the channel beside the panel, on two replicas', () => {
  const fleet = useRedisReplicas('assistant', {
    users: { [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' } },
    // Both replicas find the channel's settings at start.
    beforeStart: async ({ url, keyPrefix }) => {
      const redis = await RedisConnection.connect({ server: { kind: 'url', url }, keyPrefix });
      try {
        await new RedisChannelSettingsStore(redis).put('C0ROBOT2', {
          settings: { robot: 2 },
          changedBy: 'U0OPERATOR',
          changedAt: Date.now(),
        });
      } finally {
        await redis.close();
      }
    },
  });

  it('asks with the robot of the channel the person moved to, whichever replica gets the question', async () => {
    const {
      replicas: [a, b],
    } = fleet();
    // Opened beside a channel without settings, then moved to the one with robot 2.
    const thread = await openPanel(a, { contextChannel: 'C0PLAIN' });
    await waitFor(() => postsIn(a, thread).length > 0, { timeoutMs: WAIT_MS });
    const before = a.robotAsks().length;
    await askInPanel(a, thread, 'How do I reset my password?');
    await waitForAnswerIn(a, thread, 'password portal');
    expect(a.robotAsks()[before]?.robotFlag).not.toBe(2);

    const moved = assistantThreadEvent('assistant_thread_context_changed', {
      threadTs: thread.assistant_thread.thread_ts,
      contextChannel: 'C0ROBOT2',
    });
    expect((await a.sendEvent(moved)).status).toBe(200);
    // Slack acknowledges before the change is kept; the person's next message comes after it.
    await contextKept(a, 'C0ROBOT2');
    await askUntilRobot(a, thread, 'How do I connect to the VPN?');
    await askUntilRobot(b, thread, 'How do I request annual leave?');
  }, 30_000);
});

/** Waits until the replica has kept the channel beside the thread (it says so in its log). */
async function contextKept(replica: GatewayHarness, channelId: string): Promise<void> {
  await waitFor(
    () =>
      replica.logs.some(
        (log) => log.msg === 'assistant thread beside a channel' && log.channelId === channelId,
      ),
    { timeoutMs: WAIT_MS },
  );
}

/** Asks in the thread on one replica and checks the robot it was asked with was 2. */
async function askUntilRobot(replica: GatewayHarness, thread: AssistantThreadEvent, question: string) {
  await askInPanel(replica, thread, question);
  const ask = await waitFor(() => replica.robotAsks().find((candidate) => candidate.question === question), {
    timeoutMs: WAIT_MS,
  });
  expect(ask.robotFlag).toBe(2);
}

describe('the assistant events unsigned', () => {
  const statePath = join(mkdtempSync(join(tmpdir(), 'assistant-')), 'state.sqlite');
  beforeAll(async () => {
    await writeChannelSettings(statePath, { C0ROBOT2: { robot: 2 } }, 'U0OPERATOR');
  });
  afterAll(() => {
    rmSync(dirname(statePath), { recursive: true, force: true });
  });
  const harness = useGatewayHarness({ env: { STATE_PATH: statePath } });

  /** Posts the event unsigned, then with a signature of the wrong secret: both must be refused. */
  async function sendForged(h: GatewayHarness, event: AssistantThreadEvent): Promise<number[]> {
    const body = JSON.stringify(eventCallback(event));
    const statuses: number[] = [];
    for (const headers of [{}, signSlackRequest('not-the-signing-secret', body)]) {
      const response = await fetch(`${h.url}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': JSON_CONTENT_TYPE, ...headers },
        body,
      });
      statuses.push(response.status);
    }
    return statuses;
  }

  it('an unsigned or wrongly signed assistant_thread_started is refused 401 and greets nobody; signed, it greets', async () => {
    const h = harness();
    const started = assistantThreadEvent('assistant_thread_started', { contextChannel: 'C0ROBOT2' });
    expect(await sendForged(h, started)).toEqual([401, 401]);
    // The control, in a thread of its own: signed, it greets; the forged thread got nothing before it.
    const control = await openPanel(h);
    await waitFor(() => postsIn(h, control)[0], { timeoutMs: WAIT_MS });
    const forgedThread = started.assistant_thread.thread_ts;
    expect(h.slack.calls().filter((call) => call.body.thread_ts === forgedThread)).toEqual([]);

    expect((await h.sendEvent(started)).status).toBe(200);
    await h.slack.waitForCall(
      'assistant.threads.setSuggestedPrompts',
      (call) => call.body.thread_ts === forgedThread,
      WAIT_MS,
    );
  });

  it('an unsigned or wrongly signed assistant_thread_context_changed is refused 401 and moves no robot; signed, it does', async () => {
    const h = harness();
    const thread = await openPanel(h, { contextChannel: 'C0PLAIN' });
    const moved = assistantThreadEvent('assistant_thread_context_changed', {
      threadTs: thread.assistant_thread.thread_ts,
      contextChannel: 'C0ROBOT2',
    });
    expect(await sendForged(h, moved)).toEqual([401, 401]);
    await askInPanel(h, thread, 'How do I reset my password?');
    const first = await waitFor(() => h.robotAsks()[0], { timeoutMs: WAIT_MS });
    expect(first.robotFlag).not.toBe(2);

    expect((await h.sendEvent(moved)).status).toBe(200);
    await contextKept(h, 'C0ROBOT2');
    await askUntilRobot(h, thread, 'How do I connect to the VPN?');
  });
});
