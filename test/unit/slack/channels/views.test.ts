// What an operator and a channel read about channel settings, rendered without a network.
import { describe, expect, it } from 'vitest';
import { parseChannelCommand } from '../../../../src/slack/channels/command-parser.js';
import type { StoredChannelSettings } from '../../../../src/slack/channels/stores.js';
import {
  renderChannelList,
  renderChannelNotice,
  renderChannelProblems,
  renderChannelSettings,
} from '../../../../src/slack/channels/views.js';
import { BLOCK_KIT } from '../../../../src/slack/kit/block-kit-limits.js';
import { SERIALIZED_BLOCKS_BUDGET } from '../../../../src/slack/kit/limits.js';

const AT = Date.parse('2026-11-25T12:00:00Z');
const stored: StoredChannelSettings = {
  settings: { robot: 2, answer: 'questions', escalate: { users: ['U0ALICE'], groups: ['S0ONCALL'] } },
  changedBy: 'U0OPERATOR',
  changedAt: AT,
};

function problemsOf(text: string) {
  const parsed = parseChannelCommand(text);
  if (parsed.kind !== 'invalid') throw new Error(`${text} was read as ${parsed.kind}`);
  return parsed.problems;
}

describe('a channel’s settings', () => {
  it('says each key’s value, or its default in words, who changed them, and offers Edit', () => {
    const shown = renderChannelSettings('en', { channelId: 'C1', stored, heading: 'show', command: '/cs' });
    expect(shown.text).toBe(
      [
        '*Settings of <#C1>*',
        '*robot*: robot 2',
        '*answer*: when mentioned, and on its own to messages that read as questions `answer:questions`',
        '*reply*: default: in the thread, for everyone',
        '*escalate*: <@U0ALICE>, <!subteam^S0ONCALL>',
        '*askers*: default: anyone',
        '*lang*: default: each person’s own language',
      ].join('\n'),
    );
    const json = JSON.stringify(shown.blocks);
    expect(json).toContain('Last changed by <@U0OPERATOR> <!date^');
    expect(json).toContain('"action_id":"channel_settings_edit"');
    expect(json).toContain('"value":"C1"');
  });

  it('says when a channel has none, in Chinese too', () => {
    const en = renderChannelSettings('en', {
      channelId: 'C1',
      stored: undefined,
      heading: 'show',
      command: '/cs',
    });
    expect(en.text).toContain('No settings of its own: every key has its default.');
    expect(JSON.stringify(en.blocks)).not.toContain('Last changed by');
    const zh = renderChannelSettings('zh-CN', { channelId: 'C1', stored, heading: 'saved', command: '/cs' });
    expect(zh.text).toContain('*已保存。<#C1> 现在的设置：*');
    expect(zh.text).toContain('*reply*：默认：在话题中回复，所有人可见');
  });
});

describe('problems', () => {
  it('name the key and what it takes, one line each, after “Nothing was changed”', () => {
    const text = renderChannelProblems(
      'en',
      '/cs',
      problemsOf('hello robot:-1 lang:fr reply: askers: escalate:off,S1 robot:3 size:big <#C9|x>'),
    ).text;
    expect(text.split('\n')).toEqual([
      '*Nothing was changed:*',
      '• `hello` is not a setting: write key:value, as in `robot:2`.',
      '• `robot` takes a whole number from 0 to 2147483647, not `-1`.',
      '• `lang` takes `auto`, `en` or `zh`, not `fr`.',
      '• `reply` needs a value: `thread` or `ephemeral`.',
      '• `askers` needs people or user groups; to answer anyone, write `askers:anyone`.',
      '• `escalate` takes people and user groups (@someone, @a-group), or `off`, not `off S1`: `off` stands alone.',
      '• `robot` is given twice: give it once.',
      '• `size` is not a setting: use robot, answer, reply, escalate, askers or lang.',
      // Shown as typed: in a code span Slack shows the escaped brackets as < and >.
      '• `&lt;#C9|x&gt;` is a channel: put it first, right after `/cs channel`.',
    ]);
  });

  it('say what arrived for a name Slack did not recognise, and why, in English and Chinese', () => {
    const problems = problemsOf('#it-help escalate:@it-oncall');
    expect(renderChannelProblems('en', '/cs', problems).text.split('\n')).toEqual([
      '*Nothing was changed:*',
      '• `#it-help` arrived as plain text, not as a channel Slack recognised: pick it from the autocomplete as you type #, or check its name.',
      '• `@it-oncall` arrived as plain text, not as a person or user group Slack recognised: pick it from the autocomplete as you type @, or check the handle.',
    ]);
    expect(renderChannelProblems('zh-CN', '/cs', problems).text).toContain(
      '`@it-oncall` 是作为纯文本收到的，Slack 没有把它识别为人员或用户组',
    );
  });

  it('quote what was typed in code, so it cannot format or mention', () => {
    const text = renderChannelProblems('en', '/cs', problemsOf('robot:<!channel>')).text;
    expect(text).toContain('not `&lt;!channel&gt;`');
  });

  it('for reset with words after it, show the command alone', () => {
    expect(renderChannelProblems('zh-CN', '/help', problemsOf('reset robot:2')).text).toContain(
      '`reset` 后面不能再写别的：`/help channel reset`。',
    );
  });
});

describe('the notice in the channel', () => {
  it('says who set what people see, and nothing when that did not change', () => {
    expect(renderChannelNotice('en', { by: 'U1', answer: undefined, reply: undefined })).toBeUndefined();
    expect(renderChannelNotice('en', { by: 'U1', answer: 'all', reply: 'ephemeral' })?.text).toBe(
      '<@U1> set this channel so that I now answer every message here on my own, without being mentioned.\n' +
        '<@U1> set this channel so that my answers here are shown only to whoever asked.',
    );
    expect(renderChannelNotice('zh-CN', { by: 'U1', answer: 'mention', reply: undefined })?.text).toContain(
      '我不再主动回答这里的消息，需要时请 @ 我',
    );
  });
});

describe('/cs channels', () => {
  it('lists the newest change first, each with who changed it', () => {
    const list = renderChannelList(
      'en',
      '/cs',
      new Map([
        ['C0OLD', { ...stored, changedAt: AT - 1000 }],
        ['C0NEW', stored],
      ]),
    );
    expect(list.text).toBe('*Channels with settings of their own (2)*\n<#C0NEW>, <#C0OLD>');
    expect(JSON.stringify(list.blocks)).toContain('*<#C0NEW>* · changed by <@U0OPERATOR>');
  });

  it('says how to set one up when none has settings', () => {
    expect(renderChannelList('en', '/cs', new Map()).text).toContain('Type `/cs channel` in one');
  });

  it('stays within what Slack takes in one message, and says how many more there are', () => {
    const many = new Map(
      Array.from({ length: 300 }, (_, index) => [
        `C${String(index).padStart(4, '0')}`,
        {
          ...stored,
          settings: {
            ...stored.settings,
            askers: { users: Array.from({ length: 40 }, (_, u) => `U${u}`), groups: [] },
          },
        },
      ]),
    );
    const list = renderChannelList('en', '/cs', many);
    expect(list.blocks.length).toBeLessThanOrEqual(BLOCK_KIT.message.blocks);
    expect(JSON.stringify(list.blocks).length).toBeLessThanOrEqual(SERIALIZED_BLOCKS_BUDGET);
    const shown = list.text.split('\n')[1]?.split(', ').length ?? 0;
    expect(JSON.stringify(list.blocks)).toContain(`…and ${300 - shown} more channels.`);
  });
});
