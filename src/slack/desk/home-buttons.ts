// The Home tab's buttons into the desk; the Home has no response_url, so results go to the DM.
import { periodOf } from '../../service-desk/statistics.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import { renderViewChart, type ViewChart, type ViewImage } from './chart-views.js';
import { renderStatisticsModal, renderStatisticsProblem } from './command-views.js';
import { chartsToShow, drawPeriodCharts } from './period-charts.js';
import { type ChartDeps, filesOf, shareInDirectMessage } from './statistics-chart.js';
import { periodMessage } from './statistics-command.js';
import { FALLBACK_TIME_ZONE, openTicketFilter, type TicketDeps } from './tickets.js';

export function homeTicketsListener(deps: TicketDeps, command: string): (args: ClickArgs) => Promise<void> {
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
export function homeStatisticsListener(
  deps: TicketDeps & ChartDeps,
  command: string,
): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'home statistics failed', async (handling, click) => {
    const { locale, timeZone } = await handling.person(click.userId);
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
    const show = (chart?: ViewChart) =>
      deps.responder.updateModal(
        handling,
        viewId,
        renderStatisticsModal(
          locale,
          chart ? { ...message, blocks: [...message.blocks, ...renderViewChart(locale, chart)] } : message,
        ),
      );
    // A chart beside a failure would only fail again: Try again brings the figures alone.
    if (!figures || period.kind !== 'ok') {
      await show();
      return;
    }
    await show({ kind: 'drawing' });
    const request = {
      workspace: handling.teamId,
      locale,
      period: period.period,
      requestId: handling.requestId,
    };
    const charts = chartsToShow(
      await drawPeriodCharts(deps, deps.platformOf(handling.teamId), request, handling.logger),
    );
    deps.onEvent('statistics_chart', charts.kind === 'drawn' ? 'sent' : charts.kind);
    if (charts.kind !== 'drawn') {
      await show({ kind: 'failed' });
      return;
    }
    const userId = click.userId;
    // Every chart with its file, or undefined while one has none.
    const images = (fileIds: readonly (string | undefined)[]): ViewChart | undefined => {
      const shown: ViewImage[] = [];
      for (const [index, { chart }] of charts.drawn.entries()) {
        const fileId = fileIds[index];
        if (fileId === undefined) return undefined;
        shown.push({ fileId, chart });
      }
      return { kind: 'images', images: shown };
    };
    // Files shared before may since have been deleted from the DM: Slack refuses them, and they are shared again.
    const known = images(charts.drawn.map(({ image }) => filesOf(deps, image).get(userId)));
    if (known && (await show(known))) return;
    for (const { image } of charts.drawn) filesOf(deps, image).delete(userId);
    const shared = await shareInDirectMessage(deps, handling, userId, charts.drawn);
    const sharedImages = shared && images(shared.fileIds);
    if (!sharedImages) {
      await show(shared ? { kind: 'in_dm' } : { kind: 'failed' });
      return;
    }
    // Slack refusing a file in the view (not yet readable, say) still leaves it in the DM to point to.
    if (!(await show(sharedImages))) await show({ kind: 'in_dm' });
  });
}
