// Charts drawn on a worker thread (draw-worker.ts), one at a time, so an answer never waits behind one.

import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ChartImage } from './draw.js';
import type { ChartDrawing, DrawRequest, WorkerMessage } from './draw-worker.js';

/** The worker beside this module: `.js` once compiled, `.ts` under tsx and vitest. */
const WORKER_URL = new URL(`./draw-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
/** Far past a draw's tens of milliseconds: a ready worker this long without a reply is stuck, and is replaced. */
const DRAW_TIMEOUT_MS = 20_000;
/**
 * Loading the worker's modules can take a busy machine longer than a draw's bound, and a replacement
 * starts the load over: only a worker not ready after this long is taken for stuck.
 */
const START_TIMEOUT_MS = 120_000;

/**
 * The worker imports the charts' own modules, so from sources it needs tsx's loader, not bare type
 * stripping; named by its path, as `--import tsx` would be looked for from the process's directory.
 */
function execArgvFor(workerUrl: URL): string[] {
  return workerUrl.pathname.endsWith('.ts')
    ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
    : [];
}

class ChartDrawError extends Error {
  override readonly name = 'ChartDrawError';
}

interface Pending {
  resolve: (image: ChartImage) => void;
  reject: (error: Error) => void;
}

export interface ChartDrawerOptions {
  /** The drawing thread's module: draw-worker's unless a test scripts its own. */
  workerUrl?: URL;
  drawTimeoutMs?: number;
  startTimeoutMs?: number;
}

export class ChartDrawer {
  readonly #workerUrl: URL;
  readonly #drawTimeoutMs: number;
  readonly #startTimeoutMs: number;
  #worker: Worker | undefined;
  /** Whether the worker has loaded its modules and answers draws. */
  #ready = false;
  readonly #pending = new Map<number, Pending>();
  /** Armed while the worker owes a reply; reset by each sign of progress (ready, a reply). */
  #watchdog: NodeJS.Timeout | undefined;
  #nextId = 1;

  constructor(options: ChartDrawerOptions = {}) {
    this.#workerUrl = options.workerUrl ?? WORKER_URL;
    this.#drawTimeoutMs = options.drawTimeoutMs ?? DRAW_TIMEOUT_MS;
    this.#startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  }

  draw(drawing: ChartDrawing): Promise<ChartImage> {
    const worker = this.#started();
    const id = this.#nextId++;
    return new Promise<ChartImage>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // Kept alive while a chart is on its way, and not otherwise.
      worker.ref();
      worker.postMessage({ id, drawing } satisfies DrawRequest);
      // Draws queued behind a busy worker do not restart its clock: only its progress does.
      this.#watchdog ??= this.#armed();
    });
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#workerUrl, { execArgv: execArgvFor(this.#workerUrl) });
    worker.unref();
    // A replaced worker's last events (its exit after terminate()) are not its successor's failures.
    const current = () => this.#worker === worker;
    worker.on('message', (message: WorkerMessage) => {
      if (!current()) return;
      if (message.kind === 'ready') this.#ready = true;
      else {
        const pending = this.#settle(message.id);
        if (message.kind === 'drawn') {
          pending?.resolve({ png: Buffer.from(message.png), width: message.width, height: message.height });
        } else pending?.reject(new ChartDrawError(message.message));
      }
      this.#rearm();
    });
    worker.on('error', (error) => {
      if (current()) this.#fail(error);
    });
    worker.on('exit', () => {
      if (current()) this.#fail(new ChartDrawError('the chart worker exited'));
    });
    this.#worker = worker;
    this.#ready = false;
    return worker;
  }

  #armed(): NodeJS.Timeout {
    const [bound, what] = this.#ready
      ? [this.#drawTimeoutMs, 'the chart worker did not answer in time']
      : [this.#startTimeoutMs, 'the chart worker did not start in time'];
    return setTimeout(() => this.#fail(new ChartDrawError(what)), bound);
  }

  #rearm(): void {
    clearTimeout(this.#watchdog);
    this.#watchdog = this.#pending.size > 0 ? this.#armed() : undefined;
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker?.unref();
    return pending;
  }

  /** Every chart on its way fails; the next draw starts a new worker. */
  #fail(error: Error): void {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#ready = false;
    for (const id of [...this.#pending.keys()]) this.#settle(id)?.reject(error);
    this.#rearm();
    void worker?.terminate();
  }
}
