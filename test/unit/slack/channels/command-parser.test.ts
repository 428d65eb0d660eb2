// What an operator types after `/cs channel`, read into show, reset, a change, or what is wrong with it.
import { describe, expect, it } from 'vitest';
import { channelSettingsSchema } from '../../../../src/conversation/channel-settings.js';
import {
  type ChannelCommand,
  type ChannelCommandProblem,
  parseChannelCommand,
} from '../../../../src/slack/channels/command-parser.js';
import { renderChannelProblems } from '../../../../src/slack/channels/views.js';

function problemsOf(text: string): ChannelCommandProblem[] {
  const parsed = parseChannelCommand(text);
  if (parsed.kind !== 'invalid') throw new Error(`expected invalid, got ${JSON.stringify(parsed)}`);
  return parsed.problems;
}

/** What the operator reads of each problem (the catalog's English), typed with `command`. */
function toldOf(text: string, command = '/cs'): string[] {
  return renderChannelProblems('en', command, problemsOf(text)).text.split('\n').slice(1);
}

function changeOf(text: string): Extract<ChannelCommand, { kind: 'set' }>['change'] {
  const parsed = parseChannelCommand(text);
  if (parsed.kind !== 'set') throw new Error(`expected set, got ${JSON.stringify(parsed)}`);
  return parsed.change;
}

describe('parseChannelCommand: show and reset', () => {
  it.each(['', '   ', '\n'])('shows the channel it was typed in for %j', (text) => {
    expect(parseChannelCommand(text)).toEqual({ kind: 'show' });
  });

  it.each([
    ['<#C123|it-help>', 'C123'],
    ['<#C123>', 'C123'],
    ['C0123ABCD', 'C0123ABCD'],
    ['  G123  ', 'G123'],
  ])('shows another channel for %j', (text, channel) => {
    expect(parseChannelCommand(text)).toEqual({ kind: 'show', channel });
  });

  it('resets the channel it was typed in, or the one named first, in any case', () => {
    expect(parseChannelCommand('reset')).toEqual({ kind: 'reset' });
    expect(parseChannelCommand('RESET ')).toEqual({ kind: 'reset' });
    expect(parseChannelCommand('<#C123|it-help> reset')).toEqual({ kind: 'reset', channel: 'C123' });
  });

  it('refuses reset with anything after it: nothing is reset', () => {
    expect(problemsOf('reset robot:2')).toEqual([{ key: 'reset', reason: 'reset-alone', value: 'robot:2' }]);
    expect(toldOf('reset robot:2')).toEqual([expect.stringContaining('reset')]);
  });
});

describe('parseChannelCommand: the configured command', () => {
  it('is what its problems name where they show how to type it, never /cs', () => {
    const messages = [
      ...toldOf('reset robot:2', '/helpdesk'),
      ...toldOf('robot:2 answer:all <#C123|it-help>', '/helpdesk'),
    ];
    expect(messages).toEqual([
      '• `reset` takes nothing after it: `/helpdesk channel reset`.',
      expect.stringContaining('put it first, right after `/helpdesk channel`'),
    ]);
  });
});

