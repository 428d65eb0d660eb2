// Child-process entry of the load bench: runs one system under test (the bare relay, or the real
// gateway on one of its stores), so its RSS and CPU are its own. Talks to bench/load.ts over the IPC
// channel of fork().
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { parseEnv } from '../src/config/env.js';
import { createLogger } from '../src/logging/logger.js';
import { tracingChoice } from '../src/observability/tracing-switch.js';
import type { RedisServer } from '../src/stores/redis-client.js';
import type { StoreChoice } from '../src/stores/stores.js';
import { startBareRelay } from './bare-relay.js';
import { GATEWAY_FEATURES } from './gateway-features.js';
import { startHttpFloor } from './http-floor.js';

/** A system under test: the bare relay, or the gateway on one store (its name says which). */
export type SystemName =
  | 'relay'
  | 'http-floor'
  | `gateway-${StoreChoice['kind']}`
  // A gateway of another checkout (BENCH_BEFORE), on a file or keys of its own.
  | `gateway-${StoreChoice['kind']}-before`
  // Installed in many workspaces (BENCH_WORKSPACES), each request authorized by its installation.
  | `gateway-${StoreChoice['kind']}-distributed`;

/** `http-floor`: a bare node:http server, the chatter phase's reference (http-floor.ts). */
export type TargetSystem =
  | { kind: 'relay' }
  | { kind: 'http-floor' }
  | { kind: 'gateway'; store: StoreChoice; distributed?: boolean };

export interface TargetConfig {
  /** Names the system in the reports and its CPU profile file. */
  name: SystemName;
  system: TargetSystem;
  signingSecret: string;
  botToken: string;
  slackApiUrl: string;
  platformUrl: string;
  accessToken: string;
  sysNum: string;
  /** The gateway's CS_HEADERS_TIMEOUT_MS / CS_BODY_TIMEOUT_MS: above the slow-robot phase's delay. */
  platformTimeoutMs: number;
  logLevel: string;
  /**
   * When set, the CPU of the measured window (mark → report) is profiled into `<dir>/<name>.cpuprofile`,
   * and that of a `mark-cpu` window given a `profileAs` into `<dir>/<name>-<profileAs>.cpuprofile`.
   */
  profileDir?: string;
  /** With `profileDir`: what the saturation window allocates, sampled into `<dir>/<name>.heapprofile`. */
  heapProfile?: boolean;
  /** The features switched on; GATEWAY_FEATURES unless given (a checkout before this field uses its own). */
  features?: Record<string, string>;
}

/** What the child measured since the last `mark`. */
export interface TargetReport {
  peakRssMb: number;
  /** The main thread's V8 heap when RSS peaked: its total, used or not (not every page of it resident). */
  peakRssHeapMb: number;
  /** Memory V8 knows of outside its heap (Buffers, ArrayBuffers) when RSS peaked. */
  peakRssExternalMb: number;
  /**
   * Of the RSS at its peak, the pages mapped from files (the node binary's code in use, shared
   * libraries): shared with other processes and dropped by the kernel under pressure. 0 off Linux.
   */
  peakRssFileMb: number;
  rssMb: number;
  heapUsedMb: number;
  cpuMs: number;
  /** Log lines at warn level or above (the gateway only; the relay logs nothing). */
  warnings: number;
  /**
   * Of `cpuMs`, the main thread's (NaN where Node cannot tell: 20 cannot, 22 and 24 can): the rest is the
   * process's other threads (a store's worker, libuv's pool, V8's helpers).
   */
  mainThreadCpuMs: number;
  /** The event loop's longest delay in the window: every event arriving meanwhile waited that long for its ack. */
  longestStallMs: number;
}

/**
 * `mark` opens the saturation window (profiled with BENCH_PROFILE) and is not answered: the closed
 * loop sends it from a timer. `mark-cpu` opens a window of another phase, profiled into a file of its
 * own only when given `profileAs` (the saturation profile is not overwritten), and is answered with
 * `marked`, so the caller sends its first event after the child started counting. With `collectFirst`
 * the child collects its garbage before the window opens (the bench starts it with --expose-gc).
 */
export type ParentMessage =
  | { type: 'mark' }
  | { type: 'mark-cpu'; profileAs?: string; collectFirst?: boolean }
  | { type: 'report' }
  | { type: 'stop' };
/** The store a gateway opened, as its start-up line names it; the relay keeps no state. */
export interface TargetStore {
  kind: StoreChoice['kind'];
  location: string;
}

export type ChildMessage =
  | { type: 'ready'; port: number; store?: TargetStore; startRssMb: number }
  /** With `collectFirst`: V8's heap in use just after the collection, what the process still holds. */
  | { type: 'marked'; liveHeapMb?: number }
  | { type: 'report'; report: TargetReport }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };

const RSS_SAMPLE_MS = 50;
/** One allocation sampled in about this many bytes: V8's default (32 KB) halved, for small objects' sake. */
const HEAP_SAMPLE_BYTES = 16_384;
const MB = 1024 * 1024;

