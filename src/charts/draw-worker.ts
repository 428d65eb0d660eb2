// The charts' drawing thread, run by chart-drawer.ts: a draw's CPU stays off the gateway's event loop.
import { parentPort } from 'node:worker_threads';
import { DAILY_CHART_SIZE, type DailyComparison, dailyComparisonOption } from './daily-comparison.js';
import { drawChart } from './draw.js';

/** Plain data: the option's number formatter is a function, so it is made on this side. */
export interface DrawRequest {
  id: number;
  chart: DailyComparison;
}

export type DrawReply =
  | { id: number; ok: true; png: Uint8Array; width: number; height: number }
  | { id: number; ok: false; message: string };

parentPort?.on('message', (request: DrawRequest) => {
  let reply: DrawReply;
  try {
    const image = drawChart(dailyComparisonOption(request.chart), DAILY_CHART_SIZE);
    reply = { id: request.id, ok: true, png: image.png, width: image.width, height: image.height };
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
