import { describe, expect, it } from 'vitest';
import type { LOCALES } from '../../../../src/conversation/locale.js';
import { localeFromSlack, type MessageKey, t } from '../../../../src/slack/kit/i18n.js';

describe('t', () => {
  it('speaks both languages', () => {
    expect(t('en', 'try_again')).toBe('Try again');
    expect(t('zh-CN', 'try_again')).toBe('重试');
  });

  it('fills in placeholders', () => {
    expect(t('en', 'question_too_long', { limit: 1000 })).toContain('1000');
    expect(t('zh-CN', 'question_too_long', { limit: 1000 })).toContain('1000');
    expect(t('en', 'rated_up', { user: '<@U1>' })).toBe('<@U1> rated this answer 👍 helpful');
    expect(t('en', 'asked', { name: 'Ann', question: 'Why?' })).toBe('Ann asked: Why?');
  });

  it('has the same placeholders in every language', () => {
    const keys = ['help', 'question_too_long', 'rated_up', 'rated_down', 'asked', 'demo_marker'] as const;
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const key of keys satisfies readonly MessageKey[]) {
      const raw = (locale: (typeof LOCALES)[number]) =>
        key === 'question_too_long'
          ? t(locale, key, { limit: '{limit}' })
          : key === 'rated_up' || key === 'rated_down'
            ? t(locale, key, { user: '{user}' })
            : key === 'asked'
              ? t(locale, key, { name: '{name}', question: '{question}' })
              : t(locale, key);
      expect(placeholders(raw('zh-CN'))).toEqual(placeholders(raw('en')));
    }
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
});

describe('localeFromSlack', () => {
  it.each([
    ['zh-CN', 'zh-CN'],
    ['zh_CN', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['en', 'en'],
  ] as const)('maps %s to %s', (slack, expected) => {
    expect(localeFromSlack(slack, 'en')).toBe(expected);
    expect(localeFromSlack(slack, 'zh-CN')).toBe(expected);
  });

  it.each(['zh-TW', 'zh-HK', 'zh-Hant', 'zh_Hant_TW', 'ja-JP', 'fr-FR', '', undefined])(
    'gives the workspace default for %s',
    (slack) => {
      expect(localeFromSlack(slack, 'en')).toBe('en');
      expect(localeFromSlack(slack, 'zh-CN')).toBe('zh-CN');
    },
  );
});
