// Moments as people read them, one way everywhere (cards, settings, the escalation line, the Home, the
// edit modal): Slack's date token, which each reader sees in their own zone, with a fallback people
// read ("25 Nov 2026, 14:05"), never ISO UTC.
import type { Locale } from '../../conversation/locale.js';

const FORMAT_OPTIONS: Record<Locale, Intl.DateTimeFormatOptions> = {
  en: {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  },
  'zh-CN': {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  },
};
/** The day-month order people read in each language (en-US would put the month first). */
const FORMAT_LOCALE: Record<Locale, string> = { en: 'en-GB', 'zh-CN': 'zh-CN' };

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(locale: Locale, zone: string, withZoneName: boolean): Intl.DateTimeFormat {
  const key = `${locale} ${zone} ${withZoneName}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(FORMAT_LOCALE[locale], {
      ...FORMAT_OPTIONS[locale],
      timeZone: zone,
      ...(withZoneName ? { timeZoneName: 'short' } : {}),
    });
    // Zones come from Slack's users (some hundreds at most); the bound only guards against a flood.
    if (formats.size < 2_000) formats.set(key, format);
  }
  return format;
}

/**
 * A moment in one viewer's zone, as they read it ("25 Nov 2026, 14:05"); without a zone (Slack did
 * not say one), in UTC and saying so. Empty for an impossible time.
 */
function viewerTime(ms: number | undefined, locale: Locale, zone: string | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || Number.isNaN(new Date(ms).getTime())) return '';
  return zone === undefined
    ? formatIn(locale, 'UTC', true).format(ms)
    : formatIn(locale, zone, false).format(ms);
}

/**
 * A moment as any reader sees it: Slack's token shows each their own zone. The fallback, for clients
 * that cannot format it, is in `zone` where one reader is known (a modal, the Home), else in UTC,
 * saying so. Empty for an impossible time.
 */
export function sharedTime(ms: number | undefined, locale: Locale, zone?: string): string {
  // A UTC fallback always says it is UTC, whether the zone was unknown or is UTC.
  const fallback = viewerTime(ms, locale, zone === 'UTC' ? undefined : zone);
  if (ms === undefined || fallback === '') return '';
  return dateToken(ms, fallback);
}

/** Slack's date token: each reader sees `ms` in their own zone; `fallback` (mrkdwn) where it cannot be formatted. */
function dateToken(ms: number, fallback: string): string {
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${fallback}>`;
}
