// Drawing the questions-a-day, ratings-a-day and tickets-a-day charts: milliseconds per draw (ECharts'
// SVG, then resvg's PNG) and the PNG's size, for a week and a month in each language; the tickets chart
// also with a group named in characters the shipped subset lacks (the system's fallback font loaded).
// Run with `npm run bench:charts`.
import { ChartCache } from '../src/charts/chart-cache.js';
import { DAILY_CHART_SIZE, dailyComparisonOption } from '../src/charts/daily-comparison.js';
import { dailyRatingsOption } from '../src/charts/daily-ratings.js';
import { dailyTicketsOption } from '../src/charts/daily-tickets.js';
import { type ChartOption, drawChart } from '../src/charts/draw.js';
import { LOCALES, type Locale } from '../src/conversation/locale.js';
import type { Ticket } from '../src/platform/schemas.js';
import type { RatingSeries } from '../src/service-desk/daily-counts.js';
import { type DailySeries, unansweredShares } from '../src/service-desk/daily-statistics.js';
import { ticketsByGroup } from '../src/service-desk/daily-tickets.js';
import { questionsChart, ratingsChart, ticketsChart } from '../src/slack/desk/chart-views.js';
import { addDays, startOfDay } from '../src/util/time-zone.js';

const DRAWS = 30;

function series(days: number): DailySeries {
  const from = addDays('2026-11-28', -(days - 1));
  const dates = Array.from({ length: days }, (_, index) => addDays(from, index));
  // Weekdays busier than weekends, as a desk's weeks are.
  const figure = (day: string, base: number) => {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    return base + (weekday === 0 || weekday === 6 ? -400 : 0) + ((Number(day.slice(8)) * 37) % 90);
  };
  return {
    period: { from, to: '2026-11-28' },
    previous: { from: addDays(from, -days), to: addDays(from, -1) },
    days: dates,
    current: dates.map((day) => figure(day, 1200)),
    before: dates.map((day) => figure(addDays(day, -days), 1000)),
    // The gateway's own counts: a tenth to a fifth of its questions unanswered, fewer since a fix.
    unanswered: unansweredShares(
      dates.map((day) => ({ asked: 60, unanswered: 6 + (Number(day.slice(8)) % 5) })),
      dates.map((day) => ({ asked: 55, unanswered: 10 + (Number(day.slice(8)) % 4) })),
    ),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

function ratings(days: number): RatingSeries {
  const { period, days: dates } = series(days);
  // A few dozen ratings a weekday, mostly helpful.
  const counts = dates.map((day) => {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const rated = weekday === 0 || weekday === 6 ? 6 : 30 + ((Number(day.slice(8)) * 7) % 20);
    return { up: Math.round(rated * 0.8), down: rated - Math.round(rated * 0.8) };
  });
  return { period, days: dates, counts };
}

/** A desk's tickets: a dozen a weekday, a few a weekend, over five groups and a few with none. */
function tickets(days: number, groups: readonly string[]) {
  const { period, days: dates } = series(days);
  const held: Ticket[] = dates.flatMap((day) => {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const count = weekday === 0 || weekday === 6 ? 3 : 10 + (Number(day.slice(8)) % 5);
    return Array.from({ length: count }, (_, n) => ({
      ticketId: `${day}-${n}`,
      createTime: (startOfDay(day, 'Asia/Shanghai') + 3600 * (8 + n)) * 1000,
      dealGroupName: n % 9 === 8 ? '' : (groups[n % groups.length] ?? ''),
    }));
  });
  return ticketsByGroup(held, period, 'Asia/Shanghai');
}

const GROUPS = ['IT Service Desk', 'HR Service', 'Finance Service', 'Facilities', 'Procurement'];

const ticketsDrawn = (groups: readonly string[]) => (days: number, locale: Locale) => {
  const chart = ticketsChart(locale, tickets(days, groups));
  if (!chart) throw new Error('no tickets to draw');
  return { drawing: chart.drawing, option: () => dailyTicketsOption(chart.drawing) };
};

const charts: {
  name: string;
  drawn: (days: number, locale: Locale) => { drawing: object; option: () => ChartOption };
}[] = [
  {
    name: 'questions',
    drawn: (days, locale) => {
      const { drawing } = questionsChart(locale, series(days));
      return { drawing, option: () => dailyComparisonOption(drawing) };
    },
  },
  {
    name: 'ratings',
    drawn: (days, locale) => {
      const chart = ratingsChart(locale, ratings(days));
      if (!chart) throw new Error('no ratings to draw');
      return { drawing: chart.drawing, option: () => dailyRatingsOption(chart.drawing) };
    },
  },
  { name: 'tickets', drawn: ticketsDrawn(GROUPS) },
  { name: 'tickets, 行政服务', drawn: ticketsDrawn([...GROUPS.slice(0, 3), '行政服务', 'Procurement']) },
];

for (const { name, drawn: drawnOf } of charts)
  for (const days of [7, 30]) {
    for (const locale of LOCALES) {
      const { drawing, option } = drawnOf(days, locale);
      drawChart(option(), DAILY_CHART_SIZE);
      const times: number[] = [];
      let bytes = 0;
      for (let draw = 0; draw < DRAWS; draw += 1) {
        const start = performance.now();
        bytes = drawChart(option(), DAILY_CHART_SIZE).png.length;
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const cache = new ChartCache();
      const drawn = async () => drawChart(option(), DAILY_CHART_SIZE);
      await cache.image(drawing, drawn);
      const hitStart = performance.now();
      await cache.image(drawing, drawn);
      const hit = performance.now() - hitStart;
      console.log(
        `${`${name}, ${days} days, ${locale}`.padEnd(34)} median ${percentile(times, 0.5).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 0.95).toFixed(1).padStart(6)} ms  ${(bytes / 1024).toFixed(1).padStart(6)} KB  cached ${hit.toFixed(2)} ms`,
      );
    }
  }
