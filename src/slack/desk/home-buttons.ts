// The Home tab's buttons into the desk; the Home has no response_url, so results go to the DM.
import type { Locale } from '../../conversation/locale.js';
import { type Period, periodOf } from '../../service-desk/statistics.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { renderViewChart, type ViewChart } from './chart-views.js';
import { renderStatisticsModal, renderStatisticsProblem } from './command-views.js';
import {
  type ChartDeps,
  type DrawnQuestions,
  drawQuestions,
  filesOf,
  shareInDirectMessage,
} from './statistics-chart.js';
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
    const { locale } = await handling.person(click.userId);
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
    const period = periodOf([], new Date());
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
    const chart = await viewChart(deps, handling, { locale }, period.period);
    deps.onEvent('statistics_chart', chart.kind === 'drawn' ? 'sent' : chart.kind);
    if (chart.kind !== 'drawn') {
      await show(chart);
      return;
    }
    const { drawn, files } = chart;
    const userId = click.userId;
    let fileId = files.get(userId);
    // A file shared before may since have been deleted from the DM: Slack refuses it, and it is shared again.
    if (fileId !== undefined && (await show({ kind: 'image', fileId, chart: drawn.chart }))) return;
    files.delete(userId);
    const shared = await shareInDirectMessage(deps, handling, userId, drawn);
    if (!shared?.fileId) {
      await show(shared ? { kind: 'in_dm' } : { kind: 'failed' });
      return;
    }
    fileId = shared.fileId;
    files.set(userId, fileId);
    // Slack refusing the file in the view (not yet readable, say) still leaves it in the DM to point to.
    if (!(await show({ kind: 'image', fileId, chart: drawn.chart }))) await show({ kind: 'in_dm' });
  });
}

/** The chart drawn, with the files it was shared as, by operator: a view opened again names the same file. */
async function viewChart(
  deps: ChartDeps,
  handling: Handling,
  { locale }: { locale: Locale },
  period: Period,
): Promise<
  | { kind: 'drawn'; drawn: Extract<DrawnQuestions, { kind: 'drawn' }>; files: Map<string, string> }
  | { kind: 'failed' }
> {
  const drawn = await drawQuestions(
    deps,
    deps.platformOf(handling.teamId),
    { workspace: handling.teamId, locale, period, countedIn: handling.teamId, requestId: handling.requestId },
    handling.logger,
  );
  if (drawn.kind !== 'drawn') return { kind: 'failed' };
  return { kind: 'drawn', drawn, files: filesOf(deps, drawn.image) };
}
