// Drawing the questions-a-day chart: milliseconds per draw (ECharts' SVG, then resvg's PNG) and the
// PNG's size, for a week and a month in each language. Run with `npm run bench:charts`.
import { ChartCache } from '../src/charts/chart-cache.js';
import { DAILY_CHART_SIZE, dailyComparisonOption } from '../src/charts/daily-comparison.js';
import { drawChart } from '../src/charts/draw.js';
import { LOCALES } from '../src/conversation/locale.js';
import type { DailySeries } from '../src/service-desk/daily-statistics.js';
import { questionsChart } from '../src/slack/desk/chart-views.js';
import { addDays } from '../src/util/time-zone.js';

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
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

for (const days of [7, 30]) {
  for (const locale of LOCALES) {
    const { drawing } = questionsChart(locale, series(days));
    const option = () => dailyComparisonOption(drawing);
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
      `${`${days} days, ${locale}`.padEnd(16)} median ${percentile(times, 0.5).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 0.95).toFixed(1).padStart(6)} ms  ${(bytes / 1024).toFixed(1).padStart(6)} KB  cached ${hit.toFixed(2)} ms`,
    );
  }
}
