// Charts drawn on a worker thread (draw-worker.ts), one at a time, so an answer never waits behind one.

import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ChartImage } from './draw.js';
import type { ChartDrawing, DrawReply, DrawRequest } from './draw-worker.js';

/** The worker beside this module: `.js` once compiled, `.ts` under tsx and vitest. */
const WORKER_URL = new URL(`./draw-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
/**
 * The worker imports the charts' own modules, so from sources it needs tsx's loader, not bare type
 * stripping; named by its path, as `--import tsx` would be looked for from the process's directory.
 */
const WORKER_EXEC_ARGV = WORKER_URL.pathname.endsWith('.ts')
  ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
  : [];
/** Far past a draw's tens of milliseconds: a worker this late is stuck, and is replaced. */
const DRAW_TIMEOUT_MS = 20_000;

class ChartDrawError extends Error {
  override readonly name = 'ChartDrawError';
}

interface Pending {
  resolve: (image: ChartImage) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class ChartDrawer {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  draw(drawing: ChartDrawing): Promise<ChartImage> {
    const worker = this.#started();
    const id = this.#nextId++;
    return new Promise<ChartImage>((resolve, reject) => {
      const timer = setTimeout(
        () => this.#fail(new ChartDrawError('the chart worker did not answer in time')),
        DRAW_TIMEOUT_MS,
      );
      this.#pending.set(id, { resolve, reject, timer });
      // Kept alive while a chart is on its way, and not otherwise.
      worker.ref();
      worker.postMessage({ id, drawing } satisfies DrawRequest);
    });
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_URL, { execArgv: WORKER_EXEC_ARGV });
    worker.unref();
    worker.on('message', (reply: DrawReply) => {
      const pending = this.#settle(reply.id);
      if (!pending) return;
      if (reply.ok)
        pending.resolve({ png: Buffer.from(reply.png), width: reply.width, height: reply.height });
      else pending.reject(new ChartDrawError(reply.message));
    });
    worker.on('error', (error) => this.#fail(error));
    worker.on('exit', () => this.#fail(new ChartDrawError('the chart worker exited')));
    this.#worker = worker;
    return worker;
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    if (pending) clearTimeout(pending.timer);
    if (this.#pending.size === 0) this.#worker?.unref();
    return pending;
  }

  /** Every chart on its way fails; the next draw starts a new worker. */
  #fail(error: Error): void {
    const worker = this.#worker;
    this.#worker = undefined;
    for (const id of [...this.#pending.keys()]) this.#settle(id)?.reject(error);
    void worker?.terminate();
  }
}
