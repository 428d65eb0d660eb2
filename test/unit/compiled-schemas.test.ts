// The hot shapes are compiled with zod's own `z.compile` (docs/decisions/019): the generated parser
// answers first, and must return exactly what the schema's interpreter returns, and take nothing it
// refuses, on thousands of generated values. The one harness for every compiled schema.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openEnvelopeSchema, robotAnswerSchema, robotAskRequestSchema } from '../../src/platform/schemas.js';
import { docIdSchema } from '../../src/slack/kit/button-values.js';
import { incomingMessageSchema } from '../../src/slack/transport/incoming.js';
import { slackEnvelopeSchema } from '../../src/slack/transport/receiver.js';
import { reviewCardSchema } from '../../src/stores/review-schemas.js';
import { MISSING, valueGenerator } from '../support/generated-values.js';
import { reviewCard } from '../support/review-values.js';
import {
  appMention,
  blockActionsPayload,
  botMessage,
  channelMessage,
  directMessage,
  eventCallback,
  messageChanged,
  messageDeleted,
  urlVerification,
} from '../support/slack-payloads.js';

/** Values a field may carry, plain and not. */
const SCALARS: unknown[] = [
  MISSING,
  undefined,
  null,
  '',
  ' ',
  'x',
  ' 12 ',
  '12',
  '-3',
  '1.5',
  'true',
  '1700000000.000100',
  '😀'.repeat(65),
  0,
  1,
  4,
  5,
  -3,
  1.5,
  2 ** 53,
  Number.NaN,
  true,
  false,
  {},
  [],
  [{}],
];

/** Fields mostly one of their plain values, sometimes anything; an object now and then has a field more. */
function generator(seed: number, plainShare = 0.85) {
  const values = valueGenerator(seed, SCALARS, plainShare);
  const object = (fields: Record<string, unknown>) => {
    const built = values.object(fields);
    if (values.random() < 0.2) built.extra = values.pick(SCALARS.filter((value) => value !== MISSING));
    return built;
  };
  const sometimesAnything = (make: () => unknown) => (values.random() < 0.03 ? values.pick(SCALARS) : make());
  return { ...values, object, sometimesAnything };
}

function outcome(result: z.ZodSafeParseResult<unknown>) {
  return result.success
    ? { success: true, data: result.data }
    : { success: false, issues: result.error.issues };
}

/** Every value through the compiled schema and through zod's interpreter alone; the number taken. */
function expectSameAsInterpreter(schema: z.ZodType, values: readonly unknown[]): number {
  // A fresh instance of the same definition: zod's interpreter, with no compiled parser in front.
  const interpreted = schema.clone();
  let taken = 0;
  for (const value of values) {
    const fast = outcome(schema.safeParse(value));
    const slow = outcome(interpreted.safeParse(value));
    // Compared first without a message: the values hold strings of 100,000 characters.
    if (!isDeepStrictEqual(fast, slow)) expect(fast, JSON.stringify(value)).toStrictEqual(slow);
    if (fast.success) taken += 1;
  }
  return taken;
}

function robotAnswers(): unknown[] {
  const { field, object, random, sometimesAnything } = generator(21);
  const suggestion = () =>
    sometimesAnything(() =>
      object({
        question: field(['How do I connect?', '  ', 'Payday?', 12]),
        answer: field([MISSING, 'It is on the 25th.']),
        docId: field([MISSING, 'doc-7', 7]),
      }),
    );
  return Array.from({ length: 4_000 }, () =>
    sometimesAnything(() =>
      object({
        answer: field([MISSING, null, '<p>Open the portal.</p>']),
        suggestions: field([MISSING, null, [], Array.from({ length: Math.floor(random() * 4) }, suggestion)]),
        question: field([MISSING, null, 'reset password']),
        docId: field([MISSING, null, 'doc-1']),
        uid: field([MISSING, 'u-1']),
        cid: field([MISSING, 'c-1']),
        msgId: field([MISSING, 'm-1']),
        stripe: field([MISSING, null, 'You may also ask:']),
        robotFlag: field([MISSING, null, 1, '2']),
        answerType: field([MISSING, 1, 3]),
        sessionNew: field([MISSING, null, true, false]),
      }),
    ),
  );
}

