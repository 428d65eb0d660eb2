// The charts of a period for a workspace, in the order every place shows them: `/cs stats`, the
// Home's Statistics view and the digest each draw this one list.
import type { ChartImage } from '../../charts/draw.js';
import type { ChartDrawing } from '../../charts/draw-worker.js';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { dailyCounts } from '../../service-desk/daily-counts.js';
import {
  dailyQuestions,
  tooLongForAChart,
  type UnansweredShares,
  unansweredShares,
} from '../../service-desk/daily-statistics.js';
import { dailyTickets } from '../../service-desk/daily-tickets.js';
import { type Period, previousPeriod, type StatisticsApi } from '../../service-desk/statistics.js';
import type { TicketsApi } from '../../service-desk/tickets.js';
import {
  type QuestionsChart,
  questionsChart,
  ratingsChart,
  type TicketsMissing,
  ticketsChart,
} from './chart-views.js';
import type { DeskPieces } from './pieces.js';

/** What drawing the charts takes: the cache, the drawer and the gateway's own counts. */
export type ChartPieces = Pick<DeskPieces, 'charts' | 'chartDrawer' | 'questionDays' | 'ratingDays'>;

export interface PeriodChartsRequest {
  /** Whose platform was read and whose own counts are drawn; with the rest, the cache's key. */
  workspace: string;
  locale: Locale;
  period: Period;
  /** The zone each ticket's day is counted in: the operator's, or the digest's `DIGEST_TIME_ZONE`. */
  timeZone: string;
  requestId?: string | undefined;
}

/** The platform's reads the charts take: questions a day and the ticket list. */
export type PeriodChartsApi = Pick<StatisticsApi, 'getSessionMessageStatistics'> & TicketsApi;

/** What a chart's file is called and says; the questions chart also gives the message its comment. */
type ChartWords = Pick<QuestionsChart, 'filename' | 'title' | 'altText'> & { comment?: string };

export interface DrawnChart {
  kind: 'drawn';
  chart: ChartWords;
  image: ChartImage;
}

/** One chart of the period, drawn (or found drawn), or why not; `empty`: nothing to draw yet. */
export type PeriodChart =
  | DrawnChart
  | { kind: 'empty' }
  | { kind: 'too_long'; maxDays: number }
  /** `ticketsMissing`: the tickets chart failed, and why, which `/cs stats` tells the operator. */
  | { kind: 'failed'; ticketsMissing?: TicketsMissing };

type ChartOfPeriod = (
  pieces: ChartPieces,
  api: PeriodChartsApi,
  request: PeriodChartsRequest,
  logger: Logger,
) => Promise<PeriodChart>;

/** Every place's charts, in the order shown; never rejects. */
export function drawPeriodCharts(
  pieces: ChartPieces,
  api: PeriodChartsApi,
  request: PeriodChartsRequest,
  logger: Logger,
): Promise<PeriodChart[]> {
  // The questions lead: without them no chart is shown (chartsToShow). A new chart is one more line.
  const charts: readonly ChartOfPeriod[] = [drawQuestions, drawRatings, drawTickets];
  const tooLong = tooLongForAChart(request.period);
  if (tooLong) return Promise.resolve(charts.map(() => tooLong));
  return Promise.all(charts.map((draw) => draw(pieces, api, request, logger)));
}

/** The charts of a period as they are to be shown, or why none is. */
export type ChartsToShow =
  | { kind: 'drawn'; drawn: [DrawnChart, ...DrawnChart[]]; ticketsMissing?: TicketsMissing }
  | { kind: 'too_long'; maxDays: number }
  | { kind: 'failed' };

/**
 * Every chart drawn, in order, when the questions chart (the first) was, with why the tickets chart is
 * missing if it failed; else why none is shown.
 */
export function chartsToShow(charts: readonly PeriodChart[]): ChartsToShow {
  const [lead, ...rest] = charts;
  if (lead?.kind === 'too_long') return lead;
  if (lead?.kind !== 'drawn') return { kind: 'failed' };
  const drawn: [DrawnChart, ...DrawnChart[]] = [lead, ...rest.filter((chart) => chart.kind === 'drawn')];
  const [ticketsMissing] = rest.flatMap((chart) =>
    chart.kind === 'failed' && chart.ticketsMissing ? [chart.ticketsMissing] : [],
  );
  return { kind: 'drawn', drawn, ...(ticketsMissing === undefined ? {} : { ticketsMissing }) };
}