/** This thread's CPU in µs, where Node can tell (process.threadCpuUsage: 22 and 24 have it, 20 not). */
function mainThreadCpu(): number | undefined {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage && usage.user + usage.system;
}

function send(message: ChildMessage, then?: () => void): void {
  if (process.send) process.send(message, undefined, undefined, () => then?.());
  else then?.();
}

/** Installed in many workspaces: the installations are made by load.ts through the install pages. */
const DISTRIBUTED_VARIABLES = {
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'bench-client-secret',
  SLACK_STATE_SECRET: 'bench-state-secret',
  SLACK_INSTALLATION_KEY: randomBytes(32).toString('base64'),
};

/** The variables that choose `store`, as an operator would set them. */
function storeVariables(store: StoreChoice): Record<string, string> {
  switch (store.kind) {
    case 'memory':
      return { STATE_PATH: ':memory:' };
    case 'sqlite':
      return { STATE_PATH: store.path };
    case 'redis':
      return { ...redisVariables(store.server), REDIS_KEY_PREFIX: store.keyPrefix };
  }
}

/** The variables that name this Redis, as an operator would set them. */
function redisVariables(server: RedisServer): Record<string, string> {
  if (server.kind === 'url') return { REDIS_URL: server.url };
  const credentials = {
    ...(server.username !== undefined && { REDIS_USERNAME: server.username }),
    ...(server.password !== undefined && { REDIS_PASSWORD: server.password }),
  };
  if (server.kind === 'cluster') {
    return {
      REDIS_CLUSTER_NODES: server.nodes.map((node) => `${node.host}:${node.port}`).join(','),
      ...credentials,
    };
  }
  return {
    REDIS_SENTINELS: server.sentinels.map((node) => `${node.host}:${node.port}`).join(','),
    REDIS_SENTINEL_NAME: server.name,
    ...credentials,
    ...(server.sentinelPassword !== undefined && { REDIS_SENTINEL_PASSWORD: server.sentinelPassword }),
  };
}

async function startTarget(
  config: TargetConfig,
  countWarning: () => void,
): Promise<{ port: number; store?: TargetStore; stop: () => Promise<void> }> {
  const { system } = config;
  if (system.kind === 'http-floor') return startHttpFloor('127.0.0.1');
  if (system.kind === 'relay') {
    return startBareRelay({
      signingSecret: config.signingSecret,
      botToken: config.botToken,
      slackApiUrl: config.slackApiUrl,
      platformUrl: config.platformUrl,
      accessToken: config.accessToken,
      sysNum: config.sysNum,
      host: '127.0.0.1',
    });
  }
  const features = config.features ?? GATEWAY_FEATURES;
  // As main.ts does: tracing starts before the app's modules load, so its instrumentations patch them.
  let tracing: { logFields: NonNullable<Parameters<typeof createLogger>[0]['traceFields']> } | undefined;
  if (tracingChoice(features).on === true) {
    for (const [name, value] of Object.entries(features))
      if (name.startsWith('OTEL_')) process.env[name] = value;
    tracing = (await import('../src/observability/tracing.js')).startTracing(process.env);
  }
  const { createGateway } = await import('../src/app.js');
  const parsed = parseEnv({
    ...(system.distributed ? DISTRIBUTED_VARIABLES : { SLACK_BOT_TOKEN: config.botToken }),
    SLACK_SIGNING_SECRET: config.signingSecret,
    SLACK_API_URL: config.slackApiUrl,
    CS_OPEN_URL: config.platformUrl,
    CS_SYS_NUM: config.sysNum,
    CS_ACCESS_TOKEN: config.accessToken,
    CS_HEADERS_TIMEOUT_MS: String(config.platformTimeoutMs),
    CS_BODY_TIMEOUT_MS: String(config.platformTimeoutMs),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: config.logLevel,
    SLACK_WEB_API_RETRIES: '0',
    SHUTDOWN_GRACE_SECONDS: '10',
    ...features,
    ...storeVariables(system.store),
  });
  if (!parsed.ok) throw new Error(`gateway env invalid: ${parsed.problems.join('; ')}`);
  // The env decides the store from several variables: a variant measured on another store than its
  // name says would make the comparison between stores meaningless.
  if (parsed.env.state.kind !== system.store.kind) {
    throw new Error(
      `${config.name} asked for the ${system.store.kind} store, the env chose ${parsed.env.state.kind}`,
    );
  }
  // A null sink that still counts what would have been written: the gateway pays for every line it logs.
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const byte of chunk) if (byte === 10) countWarning();
      done();
    },
  });
  const logger = createLogger({
    level: parsed.env.LOG_LEVEL,
    destination,
    ...(tracing ? { traceFields: tracing.logFields } : {}),
  });
  const gateway = await createGateway(parsed.env, logger);
  const { port } = await gateway.start();
  return { port: port ?? 0, store: gateway.store, stop: () => gateway.stop() };
}

