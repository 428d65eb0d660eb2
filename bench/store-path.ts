// Store bench: what an answer's storing costs in each store the gateway runs on without Redis, on its
// own (the load bench's gateways share 2 cores with the driver, and the store's share drowns in their
// noise). Each answer does what the answer path does: claim its delivery, remember its thread, look up
// the asker's name, keep its context, then mark the delivery answered. Measured per answer: the
// process's CPU (every thread: the SQLite checkpoints run on a worker), the main thread's busy time
// (what the event loop could not spend answering) and the longest the event loop was held up.
// The SQLite file is first filled with BENCH_PREFILL answers (default 100,000: about a day of a busy
// workspace), as a file is after a while. Run with `npm run bench:stores`; BENCH_ANSWERS sets the count,
// BENCH_RATE paces the answers (a second's worth each second) instead of running them back to back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { newContextKey } from '../src/conversation/context-key.js';
import { createStores } from '../src/stores/index.js';
import type { Stores } from '../src/stores/stores.js';
import { answerContext } from '../test/support/answer-context.js';

const ANSWERS = Number(process.env.BENCH_ANSWERS ?? 30_000);
const PREFILL = Number(process.env.BENCH_PREFILL ?? 100_000);
/** Answers a second; 0 (the default) runs them as fast as they come. */
const RATE = Number(process.env.BENCH_RATE ?? 0);
/** Answers between two turns of the event loop: about what arrives in a millisecond at 1,000/s. */
const BURST = 8;
const TTL_SECONDS = 7 * 24 * 3600;
const CHANNELS = 200;

const context = answerContext({
  question: 'How do I connect to the VPN from home when the client says my certificate expired?',
});

/** The n-th answer's store calls, as src/slack/answers does them (the context under a key the core makes). */
async function answer(stores: Stores, n: number): Promise<void> {
  const channel = `D${String((n * 7_919) % CHANNELS).padStart(8, '0')}`;
  const ts = `${1_700_000_000 + Math.floor(n / 1_000)}.${String(n % 1_000_000).padStart(6, '0')}`;
  const delivery = `msg:T0BENCH:${channel}:${ts}`;
  if (!(await stores.deliveries.claim(delivery, 60))) throw new Error(`delivery ${delivery} claimed twice`);
  await stores.threads.claim(`T0BENCH:${channel}:${ts}`, TTL_SECONDS);
  const name = await stores.names.get(`U${n % CHANNELS}`);
  if (name === undefined) await stores.names.set(`U${n % CHANNELS}`, 'Ada Lovelace', 3_600);
  await stores.contexts.put(newContextKey(), context);
  await stores.deliveries.keep(delivery, 6 * 3_600);
}

interface Figures {
  cpuMicros: number;
  mainMicros: number;
  maxDelayMs: number;
  p99DelayMs: number;
}

async function measure(stores: Stores, first: number, count: number): Promise<Figures> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const cpu = process.cpuUsage();
  const elu = performance.eventLoopUtilization();
  delay.enable();
  const started = performance.now();
  for (let n = first; n < first + count; n += BURST) {
    await Promise.all(Array.from({ length: BURST }, (_, i) => answer(stores, n + i)));
    // Paced, the batches are what that rate makes, and the threads sleep between them as in service.
    const wait = RATE > 0 ? started + ((n - first + BURST) * 1000) / RATE - performance.now() : 0;
    if (wait > 0) await sleep(wait);
    else await nextTurn();
  }
  // What was held is written, and the checkpoint that follows it is made, inside the window.
  await sleep(1_200);
  delay.disable();
  const used = process.cpuUsage(cpu);
  const busy = performance.eventLoopUtilization(elu);
  return {
    cpuMicros: (used.user + used.system) / count,
    mainMicros: (busy.active * 1000) / count,
    maxDelayMs: delay.max / 1e6,
    p99DelayMs: delay.percentile(99) / 1e6,
  };
}

async function run(name: string, stores: Stores, prefill: number): Promise<void> {
  for (let n = 0; n < prefill; n += BURST * 50) {
    // The last burst stops at `prefill`: the measured answers start there, and a delivery is claimed once.
    await Promise.all(
      Array.from({ length: Math.min(BURST * 50, prefill - n) }, (_, i) => answer(stores, n + i)),
    );
    await nextTurn();
  }
  await sleep(1_500);
  // A warm-up, then the measured answers.
  await measure(stores, prefill, 2_000);
  const figures = await measure(stores, prefill + 2_000, ANSWERS);
  console.log(
    [
      name.padEnd(34),
      figures.cpuMicros.toFixed(1).padStart(15),
      figures.mainMicros.toFixed(1).padStart(16),
      figures.p99DelayMs.toFixed(1).padStart(16),
      figures.maxDelayMs.toFixed(1).padStart(10),
    ].join(''),
  );
  await stores.close();
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'gateway-store-bench-'));
  const options = { maxEntries: 10_000, ttlSeconds: TTL_SECONDS };
  console.log(
    `${ANSWERS.toLocaleString('en')} answers, ${BURST} at a time${RATE > 0 ? `, ${RATE} a second` : ''}; each: claim the delivery, remember the thread, look up a name, keep the context, mark the delivery answered`,
  );
  console.log(
    `${'store'.padEnd(34)}${'CPU µs/answer'.padStart(15)}${'main thread µs'.padStart(16)}${'loop delay p99'.padStart(16)}${'max ms'.padStart(10)}`,
  );
  try {
    await run('memory', await createStores({ ...options, state: { kind: 'memory' } }), 0);
    await run(
      'SQLite, fresh file',
      await createStores({ ...options, state: { kind: 'sqlite', path: join(folder, 'fresh.sqlite') } }),
      0,
    );
    await run(
      `SQLite, ${PREFILL.toLocaleString('en')} answers in the file`,
      await createStores({ ...options, state: { kind: 'sqlite', path: join(folder, 'filled.sqlite') } }),
      PREFILL,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
