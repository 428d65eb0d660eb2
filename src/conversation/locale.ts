// The core's languages, which config and the adapters take from here.
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

const HAN = /\p{Script=Han}/u;

/** Chinese if it has any Han character. */
export function localeOfText(text: string): Locale {
  return HAN.test(text) ? 'zh-CN' : 'en';
}
