// The questions-a-day chart in the reader's language: what is drawn, its alt text, and the note after it.
import type { types } from '@slack/bolt';
import { canDraw } from '../../charts/chart-font.js';
import type { DailyComparison } from '../../charts/daily-comparison.js';
import type { DailyRatingsChart } from '../../charts/daily-ratings.js';
import type { DailyTicketsChart, TicketGroupBars } from '../../charts/daily-tickets.js';
import type { Locale } from '../../conversation/locale.js';
import type { DailyCount, QuestionField, RatingSeries } from '../../service-desk/daily-counts.js';
import type { DailySeries } from '../../service-desk/daily-statistics.js';
import type { TicketGroupDays, TicketSeries } from '../../service-desk/daily-tickets.js';
import type { DeskFailureKind } from '../../service-desk/platform-failure.js';
import type { Period } from '../../service-desk/statistics.js';
import { truncate } from '../../util/truncate.js';
import { BLOCK_KIT } from '../kit/block-kit-limits.js';
import { button, context, plainText, type RenderedMessage } from '../kit/elements.js';
import { ACTION_STATS_CHART_RETRY, periodValue } from './ids.js';
import { type MessageKey, t } from './messages.js';

/** Slack's limit on a file's alt text. */
const ALT_TEXT_MAX = 1000;
/** Up to a week, each day is named with its weekday: which day was busy is the question. */
const WEEKDAY_DAYS_MAX = 7;
/** A group's name in the legend: eight names side by side fit the chart's width. */
const LEGEND_NAME_MAX = 16;

/** A calendar day (yyyy-MM-dd) as the reader writes it; the day is the platform's, so no zone moves it. */
function dayLabel(locale: Locale, day: string, withWeekday: boolean): string {
  const format = new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    ...(withWeekday ? { weekday: 'short' } : {}),
    timeZone: 'UTC',
  });
  return format.format(new Date(`${day}T00:00:00Z`));
}

/** Each day's label for the chart's axis, with its weekday up to a week. */
function axisLabels(locale: Locale, days: readonly string[]): string[] {
  return days.map((day) => dayLabel(locale, day, days.length <= WEEKDAY_DAYS_MAX));
}

/** A period's first and last days as the reader writes them. */
function spanLabels(locale: Locale, { from, to }: Period): { from: string; to: string } {
  return { from: dayLabel(locale, from, false), to: dayLabel(locale, to, false) };
}

/** Items of an alt text's list, joined as the reader's language writes a list. */
function altList(locale: Locale, items: readonly string[]): string {
  return items.join(locale === 'zh-CN' ? '，' : ', ');
}

const sum = (values: readonly (number | undefined)[]) =>
  values.reduce<number>((total, value) => total + (value ?? 0), 0);

/** A whole percentage, as the alt texts state shares. */
const percentFormat = (locale: Locale) =>
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });

export interface ChartText<Drawing> {
  /** What is drawn, the cache's key with the workspace. */
  drawing: Drawing;
  altText: string;
  title: string;
  filename: string;
}

export type QuestionsChart = ChartText<DailyComparison> & {
  /** The file's message in the conversation. */
  comment: string;
};

/** A chart's file: the drawing, its alt text cut to Slack's limit, and a name of the chart and its days. */
function chartText<Drawing extends { title: string }>(
  name: 'questions' | 'ratings' | 'tickets',
  period: Period,
  drawing: Drawing,
  altText: string,
): ChartText<Drawing> {
  return {
    drawing,
    altText: truncate(altText, ALT_TEXT_MAX),
    title: drawing.title,
    filename: `${name}-${period.from}-${period.to}.png`,
  };
}

