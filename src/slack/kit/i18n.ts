// ICU MessageFormat behind a t() whose arguments the compiler reads from the English text. Values are
// inserted as given, so callers escape anything user-supplied before it goes into mrkdwn.
import { type Formatters, IntlMessageFormat } from 'intl-messageformat';
import type { Locale } from '../../conversation/locale.js';
import type { Placement } from '../../conversation/types.js';

type Texts = Readonly<Record<string, string>>;

// ICU at the type level: braces at even depth are arguments, at odd depth a plural's or select's cases.
// The catalogs use no quoted (literal) braces, which it does not read.
type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;

type IsEven<D extends readonly unknown[]> = D extends readonly []
  ? true
  : D extends readonly [unknown, unknown, ...infer R]
    ? IsEven<R>
    : false;

type Pop<D extends readonly unknown[]> = D extends readonly [unknown, ...infer R] ? R : [];

/** A bare `{name}` is inserted as text, so it takes either. */
type ValueOf<Kind extends string> = Kind extends 'number' | 'plural' | 'selectordinal'
  ? number
  : Kind extends 'select'
    ? string
    : Kind extends 'date' | 'time'
      ? Date | number
      : string | number;

/** `count, plural, one {` → { count: number }. */
type Argument<After extends string> = After extends `${infer Head}}${string}`
  ? (Head extends `${infer Header}{${string}` ? Header : Head) extends `${infer Name},${infer Rest}`
    ? Record<Trim<Name>, ValueOf<Trim<Rest extends `${infer Kind},${string}` ? Kind : Rest>>>
    : Record<Trim<Head>, ValueOf<''>>
  : never;

type Arguments<
  S extends string,
  D extends readonly unknown[] = [],
  Found = unknown,
> = S extends `${infer Before}{${infer After}`
  ? Before extends `${string}}${infer Tail}`
    ? Arguments<`${Tail}{${After}`, Pop<D>, Found>
    : Arguments<After, [...D, 0], IsEven<D> extends true ? Found & Argument<After> : Found>
  : Found;

type Params<S extends string> =
  Arguments<S> extends infer Found
    ? unknown extends Found
      ? never
      : { [K in keyof Found]: Found[K] }
    : never;

type Values = Readonly<Record<string, string | number | Date>>;

/** Only a catalog widened to plain records (the tests' loop over every key) takes any values. */
type ParamsArgument<S extends string> = string extends S
  ? [params?: Values]
  : [Params<S>] extends [never]
    ? []
    : [params: Params<S>];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

type Agreeing<En extends Texts, Zh> = {
  [K in keyof Zh]: K extends keyof En
    ? Zh[K] extends string
      ? Same<Params<En[K]>, Params<Zh[K]>> extends true
        ? Zh[K]
        : never
      : never
    : never;
};

export interface Catalog<En extends Texts> {
  readonly en: En;
  readonly 'zh-CN': Readonly<Record<keyof En, string>>;
}

/** `'a' + 'b'` is typed `string`, whose arguments the compiler cannot read: a type error at its key. */
type Literal<En extends Texts> = { [K in keyof En]: string extends En[K] ? never : En[K] };

export function catalog<const En extends Texts, const Zh extends Record<keyof En, string>>(
  en: En & Literal<En>,
  zhCN: Zh & Agreeing<En, Zh>,
): Catalog<En> {
  return { en, 'zh-CN': zhCN };
}

export type Translate<En extends Texts> = <K extends keyof En & string>(
  locale: Locale,
  key: K,
  ...params: ParamsArgument<En[K]>
) => string;

function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

/** FormatJS's default memoizes with a JSON.stringify of the arguments on every call; ours key by locale. */
const formatters: Formatters = {
  getNumberFormat: (locales, options) =>
    cached(
      numberFormats,
      `${String(locales)} ${options === undefined ? '' : JSON.stringify(options)}`,
      () => new Intl.NumberFormat(locales, options),
    ),
  getDateTimeFormat: (locales, options) =>
    cached(
      dateTimeFormats,
      `${String(locales)} ${JSON.stringify(options ?? {})}`,
      () => new Intl.DateTimeFormat(locales, options),
    ),
  getPluralRules: (locales, options) =>
    cached(
      pluralRules,
      `${String(locales)} ${options?.type ?? 'cardinal'}`,
      () => new Intl.PluralRules(locales, options),
    ),
};

export function translator<En extends Texts>(messages: Catalog<En>): Translate<En> {
  // Parsed once, on first use: the answer path calls t() on every answer.
  const compiled: Record<Locale, Map<string, IntlMessageFormat>> = { en: new Map(), 'zh-CN': new Map() };
  function t<K extends keyof En & string>(locale: Locale, key: K, ...params: ParamsArgument<En[K]>): string;
  function t(locale: Locale, key: keyof En & string, params?: Values): string {
    const format = cached(
      compiled[locale],
      key,
      // ignoreTag: `<groupId>` and Slack's `<@U1>` are text here, not FormatJS rich-text tags.
      () => new IntlMessageFormat(messages[locale][key], locale, undefined, { ignoreTag: true, formatters }),
    );
    const text = format.format<string>(params);
    return Array.isArray(text) ? text.join('') : text;
  }
  return t;
}

/** Traditional Chinese gets the workspace default: Simplified text is not what those readers chose. */
export function localeFromSlack(slackLocale: string | undefined, fallback: Locale): Locale {
  const tag = (slackLocale ?? '').trim().replace(/_/g, '-').toLowerCase();
  if (tag === 'en' || tag.startsWith('en-')) return 'en';
  if ((tag === 'zh' || tag.startsWith('zh-')) && !/^zh-(hant|tw|hk|mo)(-|$)/.test(tag)) return 'zh-CN';
  return fallback;
}

/** A place with a language of its own speaks it to everybody there; `auto`: undefined, each reader's own. */
export function placeLocale(language: Placement['language']): Locale | undefined {
  return language === 'auto' ? undefined : language;
}
