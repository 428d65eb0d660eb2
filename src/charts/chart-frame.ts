// What the daily charts share around their series: mid-tone text and grid on a transparent ground
// (each reads on Slack's light and dark themes), the title and legend above the plot, the days along
// its foot, the axes for counts and for shares, and the line of a figure a day.
import { CHART_FONT } from './chart-font.js';

const FRAME_COLOURS = { text: '#7d8187', grid: 'rgba(125, 129, 135, 0.35)' } as const;

/** The series' mid-tones, each readable on Slack's light and dark themes, in the order groups take them. */
export const SERIES_COLOURS = {
  blue: '#2f7fe6',
  orange: '#e8912d',
  green: '#2f9e6e',
  purple: '#9b6bd6',
  red: '#d9534f',
  teal: '#1f9fa8',
  /** What is left over (other, unknown): the frame's own grey, and a lighter one beside it. */
  grey: FRAME_COLOURS.text,
  lightGrey: '#a9adb3',
} as const;

interface FramedChart {
  title: string;
  /** Under the title. */
  subtitle?: string | undefined;
  /** A label per day, in the reader's language. */
  labels: readonly string[];
  /** Formats the axes' numbers, e.g. `zh-CN`. */
  locale: string;
}

/** Up to this many days, each is named: a week's labels fit side by side, which ECharts' estimate doubts. */
const EVERY_DAY_NAMED_MAX = 7;

/** A legend row's height, and the width one fills (the chart's 800 less its margins). */
export const LEGEND_ROW = { height: 24, width: 770 } as const;

/**
 * `right`: the plot's right margin, wider when a share axis stands there; `legendRows`: the rows a
 * long legend wraps into, each pushing the plot down.
 */
export function chartFrame(chart: FramedChart, right: number, legendRows = 1) {
  const legendDrop = (legendRows - 1) * LEGEND_ROW.height;
  const text = { color: FRAME_COLOURS.text, fontFamily: CHART_FONT.family };
  const numbers = new Intl.NumberFormat(chart.locale);
  const percent = new Intl.NumberFormat(chart.locale, { style: 'percent', maximumFractionDigits: 0 });
  return {
    around: {
      backgroundColor: 'transparent',
      textStyle: text,
      title: {
        text: chart.title,
        left: 16,
        top: 12,
        textStyle: { ...text, fontSize: 20, fontWeight: 'normal' as const },
        ...(chart.subtitle ? { subtext: chart.subtitle, subtextStyle: { ...text, fontSize: 14 } } : {}),
      },
      // Under the title, from the left: a long legend grows into the free width, never past the edge.
      legend: {
        top: chart.subtitle ? 66 : 44,
        left: 12,
        textStyle: { ...text, fontSize: 14 },
        itemWidth: 28,
      },
      grid: { left: 64, right, top: (chart.subtitle ? 108 : 86) + legendDrop, bottom: 44 },
    },
    days: {
      type: 'category' as const,
      data: [...chart.labels],
      axisLabel: {
        ...text,
        fontSize: 14,
        ...(chart.labels.length <= EVERY_DAY_NAMED_MAX ? { interval: 0 } : {}),
      },
      axisLine: { lineStyle: { color: FRAME_COLOURS.text } },
      axisTick: { show: false },
    },
    counts: {
      type: 'value' as const,
      minInterval: 1,
      axisLabel: { ...text, fontSize: 14, formatter: (value: number) => numbers.format(value) },
      splitLine: { lineStyle: { color: FRAME_COLOURS.grid } },
    },
    /** 0 to 100, read as percent. */
    shares: {
      type: 'value' as const,
      min: 0,
      max: 100,
      interval: 25,
      axisLabel: { ...text, fontSize: 14, formatter: (value: number) => percent.format(value / 100) },
      splitLine: { show: false },
    },
  };
}

export interface DailyLine {
  /** The legend's name, in the reader's language. */
  name: string;
  /** One a day, in the labels' order; undefined where the figure is unknown, drawn as a gap. */
  values: readonly (number | undefined)[];
}

/** A figure a day as a line, solid or dashed. */
export function dailyLine(series: DailyLine, colour: string, dashed: boolean, width = 3) {
  return {
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
  };
}
