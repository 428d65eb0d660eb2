// 👍 and 👎 a day as bars side by side, and the share of 👍 as a line on its own axis, for one glance.

import { chartFrame, type DailyLine, dailyLine, SERIES_COLOURS } from './chart-frame.js';
import type { ChartOption } from './draw.js';

const COLOURS = {
  up: SERIES_COLOURS.green,
  down: SERIES_COLOURS.red,
  rate: SERIES_COLOURS.blue,
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
  rate: DailyLine;
  /** Formats the axes' numbers, e.g. `zh-CN`. */
  locale: string;
}

export function dailyRatingsOption(chart: DailyRatingsChart): ChartOption {
  const bars = (series: { name: string; values: readonly number[] }, colour: string) => ({
    type: 'bar' as const,
    name: series.name,
    data: [...series.values],
    yAxisIndex: 0,
    barMaxWidth: 28,
    color: colour,
    itemStyle: { color: colour, borderRadius: [3, 3, 0, 0] },
  });
  const frame = chartFrame(chart, 72);
  return {
    ...frame.around,
    xAxis: frame.days,
    yAxis: [frame.counts, frame.shares],
    series: [
      bars(chart.up, COLOURS.up),
      bars(chart.down, COLOURS.down),
      { ...dailyLine(chart.rate, COLOURS.rate, false), yAxisIndex: 1 },
    ],
  };
}
