// The chart PNG: a real image of the laid-out size, not blank, with Chinese labels drawn in the shipped font.
import { describe, expect, it } from 'vitest';
import { CHART_FONT, canDraw, chartFontFiles } from '../../../src/charts/chart-font.js';
import {
  DAILY_CHART_SIZE,
  type DailyComparison,
  dailyComparisonOption,
} from '../../../src/charts/daily-comparison.js';
import { drawChart } from '../../../src/charts/draw.js';
import { CHINESE_WEEK_LABELS } from '../../support/chart-week.js';
import { inkIn, pixelsOf } from '../../support/png-pixels.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function week(title: string): DailyComparison {
  return {
    title,
    labels: CHINESE_WEEK_LABELS,
    locale: 'zh-CN',
    current: { name: '11月22日 – 11月28日', values: [41, 52, 47, 60, undefined, 33, 29] },
    previous: { name: '11月15日 – 11月21日（上一期）', values: [38, 40, 45, 51, 49, 30, 22] },
  };
}

// The title sits top left, 16 points in, 18 points high; in PNG pixels at the chart's scale.
const scale = DAILY_CHART_SIZE.scale;
const TITLE_BOX = { left: 16 * scale, top: 10 * scale, width: 200 * scale, height: 26 * scale };

describe('a chart drawn to PNG', () => {
  it('is a PNG of the laid-out size times the scale, and not blank', () => {
    const image = drawChart(dailyComparisonOption(week('每日提问')), DAILY_CHART_SIZE);
    expect(image.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(image.png.readUInt32BE(16)).toBe(DAILY_CHART_SIZE.width * scale);
    expect(image.png.readUInt32BE(20)).toBe(DAILY_CHART_SIZE.height * scale);
    expect(image.width).toBe(DAILY_CHART_SIZE.width * scale);
    const pixels = pixelsOf(image.png, image.width, image.height);
    const all = { left: 0, top: 0, width: image.width, height: image.height };
    expect(inkIn(pixels, image.width, all)).toBeGreaterThan(image.width * 10);
  });

  it('draws a Chinese title with the shipped font, where characters no font holds leave nothing', () => {
    const drawn = drawChart(dailyComparisonOption(week('每日提问')), DAILY_CHART_SIZE);
    const drawnInk = inkIn(pixelsOf(drawn.png, drawn.width, drawn.height), drawn.width, TITLE_BOX);
    // Ethiopic, in neither the subset nor Noto Sans CJK: resvg drops it silently, as it would every
    // label with no font at all.
    const missing = drawChart(dailyComparisonOption(week('ሰላም ዓለም')), DAILY_CHART_SIZE);
    const missingInk = inkIn(pixelsOf(missing.png, missing.width, missing.height), missing.width, TITLE_BOX);
    expect(missingInk).toBe(0);
    expect(drawnInk).toBeGreaterThan(200);
  });

  // Where the system has no Noto Sans CJK, a name the subset cannot draw is a placeholder (chart-views).
  it.runIf(canDraw('行政服务部'))(
    'draws Chinese the subset lacks in the system’s Noto Sans CJK, loaded only for such text',
    () => {
      expect(chartFontFiles('每日提问')).toEqual([CHART_FONT.path]);
      expect(chartFontFiles('行政服务部')).toHaveLength(2);
      const drawn = drawChart(dailyComparisonOption(week('行政服务部')), DAILY_CHART_SIZE);
      expect(inkIn(pixelsOf(drawn.png, drawn.width, drawn.height), drawn.width, TITLE_BOX)).toBeGreaterThan(
        200,
      );
    },
  );

  it('loads the font from the path it names, a TrueType file', async () => {
    const { readFile } = await import('node:fs/promises');
    const font = await readFile(CHART_FONT.path);
    expect(font.readUInt32BE(0)).toBe(0x00010000);
  });
});