export function questionsChart(locale: Locale, series: DailySeries): QuestionsChart {
  const { period, previous, days, current, before } = series;
  const span = spanLabels(locale, period);
  const previousSpan = spanLabels(locale, previous);
  const missing = current.filter((value) => value === undefined).length;
  const numbers = new Intl.NumberFormat(locale);
  const figure = (value: number | undefined) =>
    value === undefined ? t(locale, 'chart_alt_unknown') : numbers.format(value);
  const dayTexts = days.map((day, index) =>
    t(locale, 'chart_alt_day', { day: dayLabel(locale, day, false), value: figure(current[index]) }),
  );
  const altText = t(locale, 'chart_alt', {
    ...span,
    days: altList(locale, dayTexts),
    total: sum(current),
    count: days.length,
    previousFrom: previousSpan.from,
    previousTo: previousSpan.to,
    previousTotal: before.every((value) => value === undefined)
      ? t(locale, 'chart_alt_unknown')
      : numbers.format(sum(before)),
  });
  const { unanswered } = series;
  const percent = percentFormat(locale);
  const shareOf = ({ asked, unanswered: left }: DailyCount<QuestionField>) =>
    asked === 0 ? t(locale, 'chart_alt_unknown') : percent.format(left / asked);
  const unansweredText = unanswered
    ? t(locale, 'chart_alt_unanswered', {
        share: shareOf(unanswered.totals.current),
        asked: unanswered.totals.current.asked,
        previousShare: shareOf(unanswered.totals.before),
      })
    : '';
  const drawing: DailyComparison = {
    title: t(locale, 'chart_label_questions'),
    subtitle: missing > 0 ? t(locale, 'chart_label_missing', { count: missing }) : undefined,
    labels: axisLabels(locale, days),
    current: { name: t(locale, 'chart_label_current', span), values: current },
    previous: { name: t(locale, 'chart_label_previous', previousSpan), values: before },
    share: unanswered && {
      current: { name: t(locale, 'chart_label_unanswered'), values: unanswered.current },
      // Counting began within the period: a legend entry for a line of nothing would only puzzle.
      previous:
        unanswered.totals.before.asked === 0
          ? undefined
          : { name: t(locale, 'chart_label_unanswered_previous'), values: unanswered.before },
    },
    locale,
  };
  return {
    ...chartText('questions', period, drawing, `${altText}${unansweredText}`),
    comment: t(locale, 'chart_comment', span),
  };
}

/** 👍/👎 a day and the helpful share; undefined when the period holds no rating to draw. */
export function ratingsChart(locale: Locale, series: RatingSeries): ChartText<DailyRatingsChart> | undefined {
  const { period, days, counts } = series;
  const up = counts.map((day) => day.up);
  const down = counts.map((day) => day.down);
  const [ups, downs] = [sum(up), sum(down)];
  if (ups + downs === 0) return undefined;
  const dayTexts = days.map((day, index) =>
    t(locale, 'chart_ratings_alt_day', {
      day: dayLabel(locale, day, false),
      up: up[index] ?? 0,
      down: down[index] ?? 0,
    }),
  );
  const altText = t(locale, 'chart_ratings_alt', {
    ...spanLabels(locale, period),
    days: altList(locale, dayTexts),
    up: ups,
    down: downs,
    rate: percentFormat(locale).format(ups / (ups + downs)),
  });
  const drawing: DailyRatingsChart = {
    title: t(locale, 'chart_label_ratings'),
    labels: axisLabels(locale, days),
    up: { name: t(locale, 'chart_label_up'), values: up },
    down: { name: t(locale, 'chart_label_down'), values: down },
    rate: {
      name: t(locale, 'chart_label_rate'),
      values: counts.map((day) =>
        day.up + day.down === 0 ? undefined : Math.round((day.up / (day.up + day.down)) * 100),
      ),
    },
    locale,
  };
  return chartText('ratings', period, drawing, altText);
}

/**
 * Tickets opened a day by group; undefined when the period holds none. A group's name the fonts cannot
 * draw whole is drawn as "Group n" and named in the alt text, never drawn with characters missing.
 */
