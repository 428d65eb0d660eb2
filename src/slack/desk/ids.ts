// The service desk's action and callback ids: the filter modal, its result's buttons, the Home's buttons.
import { type Period, periodOf } from '../../service-desk/statistics.js';

export const VIEW_TICKET_FILTER = 'ticket_filter';
/** Previous and Next share an actions block, so each has its own id. */
export const ACTION_TICKETS_PREVIOUS = 'tickets_page:prev';
export const ACTION_TICKETS_NEXT = 'tickets_page:next';
export const ACTION_TICKETS_CSV = 'tickets_csv';
export const ACTION_TICKETS_RETRY = 'tickets_retry';
export const ACTION_HOME_OPEN_TICKETS = 'home_open_tickets';
export const ACTION_HOME_OPEN_STATISTICS = 'home_open_statistics';
export const ACTION_AGENTS_RETRY = 'agents_retry';
export const ACTION_STATS_RETRY = 'stats_retry';
/** A named group's button: `agents_group:<n>`, as a message's buttons need ids of their own. */
export const AGENTS_GROUP_ACTION_PATTERN = /^agents_group:\d{1,3}$/;

export function agentsGroupActionId(index: number): string {
  return `agents_group:${index}`;
}
export const ACTION_STATS_CHART_RETRY = 'stats_chart_retry';

/** The value a statistics Try again carries: the period it asks for again. */
export function periodValue(period: Period): string {
  return `${period.from}/${period.to}`;
}

const PERIOD_VALUE = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/;

/** The period a Try again's value names; undefined for a value none of its buttons carries. */
export function periodOfValue(value: string | undefined): Period | undefined {
  const dates = value === undefined ? null : PERIOD_VALUE.exec(value);
  const asked = dates ? periodOf([dates[1] ?? '', dates[2] ?? ''], new Date()) : undefined;
  return asked?.kind === 'ok' ? asked.period : undefined;
}
