// The slash command's words read into a subcommand and a tickets filter.
import { describe, expect, it } from 'vitest';
import { parseSubcommand, parseTicketArguments } from '../../../../src/slack/desk/command-grammar.js';

const TODAY = '2026-11-25';

describe('parseSubcommand', () => {
  it('reads agents with its group, tickets with its words, case-insensitively, and everything else as help', () => {
    // A group's name may be several words: all of them, spaces evened out.
    expect(parseSubcommand('  AGENTS   IT  Service Desk ')).toEqual({
      kind: 'agents',
      group: 'IT Service Desk',
    });
    expect(parseSubcommand('agents')).toEqual({ kind: 'agents', group: '' });
    expect(parseSubcommand('stats 2026-11-01 2026-11-02 2026-11-03')).toEqual({
      kind: 'stats',
      dates: ['2026-11-01', '2026-11-02', '2026-11-03'],
    });
    expect(parseSubcommand('Tickets 2026-10-01  status:open')).toEqual({
      kind: 'tickets',
      words: ['2026-10-01', 'status:open'],
    });
    for (const text of ['', 'help', 'ticket', '???', '\u0000'])
      expect(parseSubcommand(text)).toEqual({ kind: 'help' });
  });
});

describe('parseTicketArguments', () => {
  it('takes the last 7 days by default, and one date to mean from then to today', () => {
    expect(parseTicketArguments([], TODAY, 'UTC')).toMatchObject({
      kind: 'ok',
      filter: { from: '2026-11-19', to: TODAY, statuses: [], sources: [] },
    });
    expect(parseTicketArguments(['2026-10-01'], TODAY, 'UTC')).toMatchObject({
      kind: 'ok',
      filter: { from: '2026-10-01', to: TODAY },
    });
  });

  it('reads statuses and sources by word, by the spec’s number, and "open" as every unfinished status', () => {
    const parsed = parseTicketArguments(
      ['2026-10-01', '2026-11-20', 'status:open,solved', 'SOURCE:email,8', 'category:tt-it'],
      TODAY,
      'Asia/Tokyo',
    );
    expect(parsed).toEqual({
      kind: 'ok',
      filter: {
        from: '2026-10-01',
        to: '2026-11-20',
        timeZone: 'Asia/Tokyo',
        statuses: [0, 1, 2, 3],
        sources: [12, 8],
        categoryId: 'tt-it',
      },
    });
  });

  it('names what it cannot read', () => {
    expect(parseTicketArguments(['status:bogus'], TODAY, 'UTC')).toMatchObject({
      problem: 'unknown_status',
      word: 'bogus',
    });
    expect(parseTicketArguments(['source:5'], TODAY, 'UTC')).toMatchObject({
      problem: 'unknown_source',
      word: '5',
    });
    expect(parseTicketArguments(['2026-02-30'], TODAY, 'UTC')).toMatchObject({ problem: 'not_a_date' });
    // A third date is a date, one too many.
    expect(parseTicketArguments(['2026-11-01', '2026-11-02', '2026-11-03'], TODAY, 'UTC')).toMatchObject({
      problem: 'too_many_dates',
      word: '2026-11-03',
    });
    expect(parseTicketArguments(['owner:me'], TODAY, 'UTC')).toMatchObject({ problem: 'not_understood' });
    expect(parseTicketArguments([`category:${'c'.repeat(37)}`], TODAY, 'UTC')).toMatchObject({
      problem: 'bad_category',
    });
    expect(parseTicketArguments(['2026-11-26'], TODAY, 'UTC')).toMatchObject({ problem: 'in_the_future' });
    expect(parseTicketArguments(['2026-11-20', '2026-11-01'], TODAY, 'UTC')).toMatchObject({
      problem: 'ends_before_start',
    });
    expect(parseTicketArguments(['2020-01-01'], TODAY, 'UTC')).toMatchObject({ problem: 'too_long' });
    // One call per month, status and source: a year of every status is fine, years of many sources are not.
    expect(parseTicketArguments(['2025-11-26', 'status:open,solved,closed,deleted'], TODAY, 'UTC').kind).toBe(
      'ok',
    );
    expect(
      parseTicketArguments(['2022-01-01', 'status:open', 'source:email,voice,call-center'], TODAY, 'UTC'),
    ).toEqual({ kind: 'invalid', problem: 'too_many_queries', queries: 60 * 3 * 3, max: 400 });
  });
});