async function main(): Promise<void> {
  const raw = process.env.BENCH_TARGET_CONFIG;
  if (!raw) throw new Error('BENCH_TARGET_CONFIG is not set; this file is started by bench/load.ts');
  const config = JSON.parse(raw) as TargetConfig;

  let warnings = 0;
  let peakRss = 0;
  let peakRssHeap = 0;
  let peakRssExternal = 0;
  let peakRssFile = 0;
  let cpuStart = process.cpuUsage();
  let mainThreadStart = mainThreadCpu();
  const sample = () => {
    const rss = process.memoryUsage.rss();
    if (rss <= peakRss) return;
    peakRss = rss;
    // Only at a new peak: the heap's figures cost more to read than RSS.
    const memory = process.memoryUsage();
    peakRssHeap = memory.heapTotal;
    peakRssExternal = memory.external;
    peakRssFile = residentFileBytes();
  };
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();

  const target = await startTarget(config, () => {
    warnings += 1;
  });
  // Profiled through the inspector rather than --cpu-prof, so start-up and the later phases stay out.
  const profiler = config.profileDir ? new Session() : undefined;
  profiler?.connect();
  await profiler?.post('Profiler.enable');
  let profiling = false;
  let profileFile = `${config.name}.cpuprofile`;
  const startProfile = async (file: string) => {
    if (!profiler || profiling) return;
    profiling = true;
    profileFile = file;
    await profiler.post('Profiler.start');
    if (config.heapProfile && file === `${config.name}.cpuprofile`) {
      // Every allocation sampled, not only what is still alive at the end: GC's work is the churn.
      await profiler.post('HeapProfiler.startSampling', {
        samplingInterval: HEAP_SAMPLE_BYTES,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    }
  };
  const writeProfile = async () => {
    if (!profiler || !profiling || !config.profileDir) return;
    profiling = false;
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(join(config.profileDir, profileFile), JSON.stringify(profile));
    if (config.heapProfile && profileFile === `${config.name}.cpuprofile`) {
      const heap = await profiler.post('HeapProfiler.stopSampling');
      writeFileSync(join(config.profileDir, `${config.name}.heapprofile`), JSON.stringify(heap.profile));
    }
  };
  const openWindow = () => {
    peakRss = 0;
    peakRssHeap = 0;
    peakRssExternal = 0;
    peakRssFile = 0;
    warnings = 0;
    cpuStart = process.cpuUsage();
    mainThreadStart = mainThreadCpu();
    loopDelay.reset();
    sample();
  };

  process.on('message', (message: ParentMessage) => {
    switch (message.type) {
      case 'mark':
        openWindow();
        void startProfile(`${config.name}.cpuprofile`);
        return;
      case 'mark-cpu': {
        const { profileAs, collectFirst } = message;
        if (collectFirst) globalThis.gc?.();
        const liveHeapMb = collectFirst ? process.memoryUsage().heapUsed / MB : undefined;
        // The window opens once the profiler runs: its start is not the phase's CPU.
        const started = profileAs
          ? startProfile(`${config.name}-${profileAs}.cpuprofile`)
          : Promise.resolve();
        void started.then(() => {
          openWindow();
          send({ type: 'marked', ...(liveHeapMb === undefined ? {} : { liveHeapMb }) });
        });
        return;
      }
      case 'report': {
        sample();
        // Read before the profile is stopped: stopping it serializes the profile on this thread (a
        // quarter of a second for a saturation window), which is the bench's CPU, not the system's.
        const cpu = process.cpuUsage(cpuStart);
        const mainThread = mainThreadCpu();
        const memory = process.memoryUsage();
        const longestStallMs = loopDelay.max / 1e6;
        void writeProfile();
        send({
          type: 'report',
          report: {
            peakRssMb: peakRss / MB,
            peakRssHeapMb: peakRssHeap / MB,
            peakRssExternalMb: peakRssExternal / MB,
            peakRssFileMb: peakRssFile / MB,
            rssMb: memory.rss / MB,
            heapUsedMb: memory.heapUsed / MB,
            cpuMs: (cpu.user + cpu.system) / 1000,
            warnings,
            longestStallMs,
            mainThreadCpuMs:
              mainThread === undefined || mainThreadStart === undefined
                ? Number.NaN
                : (mainThread - mainThreadStart) / 1000,
          },
        });
        return;
      }
      case 'stop':
        clearInterval(sampler);
        // Exit rather than wait for idle keep-alive sockets; --cpu-prof still writes its profile on exit.
        target.stop().then(
          () => send({ type: 'stopped' }, () => process.exit(0)),
          (error: unknown) => send({ type: 'failed', message: String(error) }, () => process.exit(1)),
        );
        return;
    }
  });
  send({
    type: 'ready',
    port: target.port,
    ...(target.store ? { store: target.store } : {}),
    startRssMb: process.memoryUsage.rss() / MB,
  });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  send({ type: 'failed', message }, () => process.exit(1));
});

/** RssFile of /proc/self/status in bytes: the resident pages mapped from files; 0 where there is none. */
function residentFileBytes(): number {
  try {
    const line = /^RssFile:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'latin1'));
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
