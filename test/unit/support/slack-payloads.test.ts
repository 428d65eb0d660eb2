import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  appMention,
  blockActionsPayload,
  botMessage,
  directMessage,
  eventCallback,
  messageChanged,
  messageDeleted,
} from '../../support/slack-payloads.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'));
}

/** The structure of a value: keys and value kinds, arrays described by their first element. */
function shape(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shape(v)]),
    );
  }
  return typeof value;
}

describe('payload factories match the recorded payloads', () => {
  it('app_mention event_callback', () => {
    const made = eventCallback(appMention({ text: '<@UBOT> how do I reset my password?' }));
    expect(shape(made)).toEqual(shape(fixture('app-mention.event-callback.json')));
  });

  it('message.im event_callback', () => {
    const made = eventCallback(directMessage({ text: 'What are your opening hours?' }));
    expect(shape(made)).toEqual(shape(fixture('message-im.event-callback.json')));
  });

  it('block_actions button payload', () => {
    const recorded = fixture('block-actions.button.json');
    const made = blockActionsPayload({
      message: { ts: '1700000500.000100', thread_ts: '1700000123.000200' },
      actions: [{ action_id: 'faq_feedback_helpful', block_id: 'feedback', value: '{}' }],
    });
    expect(shape(made)).toEqual(shape(recorded));
    expect(made.container).toMatchObject({
      type: 'message',
      message_ts: '1700000500.000100',
      is_ephemeral: false,
    });
  });
});

describe('payload factories', () => {
  it('give every event a unique event_id and ts', () => {
    const a = eventCallback(appMention());
    const b = eventCallback(appMention());
    expect(a.event_id).not.toBe(b.event_id);
    expect(a.event.ts).not.toBe(b.event.ts);
  });

  it('apply overrides last', () => {
    const made = eventCallback(directMessage({ thread_ts: '1.1' }, { channel_type: 'mpim' }), {
      team_id: 'T9',
    });
    expect(made).toMatchObject({ team_id: 'T9', event: { channel_type: 'mpim', thread_ts: '1.1' } });
  });

  it('shape bot, changed and deleted messages with their subtypes', () => {
    expect(botMessage({ bot_id: 'BBOT' })).toMatchObject({ subtype: 'bot_message', bot_id: 'BBOT' });
    const changed = messageChanged({ message_ts: '5.5', text: 'new', bot_id: 'BBOT' });
    expect(changed).toMatchObject({
      subtype: 'message_changed',
      hidden: true,
      message: { ts: '5.5', text: 'new', bot_id: 'BBOT', edited: {} },
      previous_message: { ts: '5.5' },
    });
    expect(messageDeleted({ deleted_ts: '6.6' })).toMatchObject({
      subtype: 'message_deleted',
      deleted_ts: '6.6',
      previous_message: { ts: '6.6' },
    });
  });
});
