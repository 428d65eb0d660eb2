import { describe, expect, it } from 'vitest';
import { answersRoom } from '../../../../src/slack/answers/surface.js';
import type { DecidedArgs } from '../../../../src/slack/handling/pre-dispatch.js';
import { preDispatchOf } from '../../../../src/slack/surfaces.js';
import { eventArgs, fakes } from '../../../support/listener-fakes.js';
import {
  appMention,
  botMessage,
  channelMessage,
  directMessage,
  eventCallback,
  IDS,
  messageChanged,
  nextTs,
} from '../../../support/slack-payloads.js';

/** The answers room behind its pre-dispatch step, as the app registers it. */
function preDispatch(deps: ReturnType<typeof fakes>['deps']) {
  return preDispatchOf([answersRoom(deps)], { slashCommand: '/cs', appUserId: IDS.botUser });
}

/** Slack's envelope around an event, as the receiver reads it: the event object itself inside. */
function envelopeOf<E extends { type: string }>(event: E): Record<string, unknown> & { event: E } {
  return { ...eventCallback(event) };
}

/** The Bolt listener of message events: reads and decides, then answers. */
function messageListener(deps: ReturnType<typeof fakes>['deps']): (args: DecidedArgs) => Promise<void> {
  return preDispatch(deps).listener;
}

describe('message listener', () => {
  it.each([
    ['an edit', messageChanged()],
    ['a bot post', botMessage()],
    ['the app’s own message', directMessage({ user: IDS.botUser })],
  ])('ignores %s', async (_name, event) => {
    const f = fakes();
    await messageListener(f.deps)(eventArgs(event, f.client));
    expect(f.asked).toEqual([]);
    expect(f.slack).toEqual([]);
    expect(f.events).toEqual(['message:ignored']);
  });

  it('counts and logs an event of unexpected shape, and asks nothing', async () => {
    const f = fakes();
    await messageListener(f.deps)(eventArgs({ type: 'message', channel: 5 }, f.client));
    expect(f.asked).toEqual([]);
    expect(f.events).toEqual(['message:malformed']);
    expect(f.logs.map((line) => line.msg)).toEqual(['ignored a message event of unexpected shape']);
  });

  it('answers a DM at the top level, once per message however often Slack delivers it', async () => {
    const f = fakes();
    const listener = messageListener(f.deps);
    const event = directMessage({ text: 'What are your opening hours?' });
    await listener(eventArgs(event, f.client));
    await listener(eventArgs(event, f.client, 1));
    expect(f.asked).toHaveLength(1);
    expect(f.asked[0]?.input).toMatchObject({
      text: 'What are your opening hours?',
      conversationId: IDS.dm,
      threadId: undefined,
      asker: { userId: IDS.user, partnerId: `slack-${IDS.team}-${IDS.user}`, displayName: 'Jane' },
    });
    const posted = f.slack.filter((call) => call.method === 'chat.postMessage');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.options).toMatchObject({ channel: IDS.dm });
    expect(posted[0]?.options).not.toHaveProperty('thread_ts');
    expect(f.events).toEqual(['message:question', 'message:duplicate']);
    const duplicate = f.logs.find((line) => line.msg === 'duplicate delivery ignored');
    expect(duplicate).toMatchObject({ retryNum: 1, ts: event.ts });
    expect(f.deliveries.kept).toEqual([`msg:${IDS.team}:${IDS.dm}:${event.ts}`]);
  });

  it('answers a mention in its thread and then hears follow-ups there without a mention', async () => {
    const f = fakes();
    const listener = messageListener(f.deps);
    const mention = appMention({ text: `<@${IDS.botUser}> how do I reset my password?` });
    await listener(eventArgs(mention, f.client));
    expect(f.asked[0]?.input).toMatchObject({ text: 'how do I reset my password?', threadId: mention.ts });
    expect(f.threads.has(`${IDS.channel}:${mention.ts}`)).toBe(true);

    await listener(eventArgs(channelMessage({ text: 'and my email?', thread_ts: mention.ts }), f.client));
    expect(f.asked.map((ask) => ask.input.text)).toEqual(['how do I reset my password?', 'and my email?']);
    expect(f.asked[1]?.input.threadId).toBe(mention.ts);
  });

  it('ignores a plain channel message outside a thread the app answers', async () => {
    const f = fakes();
    const listener = messageListener(f.deps);
    await listener(eventArgs(channelMessage({ text: 'lunch?' }), f.client));
    await listener(eventArgs(channelMessage({ text: 'lunch?', thread_ts: nextTs() }), f.client));
    expect(f.asked).toEqual([]);
    expect(f.events).toEqual(['message:ignored', 'message:ignored']);
  });

  it('names every log line of one message, and the core’s call, with one request id', async () => {
    const f = fakes();
    await messageListener(f.deps)(eventArgs(directMessage(), f.client));
    const ready = f.logs.find((line) => line.msg === 'reply ready');
    expect(typeof ready?.requestId).toBe('string');
    expect(f.asked[0]?.options.requestId).toBe(ready?.requestId);
  });

  it('gives the delivery back when answering fails, so Slack’s retry is answered', async () => {
    const f = fakes({ reply: () => Promise.reject(new Error('core broke')) });
    const event = directMessage();
    await expect(messageListener(f.deps)(eventArgs(event, f.client))).resolves.toBeUndefined();
    expect(f.deliveries.released).toEqual([`msg:${IDS.team}:${IDS.dm}:${event.ts}`]);
    expect(f.deliveries.kept).toEqual([]);
    expect(f.logs.find((line) => line.msg === 'message event handling failed')?.level).toBe(50);
  });

  it('answers one user’s questions in the order asked, even when the first is slower', async () => {
    let release: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    const f = fakes({
      reply: async (input) => {
        if (input.text === 'first') await first;
        return { kind: 'notice', notice: 'help', locale: 'en' };
      },
    });
    const listener = messageListener(f.deps);
    const one = listener(eventArgs(directMessage({ text: 'first' }), f.client));
    const two = listener(eventArgs(directMessage({ text: 'second' }), f.client));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(f.asked.map((ask) => ask.input.text)).toEqual(['first']);
    release();
    await Promise.all([one, two]);
    expect(f.asked.map((ask) => ask.input.text)).toEqual(['first', 'second']);
  });
});

