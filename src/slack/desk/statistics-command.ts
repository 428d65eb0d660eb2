// `/cs stats [from] [to]`, for operators: the figures of a range beside the period before it, or what
// is wrong with the dates; a platform failure offers Try again, which replaces it with the figures.
import type { Locale } from '../../conversation/locale.js';
import { type Period, periodOf, statisticsReport } from '../../service-desk/statistics.js';
import { operatorRefusal } from '../access/operator-gate.js';
import type { RenderedMessage } from '../answers/blocks.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { ListenerDeps } from '../handling/deps.js';
import type { Handling } from '../handling/handling.js';
import { postToResponseUrl } from '../transport/response-url.js';
import { renderStatistics, renderStatisticsProblem } from './command-views.js';

type StatisticsDeps = Pick<
  ListenerDeps,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'access' | 'statistics'
>;

export async function statisticsMessage(
  deps: StatisticsDeps,
  handling: Handling,
  locale: Locale,
  command: string,
  dates: readonly string[],
): Promise<RenderedMessage> {
  const asked = periodOf(dates, new Date());
  if (asked.kind === 'invalid') {
    deps.onEvent('statistics', 'invalid');
    return renderStatisticsProblem(
      locale,
      command,
      asked.problem === 'in_the_future'
        ? { kind: 'in_the_future', date: dates[0] ?? '' }
        : { kind: asked.problem },
    );
  }
  return periodMessage(deps, handling, locale, command, asked.period);
}

async function periodMessage(
  deps: StatisticsDeps,
  handling: Handling,
  locale: Locale,
  command: string,
  period: Period,
): Promise<RenderedMessage> {
  const result = await statisticsReport(deps.statistics, period, { requestId: handling.requestId });
  deps.onEvent('statistics', result.kind);
  if (result.kind === 'failure') {
    handling.logger.warn({ period, reason: result.reason }, 'statistics not shown: the platform failed');
    return renderStatisticsProblem(locale, command, {
      kind: 'failure',
      reason: result.reason,
      retry: period,
    });
  }
  return renderStatistics(locale, result.report);
}

/** A Try again button's value: the period it asks for again. */
const RETRY_VALUE = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/;

/** Try again under a statistics failure: the same period read again, in place of the failure. */
export function statisticsRetryListener(
  deps: StatisticsDeps,
  command: string,
): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'statistics retry failed', async (handling, click) => {
    const dates = RETRY_VALUE.exec(click.value ?? '');
    const asked = dates ? periodOf([dates[1] ?? '', dates[2] ?? ''], new Date()) : undefined;
    const responseUrl = click.payload.response_url;
    if (asked?.kind !== 'ok' || !responseUrl) {
      handling.logger.warn({}, 'ignored a statistics retry with a malformed value');
      return;
    }
    const { locale } = await handling.person(click.userId);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'stats_retry');
    const message = refusal
      ? { text: refusal, blocks: [] }
      : await periodMessage(deps, handling, locale, command, asked.period);
    await postToResponseUrl(responseUrl, { message, replace: !refusal }, handling.logger);
  });
}
