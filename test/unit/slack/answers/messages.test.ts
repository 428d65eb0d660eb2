import { describe, expect, it } from 'vitest';
import { throttledNotice } from '../../../../src/slack/answers/answerer.js';
import { messages, t } from '../../../../src/slack/answers/messages.js';
import { messages as assistantMessages } from '../../../../src/slack/assistant/messages.js';
import { failureText, failureWording } from '../../../../src/slack/kit/failure-wording.js';

describe('t', () => {
  it('speaks both languages', () => {
    expect(t('en', 'try_again')).toBe('Try again');
    expect(t('zh-CN', 'try_again')).toBe('重试');
  });

  it('fills in placeholders', () => {
    expect(t('en', 'question_too_long', { limit: 1000 })).toContain('1,000');
    expect(t('zh-CN', 'question_too_long', { limit: 1000 })).toContain('1,000');
    expect(t('en', 'rated_up', { user: '<@U1>' })).toBe('<@U1> rated this answer 👍 helpful');
    expect(t('en', 'asked', { name: 'Ann', question: 'Why?' })).toBe('Ann asked: Why?');
  });

  it('tells people how to ask, click and rate', () => {
    expect(t('en', 'help')).toMatch(/direct message/);
    expect(t('en', 'help')).toMatch(/mention/);
    expect(t('en', 'help')).toMatch(/👍/);
    expect(t('zh-CN', 'help')).toMatch(/私信/);
  });

  it('addresses people as 你, not the formal 您, in Chinese', () => {
    const formal = [messages, assistantMessages, failureWording].flatMap((catalog) =>
      Object.entries(catalog['zh-CN']).filter(([, text]) => text.includes('您')),
    );
    expect(formal).toEqual([]);
  });

  it('says a failed rating was not recorded, and why', () => {
    const reason = failureText('en', 'unavailable');
    expect(t('en', 'rating_not_recorded', { reason })).toBe(`Your rating was not recorded: ${reason}`);
    expect(t('zh-CN', 'rating_not_recorded', { reason: '问答服务暂时不可用' })).toContain('没有保存');
  });

  it('tells a person over a limit, in their language, when they can ask again', () => {
    expect(throttledNotice('en', 'user', 1).text).toBe(
      'You have asked many questions just now, more than I can take. You can ask again in 1 second.',
    );
    expect(throttledNotice('en', 'channel', 42_300).text).toBe(
      'Many questions were asked in this channel just now, more than I can take. You can ask again in 43 seconds.',
    );
    // Past a minute and a half, in minutes, rounded up.
    expect(throttledNotice('en', 'user', 10 * 60_000 - 500).text).toContain(
      'You can ask again in 10 minutes.',
    );
    expect(throttledNotice('zh-CN', 'user', 30_000).text).toBe(
      '你刚才的提问太多了，我一时处理不过来。请 30 秒后再问。',
    );
    expect(throttledNotice('en', 'channel', 120_000).text).toBe(
      'Many questions were asked in this channel just now, more than I can take. You can ask again in 2 minutes.',
    );
    expect(throttledNotice('zh-CN', 'user', 150_000).text).toBe(
      '你刚才的提问太多了，我一时处理不过来。请 3 分钟后再问。',
    );
    expect(throttledNotice('zh-CN', 'channel', 120_000).text).toContain('这个频道');
    expect(throttledNotice('zh-CN', 'channel', 120_000).text).toContain('2 分钟后再问');
  });
});
