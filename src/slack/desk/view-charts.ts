// The charts under the figures of the Home's Statistics view: the files shared in the operator's DM,
// named by slack_file, whether the view was just opened or its Try again brought the figures back.
import type { Handling } from '../handling/handling.js';
import { renderViewChart, type ViewChart, type ViewImage } from './chart-views.js';
import { renderStatisticsModal, type StatisticsShown } from './command-views.js';
import type { DeskDeps } from './pieces.js';
import { filesOf, type Operator, operatorCharts, shareInDirectMessage } from './statistics-chart.js';

/** Shows the figures with a line saying the charts are coming, then the charts in its place; a failure alone. */
export async function showViewCharts(
  deps: DeskDeps,
  handling: Handling,
  { userId, locale, timeZone, viewId }: Operator & { viewId: string },
  { message: figures, chartPeriod: period }: StatisticsShown,
): Promise<void> {
  if (!period) {
    await deps.responder.updateModal(handling, viewId, renderStatisticsModal(locale, figures));
    return;
  }
  const show = (chart: ViewChart) =>
    deps.responder.updateModal(
      handling,
      viewId,
      renderStatisticsModal(locale, {
        ...figures,
        blocks: [...figures.blocks, ...renderViewChart(locale, chart)],
      }),
    );
  await show({ kind: 'drawing' });
  const charts = await operatorCharts(deps, handling, { userId, locale, timeZone }, period);
  deps.onEvent('statistics_chart', charts.kind === 'drawn' ? 'sent' : charts.kind);
  if (charts.kind !== 'drawn') {
    await show({ kind: 'failed' });
    return;
  }
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
}
