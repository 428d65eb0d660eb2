// `/cs channel robot 2`: a setting's name without its colon is told as exactly that, with how to
// write it, rather than "`robot` is not a setting".
import { describe, expect, it } from 'vitest';
import { parseChannelCommand } from '../../../../src/slack/channels/command-parser.js';
import { renderChannelProblems } from '../../../../src/slack/channels/views.js';

function told(text: string, locale: 'en' | 'zh-CN' = 'en'): string {
  const parsed = parseChannelCommand(text);
  if (parsed.kind !== 'invalid') throw new Error(`expected problems, got ${JSON.stringify(parsed)}`);
  return renderChannelProblems(locale, '/cs', parsed.problems).text;
}

describe('a setting typed without its colon', () => {
  it('says the colon is missing, and shows the setting written with what followed it', () => {
    expect(told('robot 2')).toBe(
      '*Nothing was changed:*\n• `robot` needs a colon before its value: write `robot:2`.',
    );
    expect(told('Answer all')).toBe(
      '*Nothing was changed:*\n• `answer` needs a colon before its value: write `answer:all`.',
    );
    expect(told('lang')).toBe(
      '*Nothing was changed:*\n• `lang` needs a colon before its value: write `lang:…`.',
    );
  });

  it('keeps the other words and settings apart: one problem for the bare key, the rest as before', () => {
    const parsed = parseChannelCommand('escalate <@U1> <@U2> reply:thread');
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind !== 'invalid') return;
    expect(parsed.problems.map((problem) => [problem.reason, problem.key, problem.value])).toEqual([
      ['no-colon', 'escalate', '<@U1> <@U2>'],
    ]);
    // A word that is no setting at all is still "not a setting".
    expect(told('frob 2')).toContain('`frob` is not a setting');
  });

  it('says it in Chinese too', () => {
    expect(told('robot 2', 'zh-CN')).toContain('`robot` 与它的值之间需要冒号：请写成 `robot:2`。');
  });
});
