// Slack's date token (`<!date^1700000000^{date_short_pretty} {time}|fallback>`) as Slack's clients draw
// it: in the reader's own time zone and language. Pure (no DOM), so it is tested in Node.

export interface DateReader {
  /** The reader's Slack time zone (users.info `tz`). */
  timeZone: string;
  /** The page's language for the reader: `en-US` or `zh-CN`. */
  locale: string;
  now: Date;
}

type Parts = Record<'year' | 'month' | 'day' | 'weekday' | 'monthName' | 'monthShort', string>;

function partsOf(moment: Date, reader: DateReader): Parts {
  const read = (options: Intl.DateTimeFormatOptions): Record<string, string> =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: reader.timeZone, ...options })
        .formatToParts(moment)
        .map((part) => [part.type, part.value]),
    );
  const numeric = read({ year: 'numeric', month: '2-digit', day: '2-digit' });
  return {
    year: numeric.year ?? '',
    month: numeric.month ?? '',
    day: numeric.day ?? '',
    weekday: read({ weekday: 'long' }).weekday ?? '',
    monthName: read({ month: 'long' }).month ?? '',
    monthShort: read({ month: 'short' }).month ?? '',
  };
}

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

const PRETTY_DAYS: Record<string, [string, string, string]> = {
  'en-US': ['Yesterday', 'Today', 'Tomorrow'],
  'zh-CN': ['昨天', '今天', '明天'],
};

/** "Today", "Yesterday" or "Tomorrow" in the reader's zone, else undefined. */
function prettyDay(moment: Date, reader: DateReader): string | undefined {
  const dayNumber = (parts: Parts) =>
    Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
  const offset = Math.round(
    (dayNumber(partsOf(moment, reader)) - dayNumber(partsOf(reader.now, reader))) / 86_400_000,
  );
  const names = PRETTY_DAYS[reader.locale] ?? PRETTY_DAYS['en-US'];
  return offset >= -1 && offset <= 1 ? names?.[offset + 1] : undefined;
}

function dateText(kind: 'date' | 'date_short' | 'date_long', parts: Parts, locale: string): string {
  const day = Number(parts.day);
  if (locale === 'zh-CN') {
    const date = `${parts.year}年${Number(parts.month)}月${day}日`;
    if (kind !== 'date_long') return date;
    return `${date}${new Intl.DateTimeFormat('zh-CN', { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(Number(parts.year), Number(parts.month) - 1, day))}`;
  }
  if (kind === 'date_short') return `${parts.monthShort} ${day}, ${parts.year}`;
  const date = `${parts.monthName} ${ordinal(day)}, ${parts.year}`;
  return kind === 'date_long' ? `${parts.weekday}, ${date}` : date;
}

function timeText(moment: Date, reader: DateReader, seconds: boolean): string {
  return new Intl.DateTimeFormat(reader.locale, {
    timeZone: reader.timeZone,
    hour: 'numeric',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
  })
    .format(moment)
    .replace(/\s/g, ' ');
}

/**
 * The token's text for the reader, or undefined when its format holds a token Slack knows and the page
 * does not (the fallback is shown then, as an old client would).
 */
export function formatSlackDate(
  epochSeconds: number,
  format: string,
  reader: DateReader,
): string | undefined {
  if (!Number.isFinite(epochSeconds)) return undefined;
  const moment = new Date(epochSeconds * 1000);
  const parts = partsOf(moment, reader);
  let unknown = false;
  const text = format.replace(/\{([a-z_]+)\}/g, (whole, token: string) => {
    switch (token) {
      case 'date_num':
        return `${parts.year}-${parts.month}-${parts.day}`;
      case 'date':
      case 'date_short':
      case 'date_long':
        return dateText(token, parts, reader.locale);
      case 'date_pretty':
      case 'date_short_pretty':
      case 'date_long_pretty':
        return (
          prettyDay(moment, reader) ??
          dateText(token.replace('_pretty', '') as 'date' | 'date_short' | 'date_long', parts, reader.locale)
        );
      case 'time':
        return timeText(moment, reader, false);
      case 'time_secs':
        return timeText(moment, reader, true);
      default:
        unknown = true;
        return whole;
    }
  });
  return unknown ? undefined : text;
}
