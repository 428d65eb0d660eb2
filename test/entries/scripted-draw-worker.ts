// A chart worker scripted for the drawer's tests: its module load takes SCRIPTED_DRAW_START_MS (as a busy
// machine makes a real one's), a drawing titled "hang" is never answered, any other gets a one-byte image.
import { parentPort } from 'node:worker_threads';
import type { DrawRequest, WorkerMessage } from '../../src/charts/draw-worker.js';

Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.SCRIPTED_DRAW_START_MS ?? 0));

parentPort?.on('message', (request: DrawRequest) => {
  if (request.drawing.chart.title === 'hang') return;
  const reply: WorkerMessage = {
    kind: 'drawn',
    id: request.id,
    png: new Uint8Array([1]),
    width: 1,
    height: 1,
  };
  parentPort?.postMessage(reply);
});
parentPort?.postMessage({ kind: 'ready' } satisfies WorkerMessage);