function robotAsks(): unknown[] {
  const { field, object, random, sometimesAnything } = generator(23);
  return Array.from({ length: 4_000 }, () =>
    sometimesAnything(() => {
      const ask = object({
        sysNum: field(['acme']),
        partnerId: field(['T1:U1']),
        question: field(['How do I reset my password?']),
        uname: field([MISSING, 'Jane']),
        source: field([MISSING, 0, 2]),
        robotFlag: field([MISSING, 0, 1]),
        questionFlag: field([MISSING, 0, 1]),
        requestText: field([MISSING, 'doc-1']),
      });
      if (random() < 0.7) delete ask.extra;
      return ask;
    }),
  );
}

function envelopes(): unknown[] {
  const { field, object, sometimesAnything } = generator(22);
  return Array.from({ length: 1_000 }, () =>
    sometimesAnything(() =>
      object({ code: field(['1000', '1002', 1000]), data: field([MISSING, {}, null]) }),
    ),
  );
}

/** Texts around the message schema's 100,000-character cap, made once. */
const LONG_TEXTS = ['😀'.repeat(50_001), 'x'.repeat(100_001)];

function messageEvents(): unknown[] {
  const { field, object, sometimesAnything } = generator(41, 0.95);
  const generated = Array.from({ length: 5_000 }, () =>
    sometimesAnything(() =>
      object({
        type: field(['message', 'app_mention', 'reaction_added']),
        subtype: field([MISSING, 'bot_message', 'message_changed']),
        bot_id: field([MISSING, 'B1']),
        app_id: field([MISSING, 'A1']),
        user: field([MISSING, 'U1', 'U'.repeat(64), 'U'.repeat(65), '😀'.repeat(64)]),
        text: field([MISSING, 'hello', ...LONG_TEXTS]),
        channel: field(['C1', 'D1', '']),
        channel_type: field([MISSING, 'channel', 'im']),
        ts: field(['1700000000.000100', '1700000000', '17000000000000.1']),
        thread_ts: field([MISSING, '1700000000.000001']),
        client_msg_id: field([MISSING, 'c-1']),
        bot_profile: field([MISSING, { id: 'B1' }]),
        blocks: field([MISSING, [{ type: 'rich_text' }]]),
      }),
    ),
  );
  const sent = [
    appMention({ text: 'hi' }),
    directMessage({ text: 'hi' }),
    channelMessage({ text: 'hi' }),
    botMessage({ text: 'hi' }),
    messageChanged(),
    messageDeleted(),
  ];
  return [...sent, ...generated];
}

/** Bodies sent to the request URL: event callbacks mostly, every other envelope now and then. */
function slackBodies(): unknown[] {
  const { field, object, sometimesAnything } = generator(31, 0.9);
  const generated = Array.from({ length: 5_000 }, () =>
    sometimesAnything(() =>
      object({
        type: field([
          'event_callback',
          'event_callback',
          'url_verification',
          'block_actions',
          'message_action',
        ]),
        event: field([
          MISSING,
          object({
            type: field(['message', 'app_mention', 'function_executed', '']),
            user: field([MISSING, 'U1', { id: 'U1' }]),
            channel: field([MISSING, 'C1', { id: 'C1' }]),
            item: field([MISSING, { channel: 'C1' }]),
            subteam: field([MISSING, { id: 'S1' }]),
            text: field(['hello', MISSING]),
          }),
        ]),
        authorizations: field([MISSING, [{ user_id: 'U0' }], []]),
        challenge: field([MISSING, 'c-1']),
        user: field([MISSING, { id: 'U1' }]),
        actions: field([MISSING, [{ action_id: 'faq_feedback_helpful' }], []]),
        callback_id: field([MISSING, 'ask', 'other']),
        channel: field([MISSING, { id: 'C1' }]),
        message: field([MISSING, { ts: '1.2' }]),
        command: field([MISSING, '/cs', '/other']),
        text: field([MISSING, 'vpn']),
        user_id: field([MISSING, 'U1']),
        channel_id: field([MISSING, 'C1']),
        team_id: 'T1',
        response_url: field([MISSING, 'https://hooks.slack.com/x']),
      }),
    ),
  );
  const sent = [
    eventCallback(appMention({ text: '<@U0BOT> hello' })),
    eventCallback(directMessage({ text: 'hello' })),
    eventCallback(channelMessage({ text: 'hello' })),
    eventCallback(botMessage({ text: 'hello' })),
    eventCallback(messageChanged()),
    eventCallback(messageDeleted()),
    urlVerification(),
    blockActionsPayload(),
  ];
  return [...sent, ...generated];
}

