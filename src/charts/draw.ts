// ECharts' server-side SVG, rasterised by resvg with only the shipped font: no canvas, no system fonts.
import { Resvg } from '@resvg/resvg-js';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import { BarChart, LineChart } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TitleComponentOption } from 'echarts/components';
import { GridComponent, LegendComponent, TitleComponent } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { CHART_FONT, chartFontFiles } from './chart-font.js';

use([LineChart, BarChart, GridComponent, LegendComponent, TitleComponent, SVGRenderer]);

export type ChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | GridComponentOption | LegendComponentOption | TitleComponentOption
>;

export interface ChartSize {
  /** In CSS pixels, as the option lays out. */
  width: number;
  height: number;
  /** Pixels per CSS pixel in the PNG: 2 stays sharp on high-density screens. */
  scale: number;
}

export interface ChartImage {
  png: Buffer;
  /** In PNG pixels. */
  width: number;
  height: number;
}

/** The chart's SVG, as ECharts lays it out without a DOM. */
function chartSvg(option: ChartOption, size: Pick<ChartSize, 'width' | 'height'>): string {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width: size.width, height: size.height });
  try {
    chart.setOption({ ...option, animation: false });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/**
 * The chart as a PNG; text in any font family is drawn in the shipped one, and a character it lacks
 * in the system's fallback font when one is installed (chart-font.ts); no other font is loaded.
 */
export function drawChart(option: ChartOption, size: ChartSize): ChartImage {
  const svg = chartSvg(option, size);
  const rendered = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: size.scale },
    font: { fontFiles: chartFontFiles(svg), loadSystemFonts: false, defaultFontFamily: CHART_FONT.family },
  }).render();
  return { png: rendered.asPng(), width: rendered.width, height: rendered.height };
}
