// A period's figure a day as a line, the period before it dashed on the same days, for one glance.

import { chartFrame, type DailyLine, dailyLine, SERIES_COLOURS } from './chart-frame.js';
import type { ChartOption, ChartSize } from './draw.js';

const COLOURS = {
  current: SERIES_COLOURS.blue,
  previous: SERIES_COLOURS.orange,
  share: SERIES_COLOURS.purple,
} as const;

// 1.5 pixels per point: sharp enough on a dense screen, and the PNG encodes in a fraction of 2x's time.
export const DAILY_CHART_SIZE: ChartSize = { width: 800, height: 400, scale: 1.5 };

export interface DailyComparison {
  title: string;
  /** Under the title, e.g. what could not be read. */
  subtitle?: string | undefined;
  /** A label per day, in the reader's language. */
  labels: readonly string[];
  current: DailyLine;
  previous: DailyLine;
  /** A share a day (0 to 100) on an axis of its own, thin, this period solid and the one before dashed. */
  share?: { current: DailyLine; previous?: DailyLine | undefined } | undefined;
  /** Formats the value axis's numbers, e.g. `zh-CN`. */
  locale: string;
}

export function dailyComparisonOption(chart: DailyComparison): ChartOption {
  const { share } = chart;
  const frame = chartFrame(chart, share ? 72 : 60);
  return {
    ...frame.around,
    xAxis: { ...frame.days, boundaryGap: false },
    yAxis: share ? [frame.counts, frame.shares] : frame.counts,
    // The previous period first, so today's line is drawn over it where they cross.
    series: [
      dailyLine(chart.previous, COLOURS.previous, true),
      dailyLine(chart.current, COLOURS.current, false),
      ...(share
        ? [
            ...(share.previous
              ? [{ ...dailyLine(share.previous, COLOURS.share, true, 2), yAxisIndex: 1 }]
              : []),
            { ...dailyLine(share.current, COLOURS.share, false, 2), yAxisIndex: 1 },
          ]
        : []),
    ],
  };
}
