// The chart under `/cs stats`' figures: drawn after they are shown, uploaded to the operator's DM.
import { z } from 'zod';
import type { ChartImage } from '../../charts/draw.js';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { dailyCounts } from '../../service-desk/daily-counts.js';
import {
  dailyQuestions,
  type UnansweredShares,
  unansweredShares,
} from '../../service-desk/daily-statistics.js';
import { dailyTickets } from '../../service-desk/daily-tickets.js';
import { type Period, periodOf, previousPeriod, type StatisticsApi } from '../../service-desk/statistics.js';
import type { TicketsApi } from '../../service-desk/tickets.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import type { RenderedMessage } from '../kit/elements.js';
import type { RoomKit } from '../kit/room-kit.js';
import { postToResponseUrl } from '../transport/response-url.js';
import {
  type ChartOutcome,
  type QuestionsChart,
  questionsChart,
  ratingsChart,
  renderChartNote,
  type TicketsMissing,
  ticketsChart,
} from './chart-views.js';
import type { DeskPieces } from './pieces.js';
import { FALLBACK_TIME_ZONE } from './tickets.js';

export type ChartDeps = Pick<
  RoomKit & DeskPieces,
  | 'logger'
  | 'onEvent'
  | 'inFlight'
  | 'users'
  | 'access'
  | 'platformOf'
  | 'responder'
  | 'charts'
  | 'chartDrawer'
  | 'chartFiles'
  | 'ratingDays'
  | 'questionDays'
>;

/**
 * The figures are private to the operator, so the chart goes where only they read it: their DM with
 * the app (the conversation itself when the command was typed there). The file in the DM is its own
 * news; `note` is called only when no chart came, to say why.
 */
