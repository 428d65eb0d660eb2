// The one place that does date arithmetic: days as yyyy-MM-dd text, zones by IANA name, across DST.
import { TZDate, tz } from '@date-fns/tz';
// One module per function: the index loads all 250-odd (docs/decisions/014).
import { addDays as addCalendarDays } from 'date-fns/addDays';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';

/** A DateTimeFormat is costly to build, and a user's zone is read per question. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 1_000;

/** Slack's `tz` and settings are checked with it before use. */
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
  // Garbage beyond the bound is judged again rather than kept.
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

/** 24-hour, months from 1. */
export function wallClock(epochMs: number, zone: string): WallClock {
  const date = new TZDate(epochMs, zone);
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
  };
}

const DAY_FORMAT = 'yyyy-MM-dd';
// Days alone are counted in UTC, where every day is 24 hours.
const inUtc = tz('UTC');

/** An invalid date when it is not one. */
function dayIn(day: string, zone: (value: Date | number | string) => TZDate): Date {
  return parse(day, DAY_FORMAT, new Date(0), { in: zone });
}

/** Not 2026-02-30. */
export function isCalendarDate(text: string): boolean {
  // parse alone would take one-digit months and days.
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && isValid(dayIn(text, inUtc));
}

export function addDays(day: string, days: number): string {
  return format(addCalendarDays(dayIn(day, inUtc), days), DAY_FORMAT);
}

/** Negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return differenceInCalendarDays(dayIn(to, inUtc), dayIn(from, inUtc));
}

/** The last day found per zone, by the minute asked: every zone's days begin on a whole minute. */
const lastDays = new Map<string, { minute: number; day: string }>();

/** Asked on every answer, so formatted once a minute, not once a call. */
export function todayIn(timeZone: string, now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  const last = lastDays.get(timeZone);
  if (last?.minute === minute) return last.day;
  const day = format(now, DAY_FORMAT, { in: tz(timeZone) });
  lastDays.set(timeZone, { minute, day });
  return day;
}

/** Epoch seconds; a day starting in a DST gap starts at its end. */
export function startOfDay(day: string, timeZone: string): number {
  return Math.floor(dayIn(day, tz(timeZone)).getTime() / 1000);
}
