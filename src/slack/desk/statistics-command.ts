// `/cs stats [from] [to]`, for operators; Try again replaces a failure wherever it was shown.
import type { Locale } from '../../conversation/locale.js';
import { type Period, periodOf, statisticsReport } from '../../service-desk/statistics.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { postToResponseUrl } from '../transport/response-url.js';
import {
  renderStatistics,
  renderStatisticsModal,
  renderStatisticsProblem,
  type StatisticsShown,
} from './command-views.js';
import { periodOfValue } from './ids.js';
import type { DeskDeps } from './pieces.js';
import { sendStatisticsChart } from './statistics-chart.js';
import { FALLBACK_TIME_ZONE } from './tickets.js';
import { showViewCharts } from './view-charts.js';

export async function statisticsMessage(
  deps: DeskDeps,
  handling: Handling,
  locale: Locale,
  command: string,
  dates: readonly string[],
  timeZone: string | undefined,
): Promise<StatisticsShown> {
  const asked = periodOf(dates, new Date(), timeZone);
  if (asked.kind === 'invalid') {
    deps.onEvent('statistics', 'invalid');
    const problem = renderStatisticsProblem(
      locale,
      command,
      asked.problem === 'in_the_future'
        ? { kind: 'in_the_future', date: dates[0] ?? '' }
        : { kind: asked.problem },
    );
    return { message: problem };
  }
  return periodMessage(deps, handling, locale, command, asked.period);
}

/** The figures of `period` with their charts to follow, or the platform's failure with Try again. */
export async function periodMessage(
  deps: DeskDeps,
  handling: Handling,
  locale: Locale,
  command: string,
  period: Period,
): Promise<StatisticsShown> {
  const result = await statisticsReport(deps.platformOf(handling.teamId), period, {
    requestId: handling.requestId,
  });
  deps.onEvent('statistics', result.kind);
  if (result.kind === 'failure') {
    handling.logger.warn({ period, reason: result.reason }, 'statistics not shown: the platform failed');
    const message = renderStatisticsProblem(locale, command, {
      kind: 'failure',
      reason: result.reason,
      retry: period,
    });
    // A chart beside a failure would only fail again: Try again brings the figures, then it.
    return { message };
  }
  return { message: renderStatistics(locale, result.report), chartPeriod: period };
}

/** Try again under a statistics failure: the same period read again, in place of the failure, then its charts. */
export function statisticsRetryListener(deps: DeskDeps, command: string): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'statistics retry failed', async (handling, click) => {
    const period = periodOfValue(click.value);
    const { view, response_url: responseUrl } = click.payload;
    const inModal = view?.type === 'modal';
    if (!period || (!inModal && !responseUrl)) {
      handling.logger.warn({}, 'ignored a statistics retry with a malformed value');
      return;
    }
    const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(click.userId);
    const operator = { userId: click.userId, locale, timeZone };
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'stats_retry');
    if (inModal) {
      // Only an operator opens the view: a refusal here is a forged click, and changes nothing.
      if (refusal) return;
      // The platform may take seconds: the view says it is reading again rather than keep the failure.
      await deps.responder.updateModal(handling, view.id, renderStatisticsModal(locale, 'loading'));
      const shown = await periodMessage(deps, handling, locale, command, period);
      await showViewCharts(deps, handling, { ...operator, viewId: view.id }, shown);
      return;
    }
    if (!responseUrl) return;
    const shown: StatisticsShown = refusal
      ? { message: { text: refusal, blocks: [] } }
      : await periodMessage(deps, handling, locale, command, period);
    await postToResponseUrl(responseUrl, { message: shown.message, replace: !refusal }, handling.logger);
    // As after a first success: the chart follows the figures that came back.
    if (shown.chartPeriod) {
      await sendStatisticsChart(deps, handling, operator, shown.chartPeriod, (note) =>
        postToResponseUrl(responseUrl, { message: note, replace: false }, handling.logger),
      );
    }
  });
}