describe('parseChannelCommand: setting', () => {
  it('reads the issue’s example, every key at once', () => {
    expect(
      parseChannelCommand(
        'robot:2 answer:questions reply:thread escalate:<!subteam^S123|@it-oncall> lang:auto',
      ),
    ).toEqual({
      kind: 'set',
      change: {
        robot: 2,
        answer: 'questions',
        reply: 'thread',
        escalate: { users: [], groups: ['S123'] },
        lang: 'auto',
      },
    });
  });

  it('sets another channel when it comes first', () => {
    expect(parseChannelCommand('<#C123|it-help> robot:2')).toEqual({
      kind: 'set',
      channel: 'C123',
      change: { robot: 2 },
    });
    expect(parseChannelCommand('G42 reply:ephemeral')).toEqual({
      kind: 'set',
      channel: 'G42',
      change: { reply: 'ephemeral' },
    });
  });

  it('leaves out the keys not typed', () => {
    expect(changeOf('answer:all')).toEqual({ answer: 'all' });
  });

  it('reads keys and the words of values in any case', () => {
    expect(changeOf('ANSWER:Questions Reply:EPHEMERAL Lang:ZH escalate:OFF askers:Anyone')).toEqual({
      answer: 'questions',
      reply: 'ephemeral',
      lang: 'zh',
      escalate: 'off',
      askers: 'anyone',
    });
  });

  it.each([
    ['robot:0', 0],
    ['robot:2', 2],
    ['robot:007', 7],
    ['robot:2147483647', 2 ** 31 - 1],
  ])('takes %s', (text, robot) => {
    expect(changeOf(text)).toEqual({ robot });
  });

  it('tolerates a space after the colon', () => {
    expect(changeOf('robot: 2 answer: all escalate: <@U1>')).toEqual({
      robot: 2,
      answer: 'all',
      escalate: { users: ['U1'], groups: [] },
    });
  });

  it('reads every form of people and groups, as ids only, each once', () => {
    expect(
      changeOf('escalate:<!subteam^S1|@a>,<@U2>,<!subteam^S3>,<@U4|dana>,S5,U6,W7,<@U2> askers:<@W8|eve>'),
    ).toEqual({
      escalate: { users: ['U2', 'U4', 'U6', 'W7'], groups: ['S1', 'S3', 'S5'] },
      askers: { users: ['W8'], groups: [] },
    });
  });

  it('reads a list that goes on as separate words up to the next key', () => {
    expect(changeOf('escalate:<!subteam^S1|@it-oncall> <@U2|bob> , U3 lang:en')).toEqual({
      escalate: { users: ['U2', 'U3'], groups: ['S1'] },
      lang: 'en',
    });
    expect(changeOf('askers:<@U1>, <@U2> robot:1')).toEqual({
      askers: { users: ['U1', 'U2'], groups: [] },
      robot: 1,
    });
  });

  it('keeps a label with a space in it inside its mention', () => {
    expect(changeOf('escalate:<!subteam^S1|@it on call>,<@U2|Ann Lee>')).toEqual({
      escalate: { users: ['U2'], groups: ['S1'] },
    });
  });

  it('gives only changes that read back as stored channel settings', () => {
    for (const text of [
      'robot:2 answer:questions reply:thread escalate:<!subteam^S123|@it-oncall> lang:auto',
      'escalate:off askers:<@U1>,S2',
      'askers:anyone robot:0',
    ]) {
      const change = changeOf(text);
      expect(channelSettingsSchema.parse(change)).toEqual(change);
    }
  });
});

