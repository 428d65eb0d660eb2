// The Home tab's buttons into the desk; the Home has no response_url, so results go to the DM.
import { periodOf } from '../../service-desk/statistics.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type Click, type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { renderStatisticsModal, renderStatisticsProblem, type StatisticsShown } from './command-views.js';
import type { DeskDeps } from './pieces.js';
import type { Operator } from './statistics-chart.js';
import { periodMessage } from './statistics-command.js';
import { FALLBACK_TIME_ZONE, openTicketFilter } from './tickets.js';
import { showViewCharts } from './view-charts.js';

/** The clicking operator and the trigger their modal opens with; undefined (counted) when refused or without one. */
async function homeOperator(
  deps: DeskDeps,
  handling: Handling,
  click: Click,
  modal: 'tickets_modal' | 'statistics_modal',
  action: string,
): Promise<(Operator & { triggerId: string }) | undefined> {
  const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(click.userId);
  const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, action);
  const triggerId = click.payload.trigger_id;
  if (refusal || !triggerId) {
    deps.onEvent(modal, refusal ? 'refused' : 'failed');
    return undefined;
  }
  return { userId: click.userId, locale, timeZone, triggerId };
}

export function homeTicketsListener(deps: DeskDeps, command: string): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'home tickets failed', async (handling, click) => {
    const operator = await homeOperator(deps, handling, click, 'tickets_modal', 'home_tickets');
    if (operator) await openTicketFilter(deps, handling, { ...operator, responseUrl: undefined, command });
  });
}

/** Home → Statistics: a modal opened at once (the trigger lasts 3 s), then filled with the last 7 days and their chart. */
export function homeStatisticsListener(deps: DeskDeps, command: string): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'home statistics failed', async (handling, click) => {
    const operator = await homeOperator(deps, handling, click, 'statistics_modal', 'home_statistics');
    if (!operator) return;
    const { locale, timeZone, triggerId } = operator;
    const viewId = await deps.responder.openModal(
      handling,
      triggerId,
      renderStatisticsModal(locale, 'loading'),
    );
    if (!viewId) {
      deps.onEvent('statistics_modal', 'failed');
      return;
    }
    // The last 7 days end on the operator's today, as `/cs stats` does.
    const period = periodOf([], new Date(), timeZone);
    const shown: StatisticsShown =
      period.kind === 'ok'
        ? await periodMessage(deps, handling, locale, command, period.period)
        : { message: renderStatisticsProblem(locale, command, { kind: 'failure', reason: 'unavailable' }) };
    deps.onEvent('statistics_modal', shown.chartPeriod ? 'shown' : 'failure');
    await showViewCharts(deps, handling, { ...operator, viewId }, shown);
  });
}
