// 👍 and 👎 a day as bars side by side, and the share of 👍 as a line on its own axis, for one glance.

import { CHART_FONT } from './chart-font.js';
import type { ChartOption } from './draw.js';

/** Mid-tones on a transparent ground, as the questions chart's: each reads on Slack's light and dark themes. */
const COLOURS = {
  text: '#7d8187',
  grid: 'rgba(125, 129, 135, 0.35)',
  up: '#2f9e6e',
  down: '#d9534f',
  rate: '#2f7fe6',
} as const;

export interface DailyRatingsChart {
  title: string;
  /** Under the title, e.g. that no rating was counted. */
  subtitle?: string | undefined;
  /** A label per day, in the reader's language. */
  labels: readonly string[];
  up: { name: string; values: readonly number[] };
  down: { name: string; values: readonly number[] };
  /** 👍 of the day's ratings, 0 to 100; undefined on a day without ratings, drawn as a gap. */
  rate: { name: string; values: readonly (number | undefined)[] };
  /** Formats the axes' numbers, e.g. `zh-CN`. */
  locale: string;
}

export function dailyRatingsOption(chart: DailyRatingsChart): ChartOption {
  const numbers = new Intl.NumberFormat(chart.locale);
  const percent = new Intl.NumberFormat(chart.locale, { style: 'percent', maximumFractionDigits: 0 });
  const text = { color: COLOURS.text, fontFamily: CHART_FONT.family };
  const bars = (series: { name: string; values: readonly number[] }, colour: string) => ({
    type: 'bar' as const,
    name: series.name,
    data: [...series.values],
    yAxisIndex: 0,
    barMaxWidth: 28,
    color: colour,
    itemStyle: { color: colour, borderRadius: [3, 3, 0, 0] },
  });
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
    legend: { top: chart.subtitle ? 66 : 44, left: 12, textStyle: { ...text, fontSize: 14 }, itemWidth: 28 },
    grid: { left: 64, right: 72, top: chart.subtitle ? 108 : 86, bottom: 44 },
    xAxis: {
      type: 'category',
      data: [...chart.labels],
      axisLabel: { ...text, fontSize: 14 },
      axisLine: { lineStyle: { color: COLOURS.text } },
      axisTick: { show: false },
    },
    yAxis: [
      {
        type: 'value',
        minInterval: 1,
        axisLabel: { ...text, fontSize: 14, formatter: (value: number) => numbers.format(value) },
        splitLine: { lineStyle: { color: COLOURS.grid } },
      },
      {
        type: 'value',
        min: 0,
        max: 100,
        interval: 25,
        axisLabel: { ...text, fontSize: 14, formatter: (value: number) => percent.format(value / 100) },
        splitLine: { show: false },
      },
    ],
    series: [
      bars(chart.up, COLOURS.up),
      bars(chart.down, COLOURS.down),
      {
        type: 'line',
        name: chart.rate.name,
        data: chart.rate.values.map((value) => value ?? null),
        yAxisIndex: 1,
        connectNulls: false,
        showSymbol: chart.rate.values.length <= 14,
        symbolSize: 6,
        color: COLOURS.rate,
        lineStyle: { width: 3, color: COLOURS.rate },
        itemStyle: { color: COLOURS.rate },
      },
    ],
  };
}