describe('the pre-dispatch step before Bolt (the receiver’s call)', () => {
  const deployBot = { ...channelMessage({ text: 'Deploy done?' }), bot_id: 'B0DEPLOY' };
  const dropped: Array<[string, { type: string }]> = [
    ['an edit', messageChanged()],
    ['a bot post', botMessage()],
    ['a bot user posting without a subtype', deployBot],
    ['the app’s own message', channelMessage({ user: IDS.botUser, text: 'anyone?' })],
    [
      'a top-level message in a channel answering mentions only',
      channelMessage({ text: 'How do I log in?' }),
    ],
    [
      'a reply in a thread the app is not answering',
      channelMessage({ text: 'and then?', thread_ts: nextTs() }),
    ],
    [
      'a reply mentioning the app (it comes as app_mention too)',
      channelMessage({ text: `<@${IDS.botUser}> and then?`, thread_ts: nextTs() }),
    ],
  ];
  it.each(dropped)('leaves alone %s, counted once', async (_name, event) => {
    const f = fakes();
    expect(await preDispatch(f.deps).screen(envelopeOf({ ...event }))).toBe(false);
    expect(f.events).toEqual(['message:ignored']);
    expect(f.asked).toEqual([]);
  });

  it.each([
    ['a DM', directMessage({ text: 'hello' })],
    ['a DM reply in a thread', directMessage({ text: 'and then?', thread_ts: nextTs() })],
    ['a mention', appMention()],
  ])('passes %s on, and its listener answers it', async (_name, event) => {
    const f = fakes();
    const step = preDispatch(f.deps);
    const envelope = envelopeOf({ ...event });
    expect(await step.screen(envelope)).toBe(true);
    await step.listener(eventArgs(envelope.event, f.client));
    expect(f.asked).toHaveLength(1);
    expect(f.events).toEqual([`${event.type}:question`]);
  });

  it('decides once: the listener acts on the verdict reached before Bolt, and reads nothing again', async () => {
    const f = fakes();
    const step = preDispatch(f.deps);
    const mention = appMention();
    await step.listener(eventArgs(mention, f.client));
    const envelope = envelopeOf(channelMessage({ text: 'and my email?', thread_ts: mention.ts }));
    expect(await step.screen(envelope)).toBe(true);
    // The registry forgets the thread after the verdict: the verdict stands for this delivery.
    f.threads.clear();
    await step.listener(eventArgs(envelope.event, f.client));
    expect(f.asked.map((ask) => ask.input.text)).toEqual([expect.any(String), 'and my email?']);
  });

  it('passes on a thread reply while its asker has a question in turn: that one may open the thread', async () => {
    let release: () => void = () => {};
    const slowAnswer = new Promise<void>((resolve) => {
      release = resolve;
    });
    const f = fakes({
      reply: async () => {
        await slowAnswer;
        return { kind: 'notice', notice: 'help', locale: 'en' };
      },
    });
    const step = preDispatch(f.deps);
    const asking = step.listener(eventArgs(directMessage({ text: 'first' }), f.client));
    const reply = channelMessage({ text: 'and then?', thread_ts: nextTs() });
    const envelope = envelopeOf(reply);
    expect(step.screen(envelope)).toBe(true);
    const answering = step.listener(eventArgs(envelope.event, f.client));
    release();
    await Promise.all([asking, answering]);
    // In its turn, after the first question, the registry says the thread is not the app's.
    expect(f.asked.map((ask) => ask.input.text)).toEqual(['first']);
    expect(f.events).toEqual(['message:question', 'message:ignored']);
    expect(await step.screen(envelopeOf({ ...reply }))).toBe(false);
  });

  it('counts a field of a type the schema refuses as malformed, and leaves it alone', () => {
    const f = fakes();
    const step = preDispatch(f.deps);
    expect(step.screen(envelopeOf({ ...botMessage(), bot_id: 7 }))).toBe(false);
    expect(step.screen(envelopeOf({ ...messageChanged(), channel: ['C1'] }))).toBe(false);
    expect(f.events).toEqual(['message:malformed', 'message:malformed']);
  });
});
