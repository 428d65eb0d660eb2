// The playground without a browser: the page's actions over HTTP, the live feed, and the stand-in
// Web API the gateway (or anyone with the bot token) calls. Runs wherever Chromium is missing too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Playground, startPlayground } from '../../../playground/playground.js';
import type { PlaygroundMessage, Snapshot } from '../../../playground/protocol.js';
import { createLogger } from '../../../src/logging/logger.js';
import { withTimeout } from '../../support/wait.js';

let playground: Playground;
let feed: SnapshotFeed;

beforeAll(async () => {
  playground = await startPlayground({ port: 0, logger: createLogger({ level: 'silent' }) });
  feed = await openFeed(new URL('/playground/events', playground.url));
}, 30_000);

afterAll(async () => {
  feed?.close();
  await playground?.close();
});

/** Reads the page's Server-Sent Events feed: every snapshot, and a wait for one that matches. */
interface SnapshotFeed {
  next(predicate: (snapshot: Snapshot) => boolean): Promise<Snapshot>;
  close(): void;
}

async function openFeed(url: URL): Promise<SnapshotFeed> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no feed body');
  let latest: Snapshot | undefined;
  const waiters = new Set<{
    predicate: (snapshot: Snapshot) => boolean;
    resolve(snapshot: Snapshot): void;
  }>();
  const decoder = new TextDecoder();
  let buffered = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done || !value) return;
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (!event.startsWith('data: ')) continue;
        latest = JSON.parse(event.slice('data: '.length)) as Snapshot;
        for (const waiter of waiters) if (waiter.predicate(latest)) waiter.resolve(latest);
      }
    }
  })();
  return {
    next(predicate) {
      if (latest && predicate(latest)) return Promise.resolve(latest);
      const found = new Promise<Snapshot>((resolve) => {
        const waiter = {
          predicate,
          resolve: (snapshot: Snapshot) => {
            waiters.delete(waiter);
            resolve(snapshot);
          },
        };
        waiters.add(waiter);
      });
      return withTimeout(found, 10_000, 'no matching snapshot');
    },
    close: () => controller.abort(),
  };
}

