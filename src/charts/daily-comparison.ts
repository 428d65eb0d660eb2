// A period's figure a day as a line, the period before it dashed on the same days, for one glance.

import { CHART_FONT } from './chart-font.js';
import type { ChartOption, ChartSize } from './draw.js';

/** Mid-tone colours on a transparent ground: each reads on Slack's light and its dark theme alike. */
const COLOURS = {
  text: '#7d8187',
  grid: 'rgba(125, 129, 135, 0.35)',
  current: '#2f7fe6',
  previous: '#e8912d',
  share: '#9b6bd6',
} as const;

// 1.5 pixels per point: sharp enough on a dense screen, and the PNG encodes in a fraction of 2x's time.
export const DAILY_CHART_SIZE: ChartSize = { width: 800, height: 400, scale: 1.5 };

interface DailySeriesLine {
  /** The legend's name, in the reader's language. */
  name: string;
  /** One a day, in the labels' order; undefined where the figure is unknown, drawn as a gap. */
  values: readonly (number | undefined)[];
}

export interface DailyComparison {
  title: string;
  /** Under the title, e.g. what could not be read. */
  subtitle?: string | undefined;
  /** A label per day, in the reader's language. */
  labels: readonly string[];
  current: DailySeriesLine;
  previous: DailySeriesLine;
  /** A share a day (0 to 100) on an axis of its own, thin, this period solid and the one before dashed. */
  share?: { current: DailySeriesLine; previous?: DailySeriesLine | undefined } | undefined;
  /** Formats the value axis's numbers, e.g. `zh-CN`. */
  locale: string;
}

export function dailyComparisonOption(chart: DailyComparison): ChartOption {
  const numbers = new Intl.NumberFormat(chart.locale);
  const text = { color: COLOURS.text, fontFamily: CHART_FONT.family };
  const percent = new Intl.NumberFormat(chart.locale, { style: 'percent', maximumFractionDigits: 0 });
  const line = (series: DailySeriesLine, colour: string, dashed: boolean, width = 3) => ({
    type: 'line' as const,
    name: series.name,
    data: series.values.map((value) => value ?? null),
    connectNulls: false,
    // Dots on a week's seven days; a month's thirty read better as a plain line.
    showSymbol: series.values.length <= 14,
    symbolSize: 6,
    color: colour,
    lineStyle: { width, color: colour, type: dashed ? ('dashed' as const) : ('solid' as const) },
    itemStyle: { color: colour },
  });
  const counts = {
    type: 'value' as const,
    minInterval: 1,
    axisLabel: { ...text, fontSize: 14, formatter: (value: number) => numbers.format(value) },
    splitLine: { lineStyle: { color: COLOURS.grid } },
  };
  const { share } = chart;
  return {
    backgroundColor: 'transparent',
    textStyle: text,
    title: {
      text: chart.title,
      left: 16,
      top: 12,
      textStyle: { ...text, fontSize: 20, fontWeight: 'normal' },
      ...(chart.subtitle ? { subtext: chart.subtitle, subtextStyle: { ...text, fontSize: 14 } } : {}),
    },
    // Under the title, from the left: a long legend grows into the free width, never past the edge.
    legend: {
      top: chart.subtitle ? 66 : 44,
      left: 12,
      textStyle: { ...text, fontSize: 14 },
      itemWidth: 28,
    },
    grid: { left: 64, right: share ? 72 : 60, top: chart.subtitle ? 108 : 86, bottom: 44 },
    xAxis: {
      type: 'category',
      data: [...chart.labels],
      boundaryGap: false,
      axisLabel: { ...text, fontSize: 14 },
      axisLine: { lineStyle: { color: COLOURS.text } },
      axisTick: { show: false },
    },
    yAxis: share
      ? [
          counts,
          {
            type: 'value',
            min: 0,
            max: 100,
            interval: 25,
            axisLabel: { ...text, fontSize: 14, formatter: (value: number) => percent.format(value / 100) },
            splitLine: { show: false },
          },
        ]
      : counts,
    // The previous period first, so today's line is drawn over it where they cross.
    series: [
      line(chart.previous, COLOURS.previous, true),
      line(chart.current, COLOURS.current, false),
      ...(share
        ? [
            ...(share.previous ? [{ ...line(share.previous, COLOURS.share, true, 2), yAxisIndex: 1 }] : []),
            { ...line(share.current, COLOURS.share, false, 2), yAxisIndex: 1 },
          ]
        : []),
    ],
  };
}
