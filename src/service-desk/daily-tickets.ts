// Tickets opened a day by handling group, for a chart: the period's tickets read whole, counted per day in a zone.

import type { Ticket } from '../platform/schemas.js';
import { daysBetween, todayIn } from '../util/time-zone.js';
import { tooLongForAChart } from './daily-statistics.js';
import type { DeskFailureKind } from './platform-failure.js';
import { daysOf, type Period } from './statistics.js';
import { allTickets, type TicketsApi } from './tickets.js';

/** The most series of groups a chart names; past it the largest five are named and the rest are "Other". */
export const NAMED_GROUPS_MAX = 6;

type TicketGroup = { kind: 'named'; name: string } | { kind: 'other'; groups: number } | { kind: 'none' };

export interface TicketGroupDays {
  group: TicketGroup;
  /** Tickets opened each day of the period; undefined on a day that was not read whole. */
  days: (number | undefined)[];
  total: number;
}

export interface TicketSeries {
  period: Period;
  /** yyyy-MM-dd of each day of `period`, in order. */
  days: string[];
  /** Named groups by total, most first, then "Other", then tickets with no group. */
  groups: TicketGroupDays[];
  /** Days left unknown: the period held more tickets than are read for a chart. */
  unread: number;
}

export type TicketSeriesResult =
  | { kind: 'series'; series: TicketSeries }
  | { kind: 'too_long'; maxDays: number }
  | { kind: 'failure'; reason: DeskFailureKind };

/** Every ticket created in `period` (days in `timeZone`, the reader's, as `/cs tickets` reads them). */
export async function dailyTickets(
  api: TicketsApi,
  period: Period,
  timeZone: string,
  scope: { requestId?: string } = {},
): Promise<TicketSeriesResult> {
  const tooLong = tooLongForAChart(period);
  if (tooLong) return tooLong;
  const filter = { ...period, timeZone, statuses: [], sources: [] };
  // As many as a CSV holds: past that the oldest days are left unknown rather than drawn short.
  const read = await allTickets(api, filter, scope);
  if (read.kind === 'failure') return read;
  const tickets = read.kind === 'all' ? read.tickets : [];
  const truncated = read.kind === 'all' && read.truncated;
  return { kind: 'series', series: ticketsByGroup(tickets, period, timeZone, truncated) };
}

/**
 * Counts each ticket on its creation day in `timeZone`. `truncated`: `tickets` are the newest of more,
 * so the day of the oldest one and the days before it are unknown.
 */
export function ticketsByGroup(
  tickets: readonly Ticket[],
  period: Period,
  timeZone: string,
  truncated = false,
): TicketSeries {
  const days = daysOf(period);
  const { length } = days;
  const byGroup = new Map<string | undefined, number[]>();
  let oldest = period.to;
  for (const ticket of tickets) {
    if (ticket.createTime === undefined) continue;
    const day = todayIn(timeZone, new Date(ticket.createTime));
    const index = daysBetween(period.from, day);
    if (index < 0 || index >= length) continue;
    if (day < oldest) oldest = day;
    const name = ticket.dealGroupName?.trim() || undefined;
    let counts = byGroup.get(name);
    if (!counts) {
      counts = new Array<number>(length).fill(0);
      byGroup.set(name, counts);
    }
    counts[index] = (counts[index] ?? 0) + 1;
  }
  const unread = truncated ? daysBetween(period.from, oldest) + 1 : 0;
  const known = (counts: readonly number[]) =>
    counts.map((count, index) => (index < unread ? undefined : count));
  const sum = (counts: readonly (number | undefined)[]) =>
    counts.reduce<number>((total, count) => total + (count ?? 0), 0);
  const named = [...byGroup.entries()]
    .flatMap(([name, counts]) => (name === undefined ? [] : [{ name, counts: known(counts) }]))
    .map((group) => ({ ...group, total: sum(group.counts) }))
    // Most first; equal totals by name, so the same tickets always draw the same chart.
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  const folds = named.length > NAMED_GROUPS_MAX;
  const shown = folds ? named.slice(0, NAMED_GROUPS_MAX - 1) : named;
  const groups: TicketGroupDays[] = shown.map(({ name, counts, total }) => ({
    group: { kind: 'named', name },
    days: counts,
    total,
  }));
  if (folds) {
    const rest = named.slice(NAMED_GROUPS_MAX - 1);
    const daysOfRest = days.map((_, index) =>
      index < unread ? undefined : sum(rest.map((group) => group.counts[index])),
    );
    groups.push({ group: { kind: 'other', groups: rest.length }, days: daysOfRest, total: sum(daysOfRest) });
  }
  const ungrouped = byGroup.get(undefined);
  if (ungrouped) {
    const counts = known(ungrouped);
    groups.push({ group: { kind: 'none' }, days: counts, total: sum(counts) });
  }
  return { period, days, groups, unread };
}
