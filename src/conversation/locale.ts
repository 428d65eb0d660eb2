// The languages the app speaks to users: the core's vocabulary, which config and the adapters take from here.
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
