import { describe, expect, it } from 'vitest';
import { questionFromSlackText, unlabelledMentions } from '../../../../src/slack/answers/question-text.js';

const options = { botUserId: 'UBOT' };

describe('questionFromSlackText', () => {
  it('removes the app mention', () => {
    expect(questionFromSlackText('<@UBOT> 怎么退款？', options)).toBe('怎么退款？');
    expect(questionFromSlackText('怎么退款 <@UBOT>', options)).toBe('怎么退款');
  });

  it('names other users by resolved name, by label, else by id', () => {
    const resolveUser = (id: string) => (id === 'U1' ? 'Ann' : undefined);
    expect(questionFromSlackText('ask <@U1> or <@U2|bob> or <@U3>', { ...options, resolveUser })).toBe(
      'ask @Ann or @bob or @U3',
    );
  });

  it('keeps every mention when the bot id is unknown', () => {
    expect(questionFromSlackText('<@UBOT> hi', { botUserId: undefined })).toBe('@UBOT hi');
  });

  it('turns channels, special mentions, user groups and dates into their visible text', () => {
    expect(questionFromSlackText('in <#C1|general> and <#C2>', options)).toBe('in #general and #C2');
    expect(questionFromSlackText('<!here> <!channel> <!everyone>', options)).toBe('@here @channel @everyone');
    expect(questionFromSlackText('<!subteam^S1|@support> help', options)).toBe('@support help');
    expect(questionFromSlackText('due <!date^1392734382^{date_short}|Feb 18, 2014>', options)).toBe(
      'due Feb 18, 2014',
    );
  });

  it('writes links as their label and URL, or the URL alone', () => {
    expect(questionFromSlackText('see <https://x.example.com/a?b=1&amp;c=2|the docs>', options)).toBe(
      'see the docs (https://x.example.com/a?b=1&c=2)',
    );
    expect(questionFromSlackText('see <https://x.example.com>', options)).toBe('see https://x.example.com');
    expect(questionFromSlackText('see <http://example.com|example.com>', options)).toBe('see example.com');
    expect(questionFromSlackText('mail <mailto:a@b.com|a@b.com> or <mailto:c@d.com>', options)).toBe(
      'mail a@b.com or c@d.com',
    );
  });

  it('decodes &amp; &lt; &gt; exactly once', () => {
    expect(questionFromSlackText('a &lt; b &amp;&amp; c &gt; d', options)).toBe('a < b && c > d');
    expect(questionFromSlackText('literal &amp;lt; stays', options)).toBe('literal &lt; stays');
  });

  it('collapses whitespace per line, keeps lines, removes zero-width characters', () => {
    expect(questionFromSlackText('  第一行\u200B   问题 \n\n\n\n  第二行\t\t末尾  ', options)).toBe(
      '第一行 问题\n\n第二行 末尾',
    );
  });

  it('is empty for a bare mention', () => {
    expect(questionFromSlackText('<@UBOT>', options)).toBe('');
    expect(questionFromSlackText('  <@UBOT>  \u200B ', options)).toBe('');
  });
});

describe('unlabelledMentions', () => {
  it('lists each user mentioned without a label once, never the app', () => {
    expect(unlabelledMentions('<@UBOT> ask <@U1> and <@U2>, cc <@U1>', 'UBOT')).toEqual(['U1', 'U2']);
  });

  it('leaves out labelled mentions, channels and special mentions, whose text is already readable', () => {
    expect(unlabelledMentions('<@U1|sam> in <#C1|general> <!here> <https://x.test>', 'UBOT')).toEqual([]);
  });
});