function act(action: string, body: unknown): Promise<Response> {
  return fetch(new URL(`/playground/api/${action}`, playground.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function webApi(
  method: string,
  body: Record<string, unknown>,
  token = 'xoxb-wrong',
): Promise<Record<string, unknown>> {
  return fetch(new URL(`/api/${method}`, playground.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  }).then((response) => response.json() as Promise<Record<string, unknown>>);
}

const fromApp = (snapshot: Snapshot, text: string): PlaygroundMessage | undefined =>
  snapshot.messages.find((message) => message.userId === snapshot.app.userId && message.text.includes(text));

describe('the playground server', () => {
  it('sends a question typed on the page to the gateway, signed, and pushes the answer to the page', async () => {
    const sent = await act('send', {
      userId: 'U0ALICE',
      channel: 'D0ALICE',
      text: 'How do I reset my password?',
    });
    expect(sent.status).toBe(200);
    const snapshot = await feed.next((s) => fromApp(s, 'password portal') !== undefined);
    const answer = fromApp(snapshot, 'password portal');
    expect(answer?.channel).toBe('D0ALICE');
    // Rated with Slack's own element, the default (RATING_BUTTONS=native).
    expect(JSON.stringify(answer?.blocks)).toContain('feedback_buttons');
    expect(snapshot.calls.some((call) => call.method === 'chat.postMessage' && call.ok)).toBe(true);
  });

  it('offers the simulator’s service groups to an operator’s /cs agents, by name', async () => {
    const sent = await act('send', { userId: 'U0OLIVIA', channel: 'D0OLIVIA', text: '/cs agents' });
    expect(sent.status).toBe(200);
    const snapshot = await feed.next((s) => fromApp(s, 'Service groups') !== undefined);
    const shown = JSON.stringify(fromApp(snapshot, 'Service groups')?.blocks);
    for (const name of ['IT Service Desk', 'HR Service', 'Finance Service']) expect(shown).toContain(name);
  });

  it("posts the weekly digest now to #kb-review, then its three charts in the digest's thread", async () => {
    const posted = await act('digest', {});
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ ok: true, channel: 'C0KBREVIEW' });
    const charted = await feed.next((s) => {
      const digest = fromApp(s, 'Service desk digest');
      return s.messages.some((m) => m.threadTs === digest?.ts && m.files.length === 3);
    });
    const digest = fromApp(charted, 'Service desk digest');
    expect(digest?.channel).toBe('C0KBREVIEW');
    expect(digest?.threadTs).toBeUndefined();
    expect(JSON.stringify(digest?.blocks)).toContain('Total messages');
    const charts = charted.messages.find((m) => m.threadTs === digest?.ts)?.files ?? [];
    expect(charts.map((file) => file.image?.altText?.split(',')[0])).toEqual([
      'Chart of questions a day (customer messages)',
      'Chart of answers rated a day',
      'Chart of tickets opened a day by handling group',
    ]);
    // The week of ratings the demo starts with, every day of it in the digest's last 7 full days.
    expect(charts[1]?.image?.altText).toMatch(/Total 50 helpful, 11 not helpful; 82% helpful\.$/);
    for (const file of charts) expect(file.image?.url).toMatch(/^data:image\/png;base64,/);
  }, 30_000);

  it('refuses a malformed page action with 400 before anything reaches the gateway', async () => {
    const refused = await act('click', {
      userId: 'U0ALICE',
      source: { kind: 'message' },
      actionId: 'rate_up',
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toContain('source');
  });

  it('answers a Web API call without the bot token as Slack does: invalid_auth', async () => {
    expect(await webApi('auth.test', {})).toEqual({ ok: false, error: 'invalid_auth' });
  });

  it('opens the assistant panel through the gateway: greeting and prompts, then an answer in its thread, titled', async () => {
    const opened = await act('assistant-open', { userId: 'U0BOB', channel: 'C0HELP' });
    expect(opened.status).toBe(200);
    const greeted = await feed.next((s) => {
      const thread = s.assistantThreads.findLast((candidate) => candidate.userId === 'U0BOB');
      return (
        thread !== undefined &&
        thread.prompts.length > 0 &&
        s.messages.some((m) => m.threadTs === thread.threadTs && m.userId === s.app.userId)
      );
    });
    const thread = greeted.assistantThreads.findLast((candidate) => candidate.userId === 'U0BOB');
    if (!thread) throw new Error('no assistant thread');
    expect(thread).toMatchObject({ channel: 'D0BOB', contextChannel: 'C0HELP' });
    expect(thread.prompts.length).toBeLessThanOrEqual(4);

    const prompt = thread.prompts[0]?.message ?? '';
    expect(
      (await act('send', { userId: 'U0BOB', channel: 'D0BOB', text: prompt, threadTs: thread.threadTs }))
        .status,
    ).toBe(200);
    const answered = await feed.next((s) => {
      const now = s.assistantThreads.find((candidate) => candidate.threadTs === thread.threadTs);
      const replies = s.messages.filter((m) => m.threadTs === thread.threadTs && m.userId === s.app.userId);
      return now?.title !== undefined && now.status === '' && replies.length >= 2;
    });
    const calls = answered.calls.map((call) => call.method);
    expect(calls).toEqual(
      expect.arrayContaining([
        'assistant.threads.setSuggestedPrompts',
        'assistant.threads.setStatus',
        'assistant.threads.setTitle',
      ]),
    );
    expect(
      answered.calls.filter((call) => call.method.startsWith('assistant.')).every((call) => call.ok),
    ).toBe(true);
    // Nothing of the panel shows in the DM itself: its root and replies are the panel's.
    expect(answered.messages.find((m) => m.ts === thread.threadTs)?.subtype).toBe('assistant_app_thread');
  });
});
