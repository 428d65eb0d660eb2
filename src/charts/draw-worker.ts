// The charts' drawing thread, run by chart-drawer.ts: a draw's CPU stays off the gateway's event loop.
import { parentPort } from 'node:worker_threads';
import { DAILY_CHART_SIZE, type DailyComparison, dailyComparisonOption } from './daily-comparison.js';
import { type DailyRatingsChart, dailyRatingsOption } from './daily-ratings.js';
import { type DailyTicketsChart, dailyTicketsOption } from './daily-tickets.js';
import { type ChartOption, drawChart } from './draw.js';

/** What a chart shows, as plain data: the option's formatters are functions, so it is made on this side. */
export type ChartDrawing =
  | { kind: 'comparison'; chart: DailyComparison }
  | { kind: 'ratings'; chart: DailyRatingsChart }
  | { kind: 'tickets'; chart: DailyTicketsChart };

function optionOf(drawing: ChartDrawing): ChartOption {
  switch (drawing.kind) {
    case 'comparison':
      return dailyComparisonOption(drawing.chart);
    case 'ratings':
      return dailyRatingsOption(drawing.chart);
    case 'tickets':
      return dailyTicketsOption(drawing.chart);
  }
}

export interface DrawRequest {
  id: number;
  drawing: ChartDrawing;
}

/** What the worker says: once, that its modules are loaded; then each draw's outcome. */
export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'drawn'; id: number; png: Uint8Array; width: number; height: number }
  | { kind: 'failed'; id: number; message: string };

parentPort?.on('message', (request: DrawRequest) => {
  let reply: WorkerMessage;
  try {
    const image = drawChart(optionOf(request.drawing), DAILY_CHART_SIZE);
    reply = { kind: 'drawn', id: request.id, png: image.png, width: image.width, height: image.height };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { kind: 'failed', id: request.id, message };
  }
  parentPort?.postMessage(reply);
});
parentPort?.postMessage({ kind: 'ready' } satisfies WorkerMessage);
