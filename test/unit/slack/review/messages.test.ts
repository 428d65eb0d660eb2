import { describe, expect, it } from 'vitest';
import { t } from '../../../../src/slack/review/messages.js';

describe('review messages', () => {
  it('say how often only when a card was reported more than once, in both languages', () => {
    expect(t('en', 'card_disliked', { count: 1 })).toBe('👎 Answer disliked');
    expect(t('zh-CN', 'card_disliked', { count: 1 })).toBe('👎 回答被点踩');
    expect(t('en', 'card_unanswered', { count: 1234 })).toBe('❓ Unanswered question · asked 1,234 times');
    expect(t('zh-CN', 'card_unanswered', { count: 2 })).toBe('❓ 未能回答的问题 · 被问了 2 次');
  });
});
