// The receiver checks an event_callback by hand before its envelope schema: it is nearly every request.
// That check may only let through what the schema lets through (the receiver is the security boundary),
// and it must take the events Slack really sends, or it saves nothing.
import { describe, expect, it } from 'vitest';
import { isPlainEventCallback, slackEnvelopeSchema } from '../../../../src/slack/transport/receiver.js';
import { MISSING, valueGenerator } from '../../../support/generated-values.js';
import {
  appMention,
  botMessage,
  channelMessage,
  directMessage,
  eventCallback,
  messageChanged,
  messageDeleted,
} from '../../../support/slack-payloads.js';

const schema = slackEnvelopeSchema({
  viewCallbackIds: ['edit'],
  messageShortcutIds: ['ask'],
  slashCommand: '/cs',
});
const ANYTHING: unknown[] = [
  MISSING,
  undefined,
  null,
  '',
  'x',
  0,
  1,
  true,
  {},
  { id: 'U1' },
  [],
  [{}],
  ['x'],
  [null],
];

describe('the hand check of an event_callback', () => {
  it('passes nothing its schema refuses, on generated bodies', () => {
    const { random, pick, field, object } = valueGenerator(31, ANYTHING, 0.9);
    let passed = 0;
    for (let index = 0; index < 5_000; index += 1) {
      const body =
        random() < 0.03
          ? pick(ANYTHING)
          : object({
              type: field(['event_callback', 'event_callback', 'url_verification', 'block_actions']),
              event: field([
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
              team_id: 'T1',
            });
      if (!isPlainEventCallback(body)) continue;
      passed += 1;
      expect(schema.safeParse(body).success, JSON.stringify(body)).toBe(true);
    }
    expect(passed).toBeGreaterThan(300);
  });

  it('takes the events Slack sends', () => {
    const events = [
      eventCallback(appMention({ text: '<@U0BOT> hello' })),
      eventCallback(directMessage({ text: 'hello' })),
      eventCallback(channelMessage({ text: 'hello' })),
      eventCallback(botMessage({ text: 'hello' })),
      eventCallback(messageChanged()),
      eventCallback(messageDeleted()),
    ];
    for (const body of events) {
      expect(schema.safeParse(body).success).toBe(true);
      expect(isPlainEventCallback(body)).toBe(true);
    }
  });
});