export async function sendStatisticsChart(
  deps: ChartDeps,
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
interface Operator {
  userId: string;
  locale: Locale;
  timeZone: string;
}

/** A questions-a-day chart drawn (or found drawn), or why there is none; never rejects. */
export type DrawnQuestions =
  | { kind: 'drawn'; chart: QuestionsChart; image: ChartImage }
  | { kind: 'too_long'; maxDays: number }
  | { kind: 'failed' };

/**
 * Reads the days from the workspace's platform and draws them, once for the same data (the cache);
 * with `countedIn`, the share of that workspace's questions the gateway counted unanswered beside them.
 */
export async function drawQuestions(
  pieces: Pick<DeskPieces, 'charts' | 'chartDrawer' | 'questionDays'>,
  api: Pick<StatisticsApi, 'getSessionMessageStatistics'>,
  request: {
    workspace: string;
    locale: Locale;
    period: Period;
    countedIn: string | undefined;
    requestId?: string | undefined;
  },
  logger: Logger,
): Promise<DrawnQuestions> {
  const { workspace, locale, period, requestId, countedIn } = request;
  const [daily, unanswered] = await Promise.all([
    dailyQuestions(api, period, requestId === undefined ? {} : { requestId }),
    countedIn === undefined ? undefined : unansweredIn(pieces, countedIn, period, logger),
  ]);
  if (daily.kind === 'too_long') return daily;
  if (daily.kind === 'failure') {
    logger.warn({ period, reason: daily.reason }, 'statistics chart not drawn: the platform failed');
    return { kind: 'failed' };
  }
  const chart = questionsChart(locale, { ...daily.series, unanswered });
  try {
    const image = await pieces.charts.image({ workspace, chart: chart.drawing }, () =>
      pieces.chartDrawer.draw(chart.drawing),
    );
    return { kind: 'drawn', chart, image };
  } catch (error) {
    logger.error({ ...errorFields(error), period }, 'statistics chart could not be drawn');
    return { kind: 'failed' };
  }
}

/** The gateway's own counts of both periods; undefined (a warning when unread) when there are none. */
async function unansweredIn(
  pieces: Pick<DeskPieces, 'questionDays'>,
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

async function uploadChart(
  deps: ChartDeps,
  handling: Handling,
  { userId, locale, timeZone }: Operator,
  period: Period,
): Promise<ChartOutcome> {
  const failed: ChartOutcome = { kind: 'failed', period };
  const drawn = await drawQuestions(
    deps,
    deps.platformOf(handling.teamId),
    { workspace: handling.teamId, locale, period, countedIn: handling.teamId, requestId: handling.requestId },
    handling.logger,
  );
  if (drawn.kind === 'too_long') return drawn;
  if (drawn.kind === 'failed') return failed;
  const workspace = handling.teamId;
  const [ratings, tickets] = await Promise.all([
    drawRatings(deps, { workspace, locale, period }, handling.logger),
    drawTickets(
      deps,
      deps.platformOf(workspace),
      { workspace, locale, period, timeZone, requestId: handling.requestId },
      handling.logger,
    ),
  ]);
  const under = [ratings, tickets.kind === 'drawn' ? tickets.chart : undefined].filter(
    (chart): chart is SharedChart => chart !== undefined,
  );
  const shared = await shareInDirectMessage(deps, handling, userId, drawn, under);
  // The Home's statistics view drawing the same chart names this file rather than share it again.
  if (shared?.fileId) filesOf(deps, drawn.image).set(userId, shared.fileId);
  if (!shared) return failed;
  return tickets.kind === 'failed' ? { kind: 'sent', ticketsMissing: tickets.reason } : { kind: 'sent' };
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

/** 👍/👎 a day from the gateway's own counts; undefined (logged if it failed) when there is none to show. */
async function drawRatings(
  pieces: Pick<DeskPieces, 'charts' | 'chartDrawer' | 'ratingDays'>,
  request: { workspace: string; locale: Locale; period: Period },
  logger: Logger,
): Promise<SharedChart | undefined> {
  const { workspace, locale, period } = request;
  try {
    const chart = ratingsChart(locale, await dailyCounts(pieces.ratingDays, workspace, period));
    if (!chart) return undefined;
    const image = await pieces.charts.image({ workspace, ratings: chart.drawing }, () =>
      pieces.chartDrawer.drawRatings(chart.drawing),
    );
    return { chart, image };
  } catch (error) {
    logger.warn({ ...errorFields(error), period }, 'ratings chart not drawn');
    return undefined;
  }
}

/** A tickets-a-day chart drawn (or found drawn); `none` when the period holds no ticket or is too long. */
type DrawnTickets =
  | { kind: 'drawn'; chart: SharedChart }
  | { kind: 'none' }
  | { kind: 'failed'; reason: TicketsMissing };

/**
 * Tickets opened a day by handling group, from the workspace's ticket list, each ticket on its day in
 * `timeZone`; drawn once for the same data (the cache). Never rejects.
 */
export async function drawTickets(
  pieces: Pick<DeskPieces, 'charts' | 'chartDrawer'>,
  api: TicketsApi,
  request: {
    workspace: string;
    locale: Locale;
    period: Period;
    timeZone: string;
    requestId?: string | undefined;
  },
  logger: Logger,
): Promise<DrawnTickets> {
  const { workspace, locale, period, timeZone, requestId } = request;
  const read = await dailyTickets(api, period, timeZone, requestId === undefined ? {} : { requestId });
  if (read.kind === 'too_long') return { kind: 'none' };
  if (read.kind === 'failure') {
    logger.warn({ period, reason: read.reason }, 'tickets chart not drawn: the platform failed');
    return { kind: 'failed', reason: read.reason };
  }
  const chart = ticketsChart(locale, read.series);
  if (!chart) return { kind: 'none' };
  try {
    const image = await pieces.charts.image({ workspace, tickets: chart.drawing }, () =>
      pieces.chartDrawer.drawTickets(chart.drawing),
    );
    return { kind: 'drawn', chart: { chart, image } };
  } catch (error) {
    logger.error({ ...errorFields(error), period }, 'tickets chart could not be drawn');
    return { kind: 'failed', reason: 'drawing' };
  }
}

/** A chart ready to share: what its file is called and says, and its PNG. */
interface SharedChart {
  chart: Pick<QuestionsChart, 'filename' | 'title' | 'altText'>;
  image: ChartImage;
}

/** What files.uploadV2 answers: files.completeUploadExternal's answer for each file. */
const uploadedSchema = z.object({
  files: z.array(z.object({ files: z.array(z.object({ id: z.string().min(1) })).min(1) })).min(1),
});

/**
 * Shares the chart in the operator's DM with the app; undefined (logged) when it could not be. Resolves
 * once files.completeUploadExternal has shared it, so whatever names the file next finds it there.
 */
export async function shareInDirectMessage(
  deps: Pick<ChartDeps, 'responder'>,
  handling: Handling,
  userId: string,
  { chart, image }: { chart: QuestionsChart; image: ChartImage },
  under: readonly SharedChart[] = [],
): Promise<{ fileId: string | undefined } | undefined> {
  const file = (shared: SharedChart) => ({
    file: shared.image.png,
    filename: shared.chart.filename,
    title: shared.chart.title,
    alt_text: shared.chart.altText,
  });
  try {
    const channel = await deps.responder.directMessage(handling, userId);
    if (!channel) return undefined;
    // One message, the charts in order: the questions first, the others under it.
    const uploaded = await handling.client.files.uploadV2({
      channel_id: channel,
      initial_comment: chart.comment,
      file_uploads: [file({ chart, image }), ...under.map(file)],
    });
    const parsed = uploadedSchema.safeParse(uploaded);
    if (!parsed.success) handling.logger.warn({}, 'statistics chart shared, but Slack named no file id');
    return { fileId: parsed.success ? parsed.data.files[0]?.files[0]?.id : undefined };
  } catch (error) {
    handling.logger.error(
      { ...errorFields(error), filename: chart.filename },
      'statistics chart could not be uploaded',
    );
    return undefined;
  }
}

const RETRY_VALUE = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/;

/** Try again under "the chart could not be made": the same period drawn again, the note replaced. */
export function statisticsChartRetryListener(deps: ChartDeps): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'statistics chart retry failed', async (handling, click) => {
    const dates = click.value === undefined ? null : RETRY_VALUE.exec(click.value);
    const asked = dates ? periodOf([dates[1] ?? '', dates[2] ?? ''], new Date()) : undefined;
    const responseUrl = click.payload.response_url;
    if (asked?.kind !== 'ok' || !responseUrl) {
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
      asked.period,
      (message) => postToResponseUrl(responseUrl, { message, replace: true }, handling.logger),
      { sayWhenSent: true },
    );
  });
}