describe('parseChannelCommand: what is wrong', () => {
  it.each([
    ['robot:-1', '-1'],
    ['robot:2.5', '2.5'],
    ['robot:abc', 'abc'],
    ['robot:+2', '+2'],
    ['robot:2147483648', '2147483648'],
    ['robot:99999999999999999999', '99999999999999999999'],
    ['robot:1e3', '1e3'],
    ['robot:2,3', '2 3'],
    ['robot:2 3', '2 3'],
    ['answer:always', 'always'],
    ['reply:dm', 'dm'],
    ['lang:fr', 'fr'],
    ['lang:zh-CN', 'zh-CN'],
  ])('names the key and what it takes for %s', (text, value) => {
    const [key] = text.split(':');
    expect(problemsOf(text)).toEqual([{ key, reason: 'bad-value', value }]);
    expect(toldOf(text)).toEqual([expect.stringMatching(new RegExp(`^• \`${key}\` takes `))]);
  });

  it('says what each key takes', () => {
    expect(toldOf('robot:x')[0]).toContain('a whole number from 0 to 2147483647');
    expect(toldOf('answer:x')[0]).toContain('`mention`, `questions` or `all`');
    expect(toldOf('reply:x')[0]).toContain('`thread` or `ephemeral`');
    expect(toldOf('lang:x')[0]).toContain('`auto`, `en` or `zh`');
    expect(toldOf('escalate:x')[0]).toContain('or `off`');
    expect(toldOf('askers:x')[0]).toContain('or `anyone`');
  });

  it.each([
    ['escalate:bob', 'bob'],
    ['escalate:<#C1|general>', '<#C1|general>'],
    ['escalate:<!here>', '<!here>'],
    ['escalate:<@U1> bob', 'bob'],
    ['escalate:u123', 'u123'],
    ['escalate:<@U1>x', '<@U1>x'],
    ['askers:<!subteam^s1>', '<!subteam^s1>'],
    ['askers:everyone', 'everyone'],
  ])('refuses %s, naming the item that is not a person or group', (text, value) => {
    const [key] = text.split(':');
    expect(problemsOf(text)).toEqual([{ key, reason: 'bad-value', value }]);
  });

  it('refuses off or anyone beside people', () => {
    expect(problemsOf('escalate:off,<@U1>')).toEqual([
      expect.objectContaining({ key: 'escalate', reason: 'bad-value', value: 'off <@U1>' }),
    ]);
    expect(problemsOf('askers:<@U1> anyone')).toEqual([
      expect.objectContaining({ key: 'askers', reason: 'bad-value' }),
    ]);
  });

  it('refuses an empty escalate, saying to use off; an empty askers, saying to use anyone', () => {
    expect(problemsOf('escalate:')).toEqual([{ key: 'escalate', reason: 'empty', value: '' }]);
    expect(toldOf('escalate:')).toEqual([expect.stringContaining('escalate:off')]);
    expect(problemsOf('escalate: lang:en')).toEqual([
      expect.objectContaining({ key: 'escalate', reason: 'empty' }),
    ]);
    expect(problemsOf('escalate:,')).toEqual([expect.objectContaining({ key: 'escalate', reason: 'empty' })]);
    expect(problemsOf('askers:')).toEqual([{ key: 'askers', reason: 'empty', value: '' }]);
    expect(toldOf('askers:')).toEqual([expect.stringContaining('askers:anyone')]);
    expect(problemsOf('robot:')).toEqual([{ key: 'robot', reason: 'empty', value: '' }]);
    expect(toldOf('robot:')).toEqual([expect.stringContaining('whole number')]);
  });

  it('names an unknown key and lists the known ones', () => {
    expect(problemsOf('robot:2 colour:blue')).toEqual([
      { key: 'colour', reason: 'unknown-key', value: 'blue' },
    ]);
    expect(toldOf('robot:2 colour:blue')).toEqual([
      expect.stringContaining('robot, answer, reply, escalate, askers or lang'),
    ]);
    // Its words are its own, not further problems.
    expect(problemsOf('escalte:<@U1> <@U2>')).toEqual([expect.objectContaining({ key: 'escalte' })]);
  });

  it('refuses a key given twice, once however often it is repeated', () => {
    expect(problemsOf('robot:2 lang:en ROBOT:3 robot:4')).toEqual([
      expect.objectContaining({ key: 'robot', reason: 'duplicate', value: '3' }),
    ]);
    expect(problemsOf('escalate:<@U1> escalate:<@U2> <@U3>')).toEqual([
      expect.objectContaining({ key: 'escalate', reason: 'duplicate' }),
    ]);
  });

  it('refuses words that are not key:value, and a channel anywhere but first', () => {
    // A setting's name without its colon is one problem of its own (no-colon.test.ts).
    expect(problemsOf('robot 2')).toEqual([
      expect.objectContaining({ key: 'robot', reason: 'no-colon', value: '2' }),
    ]);
    expect(problemsOf('frob 2')).toEqual([
      expect.objectContaining({ key: 'frob', reason: 'not-understood', value: 'frob' }),
      expect.objectContaining({ key: '2', reason: 'not-understood' }),
    ]);
    expect(problemsOf('robot:2 <#C123|it-help>')).toEqual([
      expect.objectContaining({ key: '<#C123|it-help>', reason: 'not-understood', value: '<#C123|it-help>' }),
    ]);
    expect(problemsOf('escalate:<@U1> C123')).toEqual([
      expect.objectContaining({ key: 'C123', reason: 'not-understood' }),
    ]);
    expect(toldOf('escalate:<@U1> C123')).toEqual([expect.stringContaining('first')]);
    expect(problemsOf('show <#C123|it-help>')).toEqual([
      expect.objectContaining({ key: 'show', reason: 'not-understood' }),
      expect.objectContaining({ key: '<#C123|it-help>', reason: 'not-understood' }),
    ]);
    expect(toldOf('show <#C123|it-help>')[1]).toContain('put it first');
    expect(problemsOf('<#C1> <#C2> robot:1')).toEqual([
      expect.objectContaining({ key: '<#C2>', reason: 'not-understood' }),
    ]);
  });

  it('says a #channel, @person or @group that arrived as plain text was not one Slack recognised', () => {
    // Slack escapes the names it knows (should_escape); what arrives as typed is one it did not.
    expect(problemsOf('#it-help escalate:@it-oncall askers:<@U1|alice>,@nobody')).toEqual([
      expect.objectContaining({ reason: 'unresolved', value: '#it-help' }),
      expect.objectContaining({ reason: 'unresolved', value: '@it-oncall' }),
      expect.objectContaining({ reason: 'unresolved', value: '@nobody' }),
    ]);
    const [channel, group] = toldOf('#it-help escalate:@it-oncall askers:<@U1|alice>,@nobody');
    expect(channel).toContain('`#it-help` arrived as plain text, not as a channel Slack recognised');
    expect(group).toContain('not as a person or user group Slack recognised');
    // Escaped, the same names are read by their ids.
    expect(
      parseChannelCommand(
        '<#C0ITHELP|it-help> escalate:<!subteam^S0ITONCALL|it-oncall> askers:<@U0ALICE|alice>',
      ),
    ).toEqual({
      kind: 'set',
      channel: 'C0ITHELP',
      change: {
        escalate: { users: [], groups: ['S0ITONCALL'] },
        askers: { users: ['U0ALICE'], groups: [] },
      },
    });
  });

  it('changes nothing when any pair is bad, and reports every problem in the order typed', () => {
    expect(
      problemsOf('robot:-1 answer:all lang:fr colour:red reply:thread').map((found) => found.key),
    ).toEqual(['robot', 'lang', 'colour']);
  });
});