export function ticketsChart(locale: Locale, series: TicketSeries): ChartText<DailyTicketsChart> | undefined {
  const { period, days, groups, unread } = series;
  const total = sum(groups.map((group) => group.total));
  if (total === 0) return undefined;
  let unnamed = 0;
  const named = groups.map(({ group }) => {
    if (group.kind === 'other')
      return { bars: t(locale, 'chart_label_other'), alt: undefined, tone: 'other' as const };
    if (group.kind === 'none')
      return { bars: t(locale, 'chart_label_no_group'), alt: undefined, tone: 'none' as const };
    if (canDraw(group.name))
      return { bars: truncate(group.name, LEGEND_NAME_MAX), alt: group.name, tone: 'group' as const };
    unnamed += 1;
    const placeholder = t(locale, 'chart_label_group_unnamed', { n: unnamed });
    return {
      bars: placeholder,
      alt: t(locale, 'chart_tickets_alt_unnamed', { placeholder, name: group.name }),
      tone: 'group' as const,
    };
  });
  const groupTexts = groups.map(({ group, total: count }: TicketGroupDays, index) =>
    group.kind === 'other'
      ? t(locale, 'chart_tickets_alt_other', { groups: group.groups, count })
      : t(locale, 'chart_tickets_alt_group', { name: named[index]?.alt ?? named[index]?.bars ?? '', count }),
  );
  const perDay = days.map((_, index) => sum(groups.map((group) => group.days[index])));
  const busiest = Math.max(...perDay);
  const busiestDay = days[perDay.indexOf(busiest)] ?? period.to;
  const altText = t(locale, 'chart_tickets_alt', {
    ...spanLabels(locale, period),
    total,
    groups: altList(locale, groupTexts),
    busiestDay: dayLabel(locale, busiestDay, true),
    busiest,
  });
  const unreadText = unread > 0 ? t(locale, 'chart_tickets_alt_unread', { count: unread }) : '';
  const drawing: DailyTicketsChart = {
    title: t(locale, 'chart_label_tickets'),
    subtitle: unread > 0 ? t(locale, 'chart_label_missing', { count: unread }) : undefined,
    labels: axisLabels(locale, days),
    groups: groups.map(
      (group, index): TicketGroupBars => ({
        name: named[index]?.bars ?? '',
        tone: named[index]?.tone ?? 'group',
        values: group.days,
      }),
    ),
    locale,
  };
  return chartText('tickets', period, drawing, `${altText}${unreadText}`);
}

/** How the ticket list failed, or `drawing` when it was read but could not be drawn. */
export type TicketsMissing = DeskFailureKind | 'drawing';

export type ChartOutcome =
  /** `ticketsMissing`: why that chart was left out of the upload (the ticket list failed, or its drawing). */
  | { kind: 'sent'; ticketsMissing?: TicketsMissing | undefined }
  | { kind: 'too_long'; maxDays: number }
  | { kind: 'failed'; period: Period };

/** Under the figures: where the chart went (after Try again), or why none came, with Try again. */
export function renderChartNote(locale: Locale, outcome: ChartOutcome): RenderedMessage {
  switch (outcome.kind) {
    case 'sent': {
      const lines = [t(locale, 'chart_sent')];
      if (outcome.ticketsMissing)
        lines.push(t(locale, 'chart_tickets_missing', { reason: outcome.ticketsMissing }));
      return { text: lines.join('\n'), blocks: lines.map((line) => context(line)) };
    }
    case 'too_long': {
      const text = t(locale, 'chart_too_long', { days: outcome.maxDays });
      return { text, blocks: [context(text)] };
    }
    case 'failed': {
      const text = t(locale, 'chart_failed');
      const retry: types.ActionsBlock = {
        type: 'actions',
        elements: [
          button(t(locale, 'cs_try_again'), ACTION_STATS_CHART_RETRY, {
            value: periodValue(outcome.period),
          }),
        ],
      };
      return { text, blocks: [context(text), retry] };
    }
  }
}

/** A chart shared in the operator's DM, as the Home's statistics view names it. */
export interface ViewImage {
  fileId: string;
  chart: Pick<ChartText<unknown>, 'title' | 'altText'>;
}

/** The charts under the figures in the Home's statistics view, as far as they have come. */
export type ViewChart =
  | { kind: 'drawing' }
  | { kind: 'images'; images: readonly ViewImage[] }
  | { kind: 'in_dm' }
  | { kind: 'failed' };

/** What the view says where no image is shown. */
const VIEW_CHART_NOTES = {
  drawing: 'chart_drawing',
  in_dm: 'chart_sent',
  failed: 'chart_failed',
} as const satisfies Record<Exclude<ViewChart['kind'], 'images'>, MessageKey>;

export function renderViewChart(locale: Locale, chart: ViewChart): types.KnownBlock[] {
  if (chart.kind !== 'images') return [context(t(locale, VIEW_CHART_NOTES[chart.kind]))];
  // The files are shared in the operator's DM: Slack shows a slack_file only to people who can see it.
  return chart.images.map(({ fileId, chart: words }) => ({
    type: 'image',
    slack_file: { id: fileId },
    alt_text: words.altText,
    title: plainText(words.title, BLOCK_KIT.image.title),
  }));
}