/** The drawn charts as files.uploadV2 shares them in one message, under the lead's comment. */
export function chartUpload(drawn: readonly [DrawnChart, ...DrawnChart[]]) {
  const [{ chart: lead }] = drawn;
  return {
    ...(lead.comment === undefined ? {} : { initial_comment: lead.comment }),
    file_uploads: drawn.map(({ chart, image }) => ({
      file: image.png,
      filename: chart.filename,
      title: chart.title,
      alt_text: chart.altText,
    })),
  };
}

/** `chart` with the workspace's image of `drawing`: drawn once for the same inputs, then from the cache. */
async function drawnChart(
  pieces: Pick<ChartPieces, 'charts' | 'chartDrawer'>,
  workspace: string,
  chart: ChartWords,
  drawing: ChartDrawing,
): Promise<DrawnChart> {
  const image = await pieces.charts.image({ workspace, drawing }, () => pieces.chartDrawer.draw(drawing));
  return { kind: 'drawn', chart, image };
}

/** Questions a day from the workspace's platform, and the share the gateway counted unanswered beside them. */
const drawQuestions: ChartOfPeriod = async (pieces, api, request, logger) => {
  const { workspace, locale, period, requestId } = request;
  const [daily, unanswered] = await Promise.all([
    dailyQuestions(api, period, requestId === undefined ? {} : { requestId }),
    unansweredIn(pieces, workspace, period, logger),
  ]);
  if (daily.kind === 'too_long') return daily;
  if (daily.kind === 'failure') {
    logger.warn({ period, reason: daily.reason }, 'statistics chart not drawn: the platform failed');
    return { kind: 'failed' };
  }
  const chart = questionsChart(locale, { ...daily.series, unanswered });
  try {
    return await drawnChart(pieces, workspace, chart, { kind: 'comparison', chart: chart.drawing });
  } catch (error) {
    logger.error({ ...errorFields(error), period }, 'statistics chart could not be drawn');
    return { kind: 'failed' };
  }
};

/** The gateway's own counts of both periods; undefined (a warning when unread) when there are none. */
async function unansweredIn(
  pieces: Pick<ChartPieces, 'questionDays'>,
  workspace: string,
  period: Period,
  logger: Logger,
): Promise<UnansweredShares | undefined> {
  try {
    const [current, before] = await Promise.all([
      dailyCounts(pieces.questionDays, workspace, period),
      dailyCounts(pieces.questionDays, workspace, previousPeriod(period)),
    ]);
    return unansweredShares(current.counts, before.counts);
  } catch (error) {
    logger.warn({ ...errorFields(error), period }, 'unanswered share not drawn: its counts were not read');
    return undefined;
  }
}

/** 👍/👎 a day from the gateway's own counts; empty until a rating was counted in the period. */
const drawRatings: ChartOfPeriod = async (pieces, _api, request, logger) => {
  const { workspace, locale, period } = request;
  try {
    const chart = ratingsChart(locale, await dailyCounts(pieces.ratingDays, workspace, period));
    if (!chart) return { kind: 'empty' };
    return await drawnChart(pieces, workspace, chart, { kind: 'ratings', chart: chart.drawing });
  } catch (error) {
    logger.warn({ ...errorFields(error), period }, 'ratings chart not drawn');
    return { kind: 'failed' };
  }
};

/**
 * Tickets opened a day by handling group, from the workspace's ticket list, each ticket on its day in
 * the request's zone; empty when the period holds none.
 */
const drawTickets: ChartOfPeriod = async (pieces, api, request, logger) => {
  const { workspace, locale, period, timeZone, requestId } = request;
  const read = await dailyTickets(api, period, timeZone, requestId === undefined ? {} : { requestId });
  if (read.kind === 'too_long') return read;
  if (read.kind === 'failure') {
    logger.warn({ period, reason: read.reason }, 'tickets chart not drawn: the platform failed');
    return { kind: 'failed', ticketsMissing: read.reason };
  }
  const chart = ticketsChart(locale, read.series);
  if (!chart) return { kind: 'empty' };
  try {
    return await drawnChart(pieces, workspace, chart, { kind: 'tickets', chart: chart.drawing });
  } catch (error) {
    logger.error({ ...errorFields(error), period }, 'tickets chart could not be drawn');
    return { kind: 'failed', ticketsMissing: 'drawing' };
  }
};
