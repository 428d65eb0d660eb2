// `/cs channels`: each channel with the settings it sets, not every key with the defaults it shares
// with every other channel; one channel's own settings (`/cs channel`) still show every key.
import { describe, expect, it } from 'vitest';
import { renderChannelList, renderChannelSettings } from '../../../../src/slack/channels/views.js';

const AT = Date.UTC(2026, 10, 28, 9, 30);

describe('the channels listing', () => {
  it('lists only the keys each channel sets', () => {
    const list = new Map([
      [
        'C0ITHELP',
        { settings: { robot: 2, answer: 'questions' as const }, changedBy: 'U0OP', changedAt: AT },
      ],
      ['C0PRIVATE', { settings: { reply: 'ephemeral' as const }, changedBy: 'U0OP', changedAt: AT - 1 }],
    ]);
    const { blocks } = renderChannelList('en', '/cs', list);
    const [, itHelp, privately] = blocks.map((block) =>
      block.type === 'section' ? (block.text?.text ?? '') : '',
    );
    const keysOf = (text: string | undefined) =>
      (text ?? '')
        .split('\n')
        .slice(1)
        .map((line) => line.split(':')[0]);
    expect(keysOf(itHelp)).toEqual(['*robot*', '*answer*']);
    expect(keysOf(privately)).toEqual(['*reply*']);
    for (const text of [itHelp, privately]) expect(text).not.toContain('default');
  });

  it('leaves one channel’s own settings whole, the defaults included', () => {
    const { text } = renderChannelSettings('en', {
      channelId: 'C0PRIVATE',
      stored: { settings: { reply: 'ephemeral' }, changedBy: 'U0OP', changedAt: AT },
      heading: 'show',
      command: '/cs',
    });
    expect(text).toContain('*robot*: default');
    expect(text).toContain('*reply*:');
  });
});
