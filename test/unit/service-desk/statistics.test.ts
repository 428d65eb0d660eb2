import { describe, expect, it } from 'vitest';
import { periodOf, previousPeriod, rate } from '../../../src/service-desk/statistics.js';

const TODAY = new Date('2026-11-25T10:00:00Z');

describe('the period a command asks for', () => {
  it('is the last 7 days, today included, without dates; from a date to today with one', () => {
    expect(periodOf([], TODAY)).toEqual({
      kind: 'ok',
      period: { from: '2026-11-19', to: '2026-11-25' },
    });
    expect(periodOf(['2026-11-01'], TODAY)).toEqual({
      kind: 'ok',
      period: { from: '2026-11-01', to: '2026-11-25' },
    });
  });

  it("ends the default week on the reader's today, which may already be tomorrow in UTC", () => {
    const eveningInUtc = new Date('2026-11-25T20:00:00Z');
    expect(periodOf([], eveningInUtc, 'Asia/Tokyo')).toEqual({
      kind: 'ok',
      period: { from: '2026-11-20', to: '2026-11-26' },
    });
    expect(periodOf([], eveningInUtc)).toEqual({
      kind: 'ok',
      period: { from: '2026-11-19', to: '2026-11-25' },
    });
    expect(periodOf(['2026-11-26'], eveningInUtc, 'America/New_York')).toEqual({
      kind: 'invalid',
      problem: 'in_the_future',
    });
  });

  it('refuses what is not a calendar day, a reversed range, a range past a year, one that starts after today', () => {
    expect(periodOf(['2026-02-30', '2026-03-01'], TODAY)).toEqual({ kind: 'invalid', problem: 'not_a_date' });
    expect(periodOf(['yesterday'], TODAY)).toEqual({ kind: 'invalid', problem: 'not_a_date' });
    expect(periodOf(['2026-11-10', '2026-11-01'], TODAY)).toEqual({
      kind: 'invalid',
      problem: 'ends_before_start',
    });
    expect(periodOf(['2025-01-01', '2026-01-02'], TODAY)).toEqual({ kind: 'invalid', problem: 'too_long' });
    expect(periodOf(['2026-12-01', '2026-12-02'], TODAY)).toEqual({
      kind: 'invalid',
      problem: 'in_the_future',
    });
  });

  it('says a single date after today is in the future, not that the range ends before it starts', () => {
    expect(periodOf(['2027-01-01'], TODAY)).toEqual({ kind: 'invalid', problem: 'in_the_future' });
  });

  it('says a third date is one too many, whatever it is', () => {
    expect(periodOf(['2026-11-01', '2026-11-02', '2026-11-03'], TODAY)).toEqual({
      kind: 'invalid',
      problem: 'too_many_dates',
    });
  });
});

describe('the period before', () => {
  it('has the same length and ends the day before, across months and leap days', () => {
    expect(previousPeriod({ from: '2026-10-01', to: '2026-10-31' })).toEqual({
      from: '2026-08-31',
      to: '2026-09-30',
    });
    expect(previousPeriod({ from: '2028-03-01', to: '2028-03-01' })).toEqual({
      from: '2028-02-29',
      to: '2028-02-29',
    });
  });
});

describe('rates as the platform writes them', () => {
  it('reads "35.50%" and fractions, and nothing else', () => {
    expect(rate('35.50%')).toBe(35.5);
    expect(rate('0.355')).toBeCloseTo(35.5);
    expect(rate('42')).toBe(42);
    for (const text of [undefined, '', 'n/a', '-3%', '35,5%']) expect(rate(text)).toBeUndefined();
  });
});
