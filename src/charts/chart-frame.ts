// What the daily charts share around their series: mid-tone text and grid on a transparent ground
// (each reads on Slack's light and dark themes), the title and legend above the plot, the days along
// its foot, and the axes for counts and for shares.
import { CHART_FONT } from './chart-font.js';

const FRAME_COLOURS = { text: '#7d8187', grid: 'rgba(125, 129, 135, 0.35)' } as const;

interface FramedChart {
  title: string;
  /** Under the title. */
  subtitle?: string | undefined;
  /** A label per day, in the reader's language. */
  labels: readonly string[];
  /** Formats the axes' numbers, e.g. `zh-CN`. */
  locale: string;
}

/** `right`: the plot's right margin, wider when a share axis stands there. */
export function chartFrame(chart: FramedChart, right: number) {
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
      grid: { left: 64, right, top: chart.subtitle ? 108 : 86, bottom: 44 },
    },
    days: {
      type: 'category' as const,
      data: [...chart.labels],
      axisLabel: { ...text, fontSize: 14 },
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
