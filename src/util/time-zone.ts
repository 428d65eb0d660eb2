// Time zones by IANA name: whether a name is one this runtime knows, and a moment's wall-clock parts in one.

/** Zone names already judged: building a DateTimeFormat costs tens of µs, and a user's zone is read per question. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 1_000;

/** True when Intl can format in `zone` (Slack's `tz` and settings are checked with it before use). */
export function isTimeZone(zone: string): boolean {
  if (zone === '' || zone.length > 64) return false;
  const known = judged.get(zone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    valid = true;
  } catch {
    valid = false;
  }
  // There are some 600 zone names; garbage beyond the bound is judged again rather than kept.
  if (judged.size < JUDGED_MAX) judged.set(zone, valid);
  return valid;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What a clock on the wall in `zone` shows at `epochMs` (24-hour, months from 1). */
export function wallClock(epochMs: number, zone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(epochMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}
