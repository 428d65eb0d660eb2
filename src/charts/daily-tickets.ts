// Tickets opened a day as one stacked bar a day, a segment per handling group, for one glance.

import { chartFrame, LEGEND_ROW, SERIES_COLOURS } from './chart-frame.js';
import type { ChartOption } from './draw.js';

/** Named groups take these in order; what is folded or unnamed is grey, so a group's colour stands out. */
const GROUP_COLOURS = [
  SERIES_COLOURS.blue,
  SERIES_COLOURS.orange,
  SERIES_COLOURS.green,
  SERIES_COLOURS.purple,
  SERIES_COLOURS.red,
  SERIES_COLOURS.teal,
] as const;
const LEFT_OVER_COLOURS = { other: SERIES_COLOURS.grey, none: SERIES_COLOURS.lightGrey } as const;

export interface TicketGroupBars {
  /** The legend's name: the group's own, or "Other", "No group" in the reader's language. */
  name: string;
  /** `group`: a named group, coloured in order; `other` and `none` are grey. */
  tone: 'group' | 'other' | 'none';
  /** One a day, in the labels' order; undefined where the day could not be read. */
  values: readonly (number | undefined)[];
}

export interface DailyTicketsChart {
  title: string;
  /** Under the title, e.g. what could not be read. */
  subtitle?: string | undefined;
  /** A label per day, in the reader's language. */
  labels: readonly string[];
  /** Bottom to top of each day's bar. */
  groups: readonly TicketGroupBars[];
  /** Formats the axes' numbers, e.g. `zh-CN`. */
  locale: string;
}

/** The legend's text is 14 px: a wide (Chinese) character about 14 px, any other about 8. */
const WIDE_CHARACTER =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\uff00-\uffef\u3000-\u303f]/u;
/** The swatch, the gap after it and the gap to the next entry, beside each name. */
const LEGEND_ENTRY_EXTRA = 28 + 5 + 10;

/** How many rows the legend wraps into, reckoned from its names' widths, with room to spare. */
function legendRows(names: readonly string[]): number {
  let rows = 1;
  let used = 0;
  for (const name of names) {
    const width =
      LEGEND_ENTRY_EXTRA +
      [...name].reduce((sum, character) => sum + (WIDE_CHARACTER.test(character) ? 14 : 8), 0);
    if (used > 0 && used + width > LEGEND_ROW.width) {
      rows += 1;
      used = 0;
    }
    used += width;
  }
  return rows;
}

export function dailyTicketsOption(chart: DailyTicketsChart): ChartOption {
  let named = 0;
  const colourOf = (group: TicketGroupBars) =>
    group.tone === 'group'
      ? (GROUP_COLOURS[named++ % GROUP_COLOURS.length] ?? SERIES_COLOURS.blue)
      : LEFT_OVER_COLOURS[group.tone];
  const frame = chartFrame(chart, 40, legendRows(chart.groups.map((group) => group.name)));
  return {
    ...frame.around,
    xAxis: frame.days,
    yAxis: frame.counts,
    series: chart.groups.map((group) => {
      const colour = colourOf(group);
      return {
        type: 'bar' as const,
        name: group.name,
        stack: 'tickets',
        data: group.values.map((value) => value ?? null),
        barMaxWidth: 36,
        color: colour,
        itemStyle: { color: colour },
      };
    }),
  };
}
