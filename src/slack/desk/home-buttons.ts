// The Home tab's buttons into the desk; the Home has no response_url, so results go to the DM.
import { periodOf } from '../../service-desk/statistics.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import { renderStatisticsModal, renderStatisticsProblem } from './command-views.js';
import type { DeskDeps } from './pieces.js';
import { periodMessage } from './statistics-command.js';
import { FALLBACK_TIME_ZONE, openTicketFilter } from './tickets.js';
import { showViewCharts } from './view-charts.js';

export function homeTicketsListener(deps: DeskDeps, command: string): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'home tickets failed', async (handling, click) => {
    const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(click.userId);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'home_tickets');
    if (refusal || !click.payload.trigger_id) {
      deps.onEvent('tickets_modal', refusal ? 'refused' : 'failed');
      return;
    }
    const opened = await openTicketFilter(deps, handling, {
      triggerId: click.payload.trigger_id,
      locale,
      timeZone,
      responseUrl: undefined,
      command,
    });
    deps.onEvent('tickets_modal', opened ? 'opened' : 'failed');
  });
}

/** Home → Statistics: a modal opened at once (the trigger lasts 3 s), then filled with the last 7 days and their chart. */
export function homeStatisticsListener(deps: DeskDeps, command: string): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'home statistics failed', async (handling, click) => {
    const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(click.userId);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'home_statistics');
    if (refusal || !click.payload.trigger_id) {
      deps.onEvent('statistics_modal', refusal ? 'refused' : 'failed');
      return;
    }
    const viewId = await deps.responder.openModal(
      handling,
      click.payload.trigger_id,
      renderStatisticsModal(locale, 'loading'),
    );
    if (!viewId) {
      deps.onEvent('statistics_modal', 'failed');
      return;
    }
    // The last 7 days end on the operator's today, as `/cs stats` does.
    const period = periodOf([], new Date(), timeZone);
    const { message, figures } =
      period.kind === 'ok'
        ? await periodMessage(deps, handling, locale, command, period.period)
        : {
            message: renderStatisticsProblem(locale, command, { kind: 'failure', reason: 'unavailable' }),
            figures: false,
          };
    deps.onEvent('statistics_modal', figures ? 'shown' : 'failure');
    // A chart beside a failure would only fail again: Try again brings the figures, then them.
    if (!figures || period.kind !== 'ok') {
      await deps.responder.updateModal(handling, viewId, renderStatisticsModal(locale, message));
      return;
    }
    const operator = { userId: click.userId, locale, timeZone, viewId };
    await showViewCharts(deps, handling, operator, message, period.period);
  });
}
