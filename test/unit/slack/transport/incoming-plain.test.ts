// Message events are read by hand before incomingMessageSchema (every message the app is sent): the
// hand reading must give exactly what the schema gives, and leave to it whatever it refuses.
import { describe, expect, it } from 'vitest';
import { incomingMessageSchema, readPlainIncomingMessage } from '../../../../src/slack/transport/incoming.js';
import { MISSING, valueGenerator } from '../../../support/generated-values.js';
import {
  appMention,
  botMessage,
  channelMessage,
  directMessage,
  messageChanged,
} from '../../../support/slack-payloads.js';

const ANYTHING: unknown[] = [MISSING, undefined, null, '', 'x', 0, 1, true, {}, [], '1700000000.000100'];

describe('the hand reading of a message event', () => {
  it('gives what the schema gives, on generated events', () => {
    const { random, pick, field, object } = valueGenerator(41, ANYTHING, 0.95);
    let read = 0;
    for (let index = 0; index < 5_000; index += 1) {
      const fields = {
        type: field(['message', 'app_mention', 'reaction_added']),
        subtype: field([MISSING, 'bot_message', 'message_changed']),
        bot_id: field([MISSING, 'B1']),
        app_id: field([MISSING, 'A1']),
        user: field([MISSING, 'U1', 'U'.repeat(64), 'U'.repeat(65), '😀'.repeat(64)]),
        text: field([MISSING, 'hello', '😀'.repeat(50_001), 'x'.repeat(100_001)]),
        channel: field(['C1', 'D1', '']),
        channel_type: field([MISSING, 'channel', 'im']),
        ts: field(['1700000000.000100', '1700000000', '17000000000000.1']),
        thread_ts: field([MISSING, '1700000000.000001']),
        client_msg_id: field([MISSING, 'c-1']),
        bot_profile: field([MISSING, { id: 'B1' }]),
        blocks: field([MISSING, [{ type: 'rich_text' }]]),
      };
      const event = random() < 0.03 ? pick(ANYTHING) : object(fields);
      const byHand = readPlainIncomingMessage(event);
      if (byHand === undefined) continue;
      read += 1;
      const bySchema = incomingMessageSchema.safeParse(event);
      expect(bySchema.success, JSON.stringify(event)).toBe(true);
      expect(byHand).toStrictEqual(bySchema.data);
    }
    expect(read).toBeGreaterThan(200);
  });

  it('reads the messages Slack sends, and leaves the rest to the schema', () => {
    for (const event of [
      appMention({ text: 'hi' }),
      directMessage({ text: 'hi' }),
      channelMessage({ text: 'hi' }),
      botMessage({ text: 'hi' }),
    ]) {
      expect(readPlainIncomingMessage(event)).toStrictEqual(incomingMessageSchema.parse(event));
    }
    const edit = messageChanged();
    expect(readPlainIncomingMessage(edit)).toStrictEqual(incomingMessageSchema.safeParse(edit).data);
    for (const refused of [
      null,
      [],
      { type: 'message', channel: 'C1', ts: 'soon' },
      { type: 'message', channel: 7, ts: '1.1' },
    ]) {
      expect(incomingMessageSchema.safeParse(refused).success).toBe(false);
      expect(readPlainIncomingMessage(refused)).toBeUndefined();
    }
  });
});
