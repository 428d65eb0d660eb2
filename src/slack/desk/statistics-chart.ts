// The chart under `/cs stats`' figures: drawn after they are shown, uploaded to the operator's DM.
import { z } from 'zod';
import type { ChartImage } from '../../charts/draw.js';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Period } from '../../service-desk/statistics.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import type { RenderedMessage } from '../kit/elements.js';
import { postToResponseUrl } from '../transport/response-url.js';
import { type ChartOutcome, renderChartNote } from './chart-views.js';
import { periodOfValue } from './ids.js';
import {
  type ChartsToShow,
  chartsToShow,
  chartUpload,
  type DrawnChart,
  drawPeriodCharts,
} from './period-charts.js';
import type { DeskDeps, DeskPieces } from './pieces.js';
import { FALLBACK_TIME_ZONE } from './tickets.js';

/**
 * The figures are private to the operator, so the chart goes where only they read it: their DM with
 * the app (the conversation itself when the command was typed there). The file in the DM is its own
 * news; `note` is called only when no chart came, to say why.
 */
export async function sendStatisticsChart(
  deps: DeskDeps,
  handling: Handling,
  operator: Operator,
  period: Period,
  note: (message: RenderedMessage) => Promise<unknown>,
  { sayWhenSent = false }: { sayWhenSent?: boolean } = {},
): Promise<void> {
  const outcome = await uploadChart(deps, handling, operator, period);
  deps.onEvent('statistics_chart', outcome.kind);
  const missing = outcome.kind === 'sent' && outcome.ticketsMissing !== undefined;
  if (outcome.kind !== 'sent' || sayWhenSent || missing)
    await note(renderChartNote(operator.locale, outcome));
}

/** Who asked: their language, and the zone their days are counted in (their Slack's, else UTC). */
export interface Operator {
  userId: string;
  locale: Locale;
  timeZone: string;
}

/** The operator's charts of `period`, as they are to be shown. */
export async function operatorCharts(
  deps: DeskDeps,
  handling: Handling,
  { locale, timeZone }: Operator,
  period: Period,
): Promise<ChartsToShow> {
  const request = { workspace: handling.teamId, locale, period, timeZone, requestId: handling.requestId };
  return chartsToShow(
    await drawPeriodCharts(deps, deps.platformOf(handling.teamId), request, handling.logger),
  );
}

async function uploadChart(
  deps: DeskDeps,
  handling: Handling,
  operator: Operator,
  period: Period,
): Promise<ChartOutcome> {
  const charts = await operatorCharts(deps, handling, operator, period);
  if (charts.kind === 'too_long') return charts;
  const failed: ChartOutcome = { kind: 'failed', period };
  if (charts.kind !== 'drawn') return failed;
  const shared = await shareInDirectMessage(deps, handling, operator.userId, charts.drawn);
  return shared ? { kind: 'sent', ticketsMissing: charts.ticketsMissing } : failed;
}

/** The files a chart was shared as, by operator; kept as long as the chart is in the cache. */
export function filesOf(deps: Pick<DeskPieces, 'chartFiles'>, image: ChartImage): Map<string, string> {
  let files = deps.chartFiles.get(image);
  if (!files) {
    files = new Map();
    deps.chartFiles.set(image, files);
  }
  return files;
}

/** What files.uploadV2 answers: files.completeUploadExternal's answer for each file. */
const uploadedSchema = z.object({
  files: z.array(z.object({ files: z.array(z.object({ id: z.string().min(1) })).min(1) })).min(1),
});

/**
 * Shares the charts in the operator's DM with the app, in one message; undefined (logged) when they could
 * not be. Resolves once files.completeUploadExternal has shared them, so whatever names a file next finds
 * it there; each file's id is kept for this operator (the Home's view of the same days names it).
 */
export async function shareInDirectMessage(
  deps: Pick<DeskDeps, 'responder' | 'chartFiles'>,
  handling: Handling,
  userId: string,
  drawn: readonly [DrawnChart, ...DrawnChart[]],
): Promise<{ fileIds: (string | undefined)[] } | undefined> {
  const [lead] = drawn;
  try {
    const channel = await deps.responder.directMessage(handling, userId);
    if (!channel) return undefined;
    const uploaded = await handling.client.files.uploadV2({ channel_id: channel, ...chartUpload(drawn) });
    const parsed = uploadedSchema.safeParse(uploaded);
    if (!parsed.success) handling.logger.warn({}, 'statistics chart shared, but Slack named no file id');
    const ids = parsed.success ? parsed.data.files.flatMap((each) => each.files.map((file) => file.id)) : [];
    const fileIds = drawn.map((chart, index) => {
      const fileId = ids[index];
      if (fileId !== undefined) filesOf(deps, chart.image).set(userId, fileId);
      return fileId;
    });
    return { fileIds };
  } catch (error) {
    handling.logger.error(
      { ...errorFields(error), filename: lead.chart.filename },
      'statistics chart could not be uploaded',
    );
    return undefined;
  }
}

/** Try again under "the chart could not be made": the same period drawn again, the note replaced. */
export function statisticsChartRetryListener(deps: DeskDeps): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'statistics chart retry failed', async (handling, click) => {
    const period = periodOfValue(click.value);
    const responseUrl = click.payload.response_url;
    if (!period || !responseUrl) {
      handling.logger.warn({}, 'ignored a statistics chart retry with a malformed value');
      return;
    }
    const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(click.userId);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'stats_chart_retry');
    if (refusal) {
      await postToResponseUrl(
        responseUrl,
        { message: { text: refusal, blocks: [] }, replace: false },
        handling.logger,
      );
      return;
    }
    // In place of "could not be made": a note that stayed would say so of a chart that came.
    await sendStatisticsChart(
      deps,
      handling,
      { userId: click.userId, locale, timeZone },
      period,
      (message) => postToResponseUrl(responseUrl, { message, replace: true }, handling.logger),
      { sayWhenSent: true },
    );
  });
}
