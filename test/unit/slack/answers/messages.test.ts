import { describe, expect, it } from 'vitest';
import { messages, t } from '../../../../src/slack/answers/messages.js';
import { messages as assistantMessages } from '../../../../src/slack/assistant/messages.js';

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

  it('asks to try again in every failure message', () => {
    const failures = [
      'failure_robot_unavailable',
      'failure_robot_timeout',
      'failure_robot_rejected',
      'failure_robot_malformed',
      'failure_store_unavailable',
      'failure_internal',
    ] as const;
    for (const key of failures) {
      expect(t('en', key)).toMatch(/try again/i);
      expect(t('zh-CN', key)).toMatch(/再试|重试/);
    }
  });

  it('addresses people as 你, not the formal 您, in Chinese', () => {
    const formal = [messages, assistantMessages].flatMap((catalog) =>
      Object.entries(catalog['zh-CN']).filter(([, text]) => text.includes('您')),
    );
    expect(formal).toEqual([]);
  });

  it('says a failed rating was not recorded, and why', () => {
    const reason = t('en', 'failure_robot_unavailable');
    expect(t('en', 'rating_not_recorded', { reason })).toBe(`Your rating was not recorded: ${reason}`);
    expect(t('zh-CN', 'rating_not_recorded', { reason: '问答服务暂时不可用' })).toContain('没有保存');
  });
});
