import { describe, expect, it } from 'vitest';
import { formatSlackDate } from '../../../playground/web/slack-dates.js';

// 2026-11-29 09:08:30 UTC: 17:08:30 the same day in Shanghai, 04:08:30 in New York.
const MOMENT = Date.UTC(2026, 10, 29, 9, 8, 30) / 1000;
const SHANGHAI = { timeZone: 'Asia/Shanghai', locale: 'en-US', now: new Date(Date.UTC(2026, 10, 29, 12)) };

describe("Slack's date token, drawn for its reader", () => {
  it("shows today's moment as Today and the time in the reader's zone", () => {
    expect(formatSlackDate(MOMENT, '{date_short_pretty} {time}', SHANGHAI)).toBe('Today 5:08 PM');
    expect(formatSlackDate(MOMENT, '{time_secs}', SHANGHAI)).toBe('5:08:30 PM');
  });

  it('says Yesterday and Tomorrow by the days of the reader’s zone, not of UTC', () => {
    const nextMorning = { ...SHANGHAI, now: new Date(Date.UTC(2026, 10, 29, 17)) }; // 01:00 on the 30th there
    expect(formatSlackDate(MOMENT, '{date_pretty}', nextMorning)).toBe('Yesterday');
    const dayBefore = { ...SHANGHAI, now: new Date(Date.UTC(2026, 10, 28, 9)) };
    expect(formatSlackDate(MOMENT, '{date_long_pretty}', dayBefore)).toBe('Tomorrow');
  });

  it('writes other days out in each of the forms Slack has', () => {
    const weekLater = { ...SHANGHAI, now: new Date(Date.UTC(2026, 11, 6)) };
    expect(formatSlackDate(MOMENT, '{date_num}', weekLater)).toBe('2026-11-29');
    expect(formatSlackDate(MOMENT, '{date}', weekLater)).toBe('November 29th, 2026');
    expect(formatSlackDate(MOMENT, '{date_short_pretty}', weekLater)).toBe('Nov 29, 2026');
    expect(formatSlackDate(MOMENT, '{date_long}', weekLater)).toBe('Sunday, November 29th, 2026');
    const newYork = { ...weekLater, timeZone: 'America/New_York' };
    expect(formatSlackDate(Date.UTC(2026, 10, 30, 3) / 1000, '{date_num} {time}', newYork)).toBe(
      '2026-11-29 10:00 PM',
    );
  });

  it('speaks Chinese to a Chinese reader', () => {
    const chinese = { ...SHANGHAI, locale: 'zh-CN' };
    expect(formatSlackDate(MOMENT, '{date_short_pretty} {time}', chinese)).toBe('今天 17:08');
    expect(formatSlackDate(MOMENT, '{date_long}', chinese)).toBe('2026年11月29日星期日');
  });

  it('leaves a token it does not know to the fallback', () => {
    expect(formatSlackDate(MOMENT, '{ago}', SHANGHAI)).toBeUndefined();
    expect(formatSlackDate(Number.NaN, '{date}', SHANGHAI)).toBeUndefined();
  });
});