/** Cards as a store reads them back: JSON of a card, a field now and then changed or dropped. */
function heldCards(): unknown[] {
  const { field, random, pick, sometimesAnything } = generator(51);
  return Array.from({ length: 2_000 }, () =>
    sometimesAnything(() => {
      const linked = { docId: 'doc-guest', entryTitle: undefined, robotFlag: 1 };
      const held = reviewCard('doc:doc-wifi', 2, {
        otherWordings: pick([[], ['wi-fi?']]),
        ...(random() < 0.3 ? { linked } : {}),
      });
      const card: Record<string, unknown> = JSON.parse(JSON.stringify(held));
      // Cards stored before wordings were kept have none.
      if (random() < 0.2) delete card.otherWordings;
      if (random() < 0.5) {
        const key = pick(Object.keys(card));
        const replacement = field([MISSING, -1, 1.5, 'x', null]);
        if (replacement === MISSING) delete card[key];
        else card[key] = replacement;
      }
      return card;
    }),
  );
}

function docIds(): unknown[] {
  const { pick } = generator(61);
  const ids = ['', 'd', 'doc-1', 'd'.repeat(256), 'd'.repeat(257), '😀'.repeat(256), '😀'.repeat(257), 7];
  return Array.from({ length: 200 }, () => pick([...ids, ...SCALARS]));
}

const HOT: ReadonlyArray<{ name: string; schema: z.ZodType; values: () => unknown[]; taken: number }> = [
  { name: "the robot's answer", schema: robotAnswerSchema, values: robotAnswers, taken: 0.1 },
  { name: 'our robot ask', schema: robotAskRequestSchema, values: robotAsks, taken: 0.1 },
  { name: 'the open-platform envelope', schema: openEnvelopeSchema, values: envelopes, taken: 0.5 },
  { name: 'a message event', schema: incomingMessageSchema, values: messageEvents, taken: 0.05 },
  {
    name: 'a Slack envelope',
    schema: slackEnvelopeSchema({
      viewCallbackIds: ['edit'],
      messageShortcutIds: ['ask'],
      slashCommand: '/cs',
    }),
    values: slackBodies,
    taken: 0.05,
  },
  { name: 'a held review card', schema: reviewCardSchema, values: heldCards, taken: 0.3 },
  { name: "a button's docId", schema: docIdSchema, values: docIds, taken: 0.1 },
];

describe.each(HOT)('$name', ({ schema, values, taken }) => {
  it('compiles whole: no part of it is left to the interpreter', () => {
    expect(() => z.compile(schema.clone(), { strict: true })).not.toThrow();
  });

  it('gives what the interpreter gives, on generated values', () => {
    const generated = values();
    // The generator makes many well-formed values: the comparison covers them, not only refusals.
    expect(expectSameAsInterpreter(schema, generated)).toBeGreaterThan(generated.length * taken);
  });
});

it('takes the messages and envelopes the fixtures send as Slack does', () => {
  for (const event of [appMention(), directMessage(), channelMessage(), botMessage(), messageChanged()]) {
    expect(incomingMessageSchema.safeParse(event).success).toBe(true);
  }
  const envelope = slackEnvelopeSchema({
    viewCallbackIds: [],
    messageShortcutIds: [],
    slashCommand: undefined,
  });
  for (const event of [
    appMention(),
    directMessage(),
    channelMessage(),
    botMessage(),
    messageChanged(),
    messageDeleted(),
  ]) {
    expect(envelope.safeParse(eventCallback(event)).success).toBe(true);
  }
});

it('refuses what the schemas refuse', () => {
  const refused: ReadonlyArray<readonly [z.ZodType, readonly unknown[]]> = [
    [robotAnswerSchema, [7, [], { answer: {} }, { answer: 'a', suggestions: [7] }, { robotFlag: '1.5' }]],
    [openEnvelopeSchema, [null, 'x', { code: {} }, {}]],
    [
      robotAskRequestSchema,
      [
        { sysNum: 'acme', partnerId: 'p', question: 'q', questionFlag: 1 },
        { sysNum: 'acme', partnerId: 'p', question: '' },
        { sysNum: 'acme', partnerId: 'p', question: 'q', surplus: 1 },
        { sysNum: 'acme', partnerId: 'p', question: 'q', source: 5 },
      ],
    ],
    [
      incomingMessageSchema,
      [null, [], { type: 'message', channel: 'C1', ts: 'soon' }, { type: 'message', channel: 7, ts: '1.1' }],
    ],
  ];
  for (const [schema, values] of refused) {
    for (const value of values) expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  }
});
