import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  isCalendarDate,
  isTimeZone,
  startOfDay,
  todayIn,
  wallClock,
} from '../../../src/util/time-zone.js';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('calendar days', () => {
  it('counts days across month ends, leap days and DST changes alike', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
    expect(daysBetween('2026-03-09', '2026-03-08')).toBe(-1);
  });

  it('takes only yyyy-MM-dd days that exist', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    for (const text of ['2026-02-29', '2026-02-30', '2026-2-03', '2026-02-3', '20260203', 'today', '']) {
      expect(isCalendarDate(text)).toBe(false);
    }
  });
});

describe('days and moments in a time zone', () => {
  it("turns the day at the zone's midnight, asked second by second across it", () => {
    // Kathmandu is UTC+05:45: its midnight is 18:15 UTC, on no whole hour.
    const before = new Date('2026-11-28T18:14:59Z');
    expect(todayIn('Asia/Kathmandu', new Date('2026-11-28T18:14:00Z'))).toBe('2026-11-28');
    expect(todayIn('Asia/Kathmandu', before)).toBe('2026-11-28');
    expect(todayIn('Asia/Kathmandu', new Date('2026-11-28T18:15:00Z'))).toBe('2026-11-29');
    expect(todayIn('Asia/Kathmandu', new Date('2026-11-28T18:15:59Z'))).toBe('2026-11-29');
    expect(todayIn('Asia/Kathmandu', before)).toBe('2026-11-28');
  });

  it('reads the day and the wall clock where the reader is', () => {
    const lateUtc = new Date('2026-11-25T20:05:07Z');
    expect(todayIn('UTC', lateUtc)).toBe('2026-11-25');
    expect(todayIn('Asia/Tokyo', lateUtc)).toBe('2026-11-26');
    expect(wallClock(lateUtc.getTime(), 'Asia/Shanghai')).toEqual({
      year: 2026,
      month: 11,
      day: 26,
      hour: 4,
      minute: 5,
      second: 7,
    });
  });

  // Regression: the hand-written offset guess began such a day an hour early, in the day before.
  it('starts a day whose midnight falls in a DST gap at the end of the gap', () => {
    // Clocks go from 00:00 to 01:00 at the start of these days.
    expect(startOfDay('2026-09-06', 'America/Santiago')).toBe(at('2026-09-06T04:00:00Z'));
    expect(startOfDay('2026-03-08', 'America/Havana')).toBe(at('2026-03-08T05:00:00Z'));
    expect(wallClock(startOfDay('2026-03-08', 'America/Havana') * 1000, 'America/Havana')).toMatchObject({
      day: 8,
      hour: 1,
      minute: 0,
    });
  });

  it('judges zone names with Intl', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
