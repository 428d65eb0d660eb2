// Moments as Slack's date token, which each reader sees in their own zone, with a readable fallback
// ("25 Nov 2026, 14:05"), never ISO UTC.
import type { Locale } from '../../conversation/locale.js';

const MONTH: Record<Locale, 'short' | 'long'> = { en: 'short', 'zh-CN': 'long' };
/** en-US would put the month first. */
const FORMAT_LOCALE: Record<Locale, string> = { en: 'en-GB', 'zh-CN': 'zh-CN' };

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(locale: Locale, zone: string, withZoneName: boolean): Intl.DateTimeFormat {
  const key = `${locale} ${zone} ${withZoneName}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(FORMAT_LOCALE[locale], {
      day: 'numeric',
      month: MONTH[locale],
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: zone,
      ...(withZoneName ? { timeZoneName: 'short' } : {}),
    });
    // Zones come from Slack's users; the bound only guards against a flood.
    if (formats.size < 2_000) formats.set(key, format);
  }
  return format;
}

/**
 * The fallback, for clients that cannot format the token, is in `zone` where one reader is known (a
 * modal, the Home), else in UTC, saying so. Empty for an impossible time.
 */
export function sharedTime(ms: number | undefined, locale: Locale, zone?: string): string {
  if (ms === undefined || !Number.isFinite(ms) || Number.isNaN(new Date(ms).getTime())) return '';
  const fallback =
    zone === undefined || zone === 'UTC'
      ? formatIn(locale, 'UTC', true).format(ms)
      : formatIn(locale, zone, false).format(ms);
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${fallback}>`;
}
