import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../../src/conversation/locale.js';
import { messages as access } from '../../../../src/slack/access/messages.js';
import { messages as answers } from '../../../../src/slack/answers/messages.js';
import { messages as assistant } from '../../../../src/slack/assistant/messages.js';
import { messages as channels } from '../../../../src/slack/channels/messages.js';
import { messages as desk } from '../../../../src/slack/desk/messages.js';
import { messages as handling } from '../../../../src/slack/handling/messages.js';
import { messages as home } from '../../../../src/slack/home/messages.js';
import { type Catalog, catalog, localeFromSlack, translator } from '../../../../src/slack/kit/i18n.js';
import { messages as review } from '../../../../src/slack/review/messages.js';
import { messages as setup } from '../../../../src/slack/setup/messages.js';

// Read as plain records: the loops below go over every key, whose values the compiler cannot know.
const rooms: Readonly<Record<string, Catalog<Readonly<Record<string, string>>>>> = {
  access,
  answers,
  assistant,
  channels,
  desk,
  handling,
  home,
  review,
  setup,
};

/** Every argument a message takes, with its ICU type; a select also with its cases. */
function argumentsOf(elements: readonly MessageFormatElement[], found = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        found.add(`${element.value}: ${TYPE[element.type]}`);
        break;
      case TYPE.plural:
        found.add(`${element.value}: ${element.pluralType === 'ordinal' ? 'selectordinal' : 'plural'}`);
        for (const option of Object.values(element.options)) argumentsOf(option.value, found);
        break;
      case TYPE.select:
        found.add(`${element.value}: select ${Object.keys(element.options).sort().join('|')}`);
        for (const option of Object.values(element.options)) argumentsOf(option.value, found);
        break;
      case TYPE.tag:
        argumentsOf(element.children, found);
        break;
      default:
        break;
    }
  }
  return found;
}

const argumentsOfText = (text: string) => [...argumentsOf(parse(text, { ignoreTag: true }))].sort();

/** Sample values: text shows where it went, numbers are big enough to be grouped. */
function sampleValues(text: string): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const argument of argumentsOfText(text)) {
    const [name = '', kind = ''] = argument.split(': ');
    values[name] = /^(number|plural|selectordinal)$/.test(kind)
      ? 12345
      : kind.startsWith('select')
        ? 'x'
        : `«${name}»`;
  }
  return values;
}

const everyMessage = Object.entries(rooms).flatMap(([room, messages]) =>
  Object.keys(messages.en).map((key) => ({
    room,
    key,
    t: translator(messages),
    en: messages.en[key] ?? '',
    zh: messages['zh-CN'][key] ?? '',
  })),
);

describe('the catalogs', () => {
  it('give every key the same arguments in both languages, and each argument the same ICU type', () => {
    const disagreeing = everyMessage.filter(({ en, zh }) => {
      return JSON.stringify(argumentsOfText(en)) !== JSON.stringify(argumentsOfText(zh));
    });
    expect(disagreeing.map(({ room, key }) => `${room}/${key}`)).toEqual([]);
  });

  it('would notice a Chinese message that drops an argument or changes its type', () => {
    const en = '{count, plural, one {# ticket} other {# tickets}} in {zone}';
    expect(argumentsOfText('共 {count, plural, other {# 个工单}}')).not.toEqual(argumentsOfText(en));
    expect(argumentsOfText('共 {count} 个工单，时区 {zone}')).not.toEqual(argumentsOfText(en));
    expect(argumentsOfText('共 {count, plural, other {# 个工单}}，时区 {zone}')).toEqual(argumentsOfText(en));
  });

  it('keep each key in one room', () => {
    const keys = everyMessage.map(({ key }) => key);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('render every message with no ICU syntax left over', () => {
    for (const { room, key, t, ...texts } of everyMessage) {
      for (const locale of LOCALES) {
        const text = locale === 'en' ? texts.en : texts.zh;
        const output = t(locale, key, sampleValues(text));
        expect(output, `${room}/${key} (${locale})`).not.toMatch(/[{}]|, (plural|select|number)\b/);
        expect(output, `${room}/${key} (${locale})`).not.toMatch(/#/);
      }
    }
  });

  it('render every message without plural, select or number as plain substitution did before ICU', () => {
    // The old t() replaced each {name} and nothing else: apostrophes ("couldn't"), `<groupId>` and
    // Markdown must come out of FormatJS unchanged.
    const plain = /^[^{}]*(\{\w+\}[^{}]*)*$/;
    let compared = 0;
    for (const { room, key, t, ...texts } of everyMessage) {
      for (const locale of LOCALES) {
        const text = locale === 'en' ? texts.en : texts.zh;
        if (!plain.test(text)) continue;
        compared += 1;
        const values: Record<string, string> = {};
        for (const match of text.matchAll(/\{(\w+)\}/g)) values[match[1] ?? ''] = `«${match[1]}»`;
        const before = text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
        expect(t(locale, key, values), `${room}/${key} (${locale})`).toBe(before);
      }
    }
    expect(compared).toBeGreaterThan(400);
  });
});

describe('translator', () => {
  const t = translator(
    catalog(
      { tickets: '{count, plural, one {# ticket} other {# tickets}} in {zone}', quote: "couldn't '{x}'" },
      { tickets: '{count, plural, other {# 个工单}}，时区 {zone}', quote: '无法 {x}' },
    ),
  );

  it('chooses the plural and groups the number per locale', () => {
    expect(t('en', 'tickets', { count: 1, zone: 'UTC' })).toBe('1 ticket in UTC');
    expect(t('en', 'tickets', { count: 12345, zone: 'UTC' })).toBe('12,345 tickets in UTC');
    expect(t('zh-CN', 'tickets', { count: 1, zone: 'UTC' })).toBe('1 个工单，时区 UTC');
    expect(t('zh-CN', 'tickets', { count: 12345, zone: 'UTC' })).toBe('12,345 个工单，时区 UTC');
  });

  it('reads an apostrophe before a brace as ICU quoting, which is why the catalogs use none', () => {
    expect(t('en', 'quote', { x: 'y' })).toBe("couldn't {x}");
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
