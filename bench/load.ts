// Load bench: the real gateway on each of its stores against a bare Bolt relay, all driven with signed
// Slack events on 127.0.0.1, each in its own child process: the relay, the gateway on SQLite (a fresh
// file, the production default), the gateway in memory, and the gateway on Redis when BENCH_REDIS_URL
// is set (keys under a prefix of this run's own, deleted at the end). Three phases per system:
//   1. fixed rate: BENCH_RATE questions a second, below every system's capacity (time a question takes);
//   2. saturation: a closed loop of BENCH_CONCURRENCY questions in flight (answers per second = capacity);
//   3. slow robot: BENCH_ACK_RATE questions a second while every answer takes 5 s (acks only).
// Then, for the SQLite gateway alone (the production default), a chatter phase: BENCH_RATE
// messages a second the app must leave alone, in a channel in `all` mode and one in `questions` mode,
// their CPU against an answered question's at the same rate, and not one Slack or platform call.
// Saturation runs in BENCH_ROUNDS interleaved rounds; ratios to the relay are taken round by round and
// judged by their median (a busier machine in one round moves the median little, where it moved totals).
// Then every system is loaded at once, side by side, in BENCH_SIDE_WINDOWS windows: CPU per answer of
// the same seconds, so the machine's drift (two to three times between days here, a tenth or more
// between rounds) falls on all alike. The chatter phase sends the bare node:http server the same
// messages at the same time as the gateway, for the same reason.
// Run with `npm run bench:load`; BENCH_SECONDS, BENCH_ROUNDS, BENCH_WARMUP_SECONDS, BENCH_USERS,
// BENCH_ACK_SECONDS, BENCH_CHATTER_SECONDS, BENCH_SIDE_SECONDS, BENCH_SIDE_CONCURRENCY tune it too.
// The children run the code compiled by tsc, as production does (target-build.ts); BENCH_TSX=1 runs
// the sources through tsx instead. BENCH_PROFILE=1 profiles every child's saturation, fixed-rate and
// slow-robot windows, and the chatter windows of the SQLite gateway and the bare server, and prints
// their top functions; BENCH_HEAP=1 also samples what the saturation window allocates, and where.
// BENCH_PREFILL=<answers> starts the SQLite gateway on a file holding that many answers' rows
// (sqlite-prefill.ts); BENCH_BEFORE=<folder of another checkout> runs that checkout's SQLite gateway
// beside this one in every phase, on a copy of the same file, and prints the rounds as before/after pairs;
// BENCH_BEFORE_STORES=sqlite,memory,redis runs that checkout's gateway on each store listed (default sqlite).
// BENCH_BEFORE_FEATURES=NAME=value,… changes the before gateways' features alone: with BENCH_BEFORE set
// to this very checkout, the pairs give one feature's cost (`USER_QUESTION_LIMIT=off,…`).
// BENCH_REDIS_SENTINELS=host:port,… with BENCH_REDIS_SENTINEL_NAME: the Redis gateways reach the primary
// at BENCH_REDIS_URL through its sentinels instead (the run's keys are deleted there).
// BENCH_OTLP_SINK=1 starts a loopback OTLP receiver that takes every export and keeps nothing; `$OTLP_SINK`
// in BENCH_BEFORE_FEATURES is its address (`OTEL_EXPORTER_OTLP_ENDPOINT=$OTLP_SINK`: tracing's cost).
// BENCH_WORKSPACES=<n> adds the SQLite gateway installed in n workspaces (each installed through its
// install pages, each question from one of them, answered with that workspace's token) and prints it
// against the one-workspace SQLite gateway as pairs; every gateway then runs without the review channel
// and the digest, which are one workspace's.
// BENCH_STRICT=1 exits 1 on a missed target (each gateway against the relay, the SQLite gateway within
// 10% of the in-memory one, and chatter under a tenth of an answer's CPU).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { LOCALES } from '../src/conversation/locale.js';
import { type Simulator, startSimulator } from '../src/simulator/index.js';
import { renderThinking } from '../src/slack/answers/blocks.js';
import type { RedisServer } from '../src/stores/redis-client.js';
import { deleteKeysWithPrefix } from '../test/support/redis-server.js';
import {
  CHATTER_CHANNELS,
  CHATTER_KINDS,
  type ChatterGroup,
  chatterEvent,
  controlQuestions,
  writeChatterSettings,
} from './chatter.js';
import { summarizeLargestProfile } from './cpu-profile-summary.js';
import { FEATURES_IN_MANY_WORKSPACES, GATEWAY_FEATURES } from './gateway-features.js';
import { summarizeHeapProfile } from './heap-profile-summary.js';
import { type LeanFakeSlack, startLeanFakeSlack } from './lean-fake-slack.js';
import {
  AnswerBoard,
  answeredWithin,
  type ChatterResult,
  type LoadResult,
  type OpenLoopResult,
  percentile,
  runChatter,
  runLoad,
  runOpenLoop,
  type Target,
  workspaceOfUser,
} from './load-driver.js';
import type {
  ChildMessage,
  ParentMessage,
  SystemName,
  TargetConfig,
  TargetReport,
  TargetStore,
  TargetSystem,
} from './load-target.js';
import { prefillSqlite } from './sqlite-prefill.js';
import { buildTarget, type TargetBuild } from './target-build.js';

const SECRET = 'bench-signing-secret-0123456789abcdef';
const BOT_TOKEN = 'xoxb-bench-bot-token';
const PLATFORM_TOKEN = 'bench-token-0123456789abcdef0123456789ab';
const SYS_NUM = 'bench';

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const STORE_KINDS = ['sqlite', 'memory', 'redis'] as const;

function storesFromEnv(name: string, fallback: StoreKind[]): StoreKind[] {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const kinds = raw.split(',').map((kind) => kind.trim());
  const known = kinds.filter((kind): kind is StoreKind => STORE_KINDS.some((store) => store === kind));
  if (known.length !== kinds.length) throw new Error(`${name} must list some of ${STORE_KINDS.join(', ')}`);
  return known;
}

type StoreKind = (typeof STORE_KINDS)[number];

/** `NAME=value` pairs, separated by commas: variables set on some gateways only. */
function featuresFromEnv(name: string): Record<string, string> {
  const raw = process.env[name]?.trim();
  if (!raw) return {};
  const pairs = raw.split(',').map((pair) => pair.trim().split('='));
  const malformed = pairs.filter((pair) => pair.length !== 2 || !/^[A-Z][A-Z0-9_]*$/.test(pair[0] ?? ''));
  if (malformed.length > 0) throw new Error(`${name} must be NAME=value pairs separated by commas`);
  return Object.fromEntries(pairs);
}

const SETTINGS = {
  seconds: numberFromEnv('BENCH_SECONDS', 12),
  rounds: Math.round(numberFromEnv('BENCH_ROUNDS', 6)),
  warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 2),
  concurrency: Math.round(numberFromEnv('BENCH_CONCURRENCY', 50)),
  users: Math.round(numberFromEnv('BENCH_USERS', 200)),
  rate: numberFromEnv('BENCH_RATE', 300),
  ackRate: numberFromEnv('BENCH_ACK_RATE', 200),
  ackSeconds: numberFromEnv('BENCH_ACK_SECONDS', 5),
  // Each of the two chatter groups: half the fixed rate's length keeps the phase under 20 s by default.
  chatterSeconds: numberFromEnv('BENCH_CHATTER_SECONDS', numberFromEnv('BENCH_SECONDS', 12) / 2),
  robotDelayMs: 5_000,
  // Side by side: every system loaded at once, so each window's ratios are of one moment of the machine.
  sideWindows: Math.round(numberFromEnv('BENCH_SIDE_WINDOWS', 6)),
  sideSeconds: numberFromEnv('BENCH_SIDE_SECONDS', 3),
  sideConcurrency: Math.round(numberFromEnv('BENCH_SIDE_CONCURRENCY', 20)),
  profile: process.env.BENCH_PROFILE === '1' || process.env.BENCH_HEAP === '1',
  heap: process.env.BENCH_HEAP === '1',
  strict: process.env.BENCH_STRICT === '1',
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  redisUrl: process.env.BENCH_REDIS_URL?.trim() || undefined,
  viaTsx: process.env.BENCH_TSX === '1',
  // Answers' rows written into the SQLite file before the gateway opens it (sqlite-prefill.ts).
  prefill: process.env.BENCH_PREFILL ? Math.round(numberFromEnv('BENCH_PREFILL', 1)) : 0,
  // Another checkout's SQLite gateway, in every phase beside this one's: before/after pairs in one run.
  before: process.env.BENCH_BEFORE?.trim() || undefined,
  beforeStores: storesFromEnv('BENCH_BEFORE_STORES', ['sqlite']),
  beforeFeatures: featuresFromEnv('BENCH_BEFORE_FEATURES'),
  otlpSink: process.env.BENCH_OTLP_SINK === '1',
  // The SQLite gateway installed in this many workspaces, beside the one-workspace gateways.
  workspaces: Math.round(numberFromEnv('BENCH_WORKSPACES', 0)),
};
const FEATURES = SETTINGS.workspaces > 0 ? FEATURES_IN_MANY_WORKSPACES : GATEWAY_FEATURES;
if (SETTINGS.users < SETTINGS.concurrency) throw new Error('BENCH_USERS must be at least BENCH_CONCURRENCY');

const ackEvents = Math.round(SETTINGS.ackRate * SETTINGS.ackSeconds);

/**
 * Against the relay, with every feature on: throughput, CPU per answer, peak RSS, the fixed
 * rate's p99; storeTolerance: how far the SQLite gateway's throughput and CPU per answer may be from
 * memory's; chatterRatio: a dropped message's CPU as a share of an answered question's.
 */
const TARGETS = {
  throughputRatio: 1.0,
  cpuPerAnswerRatio: 1.0,
  peakRssRatio: 1.2,
  p99SlackMs: 5,
  ackP99Ms: 50,
  storeTolerance: 0.1,
  chatterRatio: 0.1,
} as const;
/** The idle child's CPU is measured this long before the chatter, to show how much of a message's is not its own. */
const IDLE_MS = 1_000;
/**
 * Each chatter group's warm-up for the gateway and the bare server alike, in BENCH_WARMUP_SECONDS. The
 * bare server was given three because code that has not run yet costs more for its first thousands of
 * messages; the dropping path is as new to the gateway here (no earlier phase sends chatter), and it
 * had one.
 */
const CHATTER_WARMUPS = 3;
/**
 * Acks go out before the listener runs (processBeforeResponse off): the last messages' handling ends
 * after their ack, and is waited for before the CPU is read and the calls counted.
 */
const SETTLE_MS = 100;

/** One system under test in a child process, so its RSS and CPU are its own. */
class Child {
  readonly #process: ChildProcess;
  readonly #waiters: Array<(message: ChildMessage) => void> = [];
  /**
   * Messages that came while nobody waited: several children start at once, and one is ready while
   * the bench still waits for another; dropped, its ready would leave the bench waiting forever.
   */
  readonly #unread: ChildMessage[] = [];
  readonly exited: Promise<number | null>;
  /** The Slack bot token of this system alone: its calls are counted by it. */
  readonly botToken: string;

  constructor(build: TargetBuild, config: TargetConfig) {
    this.botToken = config.botToken;
    this.#process = fork(build.entry, [], {
      // --expose-gc: a window can start from a collected heap (markCpu's collectFirst).
      execArgv: [...build.execArgv, '--expose-gc'],
      env: { ...process.env, BENCH_TARGET_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#process.on('message', (message: ChildMessage) => {
      const waiters = this.#waiters.splice(0);
      if (waiters.length === 0) this.#unread.push(message);
      for (const waiter of waiters) waiter(message);
    });
    this.exited = new Promise((resolve) => this.#process.once('exit', (code) => resolve(code)));
  }

  /** The child's next message, or its failure. */
  next(): Promise<ChildMessage> {
    return new Promise((resolve, reject) => {
      const settle = (message: ChildMessage) =>
        message.type === 'failed' ? reject(new Error(`child failed: ${message.message}`)) : resolve(message);
      const unread = this.#unread.shift();
      if (unread) {
        settle(unread);
        return;
      }
      this.#waiters.push(settle);
      void this.exited.then((code) => reject(new Error(`child exited with ${code}`)));
    });
  }

  send(message: ParentMessage): void {
    this.#process.send(message);
  }

  async ready(): Promise<{ port: number; store?: TargetStore; startRssMb: number }> {
    const message = await this.next();
    if (message.type !== 'ready') throw new Error(`expected ready, got ${message.type}`);
    return message;
  }

  /**
   * Opens a measured window, profiled as `profileAs` with BENCH_PROFILE; resolves once the child counts
   * from here. `collectFirst`: the child's garbage is collected before, so that the marking of what
   * earlier phases left is not charged to a short window of light load; resolves then with the heap
   * the child still holds after the collection (MB).
   */
  async markCpu(profileAs?: string, options: { collectFirst?: boolean } = {}): Promise<number | undefined> {
    const marked = this.next();
    this.send({
      type: 'mark-cpu',
      ...(profileAs && SETTINGS.profile ? { profileAs } : {}),
      ...(options.collectFirst ? { collectFirst: true } : {}),
    });
    const message = await marked;
    if (message.type !== 'marked') throw new Error(`expected marked, got ${message.type}`);
    return message.liveHeapMb;
  }

  async report(): Promise<TargetReport> {
    const answer = this.next();
    this.send({ type: 'report' });
    const message = await answer;
    if (message.type !== 'report') throw new Error(`expected report, got ${message.type}`);
    return message.report;
  }

  /** Asks the child to stop cleanly; kills it (by its own pid) if it has not exited within 15 s. */
  async stop(): Promise<void> {
    if (this.#process.exitCode !== null) return;
    this.send({ type: 'stop' });
    const exited = await Promise.race([
      this.exited.then(() => true),
      new Promise<false>((resolve) => setTimeout(resolve, 15_000, false).unref()),
    ]);
    if (!exited) {
      this.#process.kill('SIGKILL');
      await this.exited;
    }
  }
}

/** One system's saturation rounds, added up. */
interface Saturation {
  load: LoadResult;
  loadReport: TargetReport;
  slackCalls: number;
  driver: { cpuMs: number; wallMs: number };
  /** Each round's window alone, in round order: the ratios to the relay are taken round by round. */
  rounds: RoundFigures[];
}

/** One saturation window of one system. */
interface RoundFigures {
  answersPerSecond: number;
  cpuMsPerAnswer: number;
  /** Of cpuMsPerAnswer, the main thread's (NaN where Node cannot tell). */
  mainThreadCpuMsPerAnswer: number;
  /** Questions refused, failed or left unanswered in the window: its CPU per answer is not a clean figure. */
  errors: number;
}

function emptySaturation(): Saturation {
  return {
    load: {
      answered: 0,
      errors: 0,
      errorKinds: { status: 0, transport: 0, unanswered: 0 },
      measureMs: 0,
      latencies: [],
      acks: [],
    },
    loadReport: {
      peakRssMb: 0,
      peakRssHeapMb: 0,
      peakRssExternalMb: 0,
      peakRssFileMb: 0,
      rssMb: 0,
      heapUsedMb: 0,
      cpuMs: 0,
      mainThreadCpuMs: 0,
      warnings: 0,
      longestStallMs: 0,
    },
    slackCalls: 0,
    driver: { cpuMs: 0, wallMs: 0 },
    rounds: [],
  };
}

function addRound(
  into: Saturation,
  load: LoadResult,
  report: TargetReport,
  slackCalls: number,
  driver: { cpuMs: number; wallMs: number },
): void {
  into.load.answered += load.answered;
  into.load.errors += load.errors;
  into.load.errorKinds.status += load.errorKinds.status;
  into.load.errorKinds.transport += load.errorKinds.transport;
  into.load.errorKinds.unanswered += load.errorKinds.unanswered;
  into.load.measureMs += load.measureMs;
  into.load.latencies.push(...load.latencies);
  into.load.acks.push(...load.acks);
  // The heap and external memory are those of the round whose RSS peaked highest.
  const peak = report.peakRssMb > into.loadReport.peakRssMb ? report : into.loadReport;
  into.loadReport = {
    peakRssMb: peak.peakRssMb,
    peakRssHeapMb: peak.peakRssHeapMb,
    peakRssExternalMb: peak.peakRssExternalMb,
    peakRssFileMb: peak.peakRssFileMb,
    rssMb: report.rssMb,
    heapUsedMb: report.heapUsedMb,
    cpuMs: into.loadReport.cpuMs + report.cpuMs,
    mainThreadCpuMs: into.loadReport.mainThreadCpuMs + report.mainThreadCpuMs,
    warnings: into.loadReport.warnings + report.warnings,
    longestStallMs: Math.max(into.loadReport.longestStallMs, report.longestStallMs),
  };
  into.slackCalls += slackCalls;
  into.driver.cpuMs += driver.cpuMs;
  into.driver.wallMs += driver.wallMs;
  into.rounds.push(windowFigures(load, report));
}

/** One closed-loop window's figures, from what the driver counted and what the child measured. */
function windowFigures(load: LoadResult, report: TargetReport): RoundFigures {
  return {
    answersPerSecond: load.answered / (load.measureMs / 1000),
    cpuMsPerAnswer: load.answered > 0 ? report.cpuMs / load.answered : Number.NaN,
    mainThreadCpuMsPerAnswer: load.answered > 0 ? report.mainThreadCpuMs / load.answered : Number.NaN,
    errors: load.errors,
  };
}

/** Errors over a system's side-by-side windows. */
const sideBySideErrors = (system: SystemResult) =>
  system.sideBySide.reduce((sum, window) => sum + window.errors, 0);

interface SystemResult {
  name: SystemName;
  load: LoadResult;
  loadReport: TargetReport;
  /** Web API calls per answered question during the load phase. */
  slackCallsPerAnswer: number;
  /** The bench process (driver, simulator, fake Slack) CPU use during the load phase, in % of one core. */
  driverCpuPercent: number;
  steady: OpenLoopResult;
  /** The child's CPU over the fixed-rate window, the reference for chatter (the same rate). */
  steadyCpuMs: number;
  /** The child's longest event-loop stall in the fixed-rate window. */
  steadyStallMs: number;
  /** Each fixed-rate round's p99, in round order. */
  steadyP99s: number[];
  /** Side-by-side windows (every system loaded at once), in window order. */
  sideBySide: RoundFigures[];
  acks: OpenLoopResult;
  /** The child's longest event-loop stall from the slow-robot phase's first event to its last answer. */
  acksStallMs: number;
  /** RSS once started, before any load: what the code and its start-up hold. */
  startRssMb: number;
  /** V8's heap in use after a collection once the saturation rounds are over: what the process holds. */
  liveHeapMb: number;
  rounds: RoundFigures[];
}

/** One chatter group on the SQLite gateway. */
interface ChatterGroupResult {
  group: ChatterGroup;
  /** The measured window only. */
  run: ChatterResult;
  cpuMs: number;
  /** Of cpuMs, the main thread's (NaN where Node cannot tell). */
  mainThreadCpuMs: number;
  /** Log lines at the bench's level or above in the window. */
  warnings: number;
  /** Over the warm-up and the window: every message of the group, not only the measured ones. */
  slackCalls: Record<string, number>;
  platformCalls: number;
  /** µs of CPU the bare node:http server took per message of the same group, sent to it at the same time. */
  floorMicros: number;
  /** Of floorMicros, the bare server's main thread's. */
  floorMainThreadMicros: number;
}

interface ChatterPhase {
  /** The child's CPU while nothing is sent, per second. */
  idleCpuMsPerSecond: number;
  /** The bare node:http server's, in the same second (the bench's own sampling runs in both). */
  floorIdleCpuMsPerSecond: number;
  groups: ChatterGroupResult[];
  /** Messages the channels must answer, sent after the chatter. */
  controls: Array<{ name: string; answered: boolean }>;
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}

interface SystemPlan {
  name: SystemName;
  system: TargetSystem;
}

/** A Redis of the bench's caller, and the prefix of this run's keys in it. */
interface BenchRedis {
  /** The primary, where the run's keys are deleted at the end. */
  url: string;
  /** As the gateways reach it: the URL, or through BENCH_REDIS_SENTINELS. */
  server: RedisServer;
  keyPrefix: string;
}

/** BENCH_REDIS_SENTINELS and BENCH_REDIS_SENTINEL_NAME: the gateways reach Redis through the sentinels. */
function sentinelsFromEnv(): RedisServer | undefined {
  const raw = process.env.BENCH_REDIS_SENTINELS?.trim();
  if (!raw) return undefined;
  const name = process.env.BENCH_REDIS_SENTINEL_NAME?.trim();
  if (!name) throw new Error('BENCH_REDIS_SENTINEL_NAME must name the primary with BENCH_REDIS_SENTINELS');
  const sentinels = raw.split(',').map((node) => {
    const [host, port] = node.trim().split(':');
    if (!host || !port || !Number.isInteger(Number(port)))
      throw new Error('BENCH_REDIS_SENTINELS: host:port,…');
    return { host, port: Number(port) };
  });
  return { kind: 'sentinel', name, sentinels };
}

/** Under the run's Redis prefix: the checkout before keeps its keys apart from this one's. */
const BEFORE_KEYS = 'before:';

/** The systems of one run, in the order of the fixed-rate and slow-robot phases. */
function plan(
  sqlitePath: string,
  redis: BenchRedis | undefined,
  beforePath: string | undefined,
  distributedPath: string | undefined,
): SystemPlan[] {
  const systems: SystemPlan[] = [
    { name: 'relay', system: { kind: 'relay' } },
    { name: 'gateway-sqlite', system: { kind: 'gateway', store: { kind: 'sqlite', path: sqlitePath } } },
    { name: 'gateway-memory', system: { kind: 'gateway', store: { kind: 'memory' } } },
  ];
  if (distributedPath) {
    systems.push({
      name: 'gateway-sqlite-distributed',
      system: { kind: 'gateway', store: { kind: 'sqlite', path: distributedPath }, distributed: true },
    });
  }
  if (redis)
    systems.push({
      name: 'gateway-redis',
      system: {
        kind: 'gateway',
        store: { kind: 'redis', server: redis.server, keyPrefix: redis.keyPrefix },
      },
    });
  if (!beforePath) return systems;
  const before = SETTINGS.beforeStores;
  if (before.includes('sqlite')) {
    systems.push({
      name: 'gateway-sqlite-before',
      system: { kind: 'gateway', store: { kind: 'sqlite', path: beforePath } },
    });
  }
  if (before.includes('memory')) {
    systems.push({ name: 'gateway-memory-before', system: { kind: 'gateway', store: { kind: 'memory' } } });
  }
  if (before.includes('redis') && redis) {
    // Keys of its own under the run's prefix, so the two gateways share no claim and both are deleted.
    const store = {
      kind: 'redis' as const,
      server: redis.server,
      keyPrefix: `${redis.keyPrefix}${BEFORE_KEYS}`,
    };
    systems.push({ name: 'gateway-redis-before', system: { kind: 'gateway', store } });
  }
  return systems;
}

/**
 * Installs a gateway in `count` workspaces as their admins would: the install page for its state and
 * cookie, then the OAuth redirect with a code the lean fake Slack exchanges for `<token>/<team>`.
 */
async function installWorkspaces(url: string, count: number, token: string): Promise<void> {
  for (let n = 0; n < count; n += 1) {
    const team = workspaceOfUser(n, count);
    const page = await fetch(`${url}/slack/install`);
    const html = await page.text();
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const state = /[?&;]state=([^&"]+)/.exec(html)?.[1] ?? '';
    const done = await fetch(
      `${url}/slack/oauth_redirect?code=${encodeURIComponent(`${team}.${token}/${team}`)}&state=${state}`,
      { headers: { cookie } },
    );
    await done.arrayBuffer();
    if (done.status !== 200) throw new Error(`installing ${team} answered ${done.status}`);
  }
}

/** The systems in `round`'s order: each takes each place in turn, so drift falls on all alike. */
function rotated<T>(items: readonly T[], round: number): T[] {
  const shift = round % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

function describeStore(
  name: SystemName,
  store: TargetStore | undefined,
  redis: BenchRedis | undefined,
): string {
  if (!store) return `${name}: no store`;
  switch (store.kind) {
    case 'sqlite':
      return `${name}: SQLite file ${store.location} (${SETTINGS.prefill > 0 ? `${SETTINGS.prefill} answers' rows` : 'fresh'}${name.endsWith('-before') ? '' : " and the chatter channels' settings"}, removed at the end)`;
    case 'memory':
      return `${name}: in memory`;
    case 'redis':
      return `${name}: Redis at ${store.location}, keys under ${redis?.keyPrefix ?? '?'}${name.endsWith('-before') ? BEFORE_KEYS : ''} (deleted at the end)`;
  }
}

async function main(): Promise<void> {
  // First: a build that fails leaves nothing started behind it.
  const build = buildTarget({ viaTsx: SETTINGS.viaTsx });
  const beforeBuild = SETTINGS.before
    ? buildTarget({ viaTsx: SETTINGS.viaTsx, root: SETTINGS.before })
    : undefined;
  const placeholders = new Set(LOCALES.map((locale) => renderThinking(locale).text));
  const board = new AnswerBoard();
  const simulator = await startSimulator({ accessToken: PLATFORM_TOKEN, host: '127.0.0.1', port: 0 });
  const slack = await startLeanFakeSlack({
    isPlaceholder: (text) => placeholders.has(text),
    onAnswer: (key, at) => board.settle(key, at),
    quietChannels: [
      GATEWAY_FEATURES.REVIEW_CHANNEL_ID,
      GATEWAY_FEATURES.DIGEST_CHANNEL_ID,
      GATEWAY_FEATURES.ESCALATION_CHANNEL_ID,
    ],
  });
  const profileDir = SETTINGS.profile ? mkdtempSync(join(tmpdir(), 'gateway-cpu-prof-')) : undefined;
  const stateDir = mkdtempSync(join(tmpdir(), 'gateway-bench-state-'));
  // Of this run alone, so the keys deleted at the end are only its own, even on a shared Redis.
  const sentinels = sentinelsFromEnv();
  const redis = SETTINGS.redisUrl
    ? {
        url: SETTINGS.redisUrl,
        server: sentinels ?? { kind: 'url' as const, url: SETTINGS.redisUrl },
        keyPrefix: `bench-load-${process.pid}-${Date.now().toString(36)}:`,
      }
    : undefined;
  // A fresh file each run: a file left by an earlier run would start with its rows and its size. It
  // holds only the chatter channels' settings, written before the gateway opens it, as at any start.
  const sqlitePath = join(stateDir, 'gateway.sqlite');
  const beforePath = beforeBuild ? join(stateDir, 'before.sqlite') : undefined;
  const distributedPath = SETTINGS.workspaces > 0 ? join(stateDir, 'distributed.sqlite') : undefined;
  for (const path of [sqlitePath, beforePath, distributedPath].filter((p) => p !== undefined)) {
    if (SETTINGS.prefill > 0) {
      const started = performance.now();
      const { bytes, built } = prefillSqlite(path, SETTINGS.prefill);
      console.log(
        `prefill: ${SETTINGS.prefill} answers' rows, ${fmt(bytes / 1024 / 1024)} MB (${fmt(bytes / SETTINGS.prefill, 0)} bytes an answer), ${built ? 'built' : 'copied from the cache'} in ${fmt((performance.now() - started) / 1000)} s`,
      );
    }
    // The checkout before opens its own file with its own schema; the chatter phase is not its.
    if (path !== beforePath) await writeChatterSettings(path);
  }
  const systems = plan(sqlitePath, redis, beforePath, distributedPath);
  const sink = SETTINGS.otlpSink ? await startOtlpSink() : undefined;
  const beforeFeatures = Object.fromEntries(
    Object.entries(SETTINGS.beforeFeatures).map(([name, value]) => [
      name,
      sink ? value.replace('$OTLP_SINK', sink.url) : value,
    ]),
  );
  const childConfig = (name: SystemName, system: TargetSystem): TargetConfig => ({
    name,
    system,
    signingSecret: SECRET,
    botToken: `${BOT_TOKEN}-${name}`,
    slackApiUrl: slack.url,
    platformUrl: simulator.url,
    accessToken: PLATFORM_TOKEN,
    sysNum: SYS_NUM,
    platformTimeoutMs: SETTINGS.robotDelayMs * 2,
    logLevel: SETTINGS.logLevel,
    features: name.endsWith('-before') ? { ...FEATURES, ...beforeFeatures } : FEATURES,
    ...(profileDir ? { profileDir, heapProfile: SETTINGS.heap } : {}),
  });
  const children = new Map(
    systems.map(({ name, system }) => [
      name,
      new Child(name.endsWith('-before') && beforeBuild ? beforeBuild : build, childConfig(name, system)),
    ]),
  );
  const child = (name: SystemName): Child => {
    const found = children.get(name);
    if (!found) throw new Error(`no child for ${name}`);
    return found;
  };
  const names = systems.map(({ name }) => name);

  const results: SystemResult[] = [];
  let chatter: ChatterPhase | undefined;
  try {
    const targets = new Map<SystemName, Target>();
    const storeLines: string[] = [];
    const startRss = new Map<SystemName, number>();
    for (const name of names) {
      const { port, store, startRssMb } = await child(name).ready();
      startRss.set(name, startRssMb);
      const url = `http://127.0.0.1:${port}`;
      if (name.endsWith('-distributed')) {
        await installWorkspaces(url, SETTINGS.workspaces, child(name).botToken);
        targets.set(name, { url, secret: SECRET, workspaces: SETTINGS.workspaces });
      } else targets.set(name, { url, secret: SECRET });
      if (name !== 'relay') storeLines.push(describeStore(name, store, redis));
    }
    const target = (name: SystemName): Target => {
      const found = targets.get(name);
      if (!found) throw new Error(`no target for ${name}`);
      return found;
    };
    console.log(
      `load: ${SETTINGS.rate} events/s for ${SETTINGS.seconds} s (open loop, after ${SETTINGS.warmupSeconds} s warm-up); ` +
        `${SETTINGS.concurrency} questions in flight from ${SETTINGS.users} users, ${SETTINGS.rounds} interleaved rounds of ${fmt(SETTINGS.seconds / SETTINGS.rounds)} s measured per system (after ${SETTINGS.warmupSeconds} s warm-up); ` +
        `then ${SETTINGS.ackRate} events/s for ${SETTINGS.ackSeconds} s (open loop) with the robot taking ${SETTINGS.robotDelayMs} ms (acks only). ` +
        `Then chatter on gateway-sqlite: ${SETTINGS.rate} events/s for ${fmt(SETTINGS.chatterSeconds)} s per group (after ${SETTINGS.warmupSeconds * CHATTER_WARMUPS} s warm-up, the bare node:http server alike). ` +
        'Each system runs in its own child process; the driver, simulator and fake Slack share this one.',
    );
    console.log(
      `systems: ${names.join(', ')}${redis ? '' : ' (set BENCH_REDIS_URL to add the gateway on Redis)'}`,
    );
    console.log(`code: ${build.how}`);
    for (const line of storeLines) console.log(`  ${line}`);
    console.log(
      `features on in every gateway: ${Object.entries(FEATURES)
        .map(([name, value]) => `${name}=${value}`)
        .join(
          ', ',
        )}; rating buttons, channel settings (chatter channels in \`all\` and \`questions\` mode) and the store as by default`,
    );
    if (Object.keys(SETTINGS.beforeFeatures).length > 0) {
      console.log(
        `changed in the before gateways only: ${Object.entries(SETTINGS.beforeFeatures)
          .map(([name, value]) => `${name}=${value}`)
          .join(', ')}`,
      );
    }

    // Fixed rate first, on processes that have only been warmed up: the time a question takes at a
    // rate every system keeps up with, not the time a process takes to digest a preceding overload.
    const fixedRate = new Map<
      SystemName,
      { steady: OpenLoopResult; cpuMs: number; stallMs: number; p99s: number[] }
    >();
    // In interleaved rounds too, the order rotated: on a shared machine a quiet or a busy minute then
    // falls on every system alike, where one window each gave one system all of it.
    for (let round = 0; round < SETTINGS.rounds; round += 1) {
      for (const name of rotated(names, round)) {
        const steadyLoad = {
          rate: SETTINGS.rate,
          firstUser: 0,
          users: SETTINGS.users,
          answerTimeoutMs: 10_000,
        };
        await runOpenLoop(target(name), board, {
          ...steadyLoad,
          seconds: round === 0 ? SETTINGS.warmupSeconds : 0.5,
        });
        await child(name).markCpu(round === 0 ? 'fixed-rate' : undefined);
        const steady = await runOpenLoop(target(name), board, {
          ...steadyLoad,
          seconds: SETTINGS.seconds / SETTINGS.rounds,
        });
        const report = await child(name).report();
        const into = fixedRate.get(name) ?? {
          steady: { sent: 0, acks: [], latencies: [], errors: 0, answered: 0 },
          cpuMs: 0,
          stallMs: 0,
          p99s: [],
        };
        into.steady.sent += steady.sent;
        into.steady.acks.push(...steady.acks);
        into.steady.latencies.push(...steady.latencies);
        into.steady.errors += steady.errors;
        into.steady.answered += steady.answered;
        into.cpuMs += report.cpuMs;
        into.stallMs = Math.max(into.stallMs, report.longestStallMs);
        into.p99s.push(percentile(steady.latencies, 99));
        fixedRate.set(name, into);
      }
    }

    // Saturation in interleaved rounds, the order rotated each round (relay, sqlite, memory; then
    // sqlite, memory, relay; ...), so that drift on the machine (the simulator's growing state, the
    // other core's load) falls on every system alike.
    const saturation = new Map(names.map((name) => [name, emptySaturation()]));
    for (let round = 0; round < SETTINGS.rounds; round += 1) {
      for (const name of rotated(names, round)) {
        const measured = child(name);
        let driverCpu = process.cpuUsage();
        let windowStart = performance.now();
        const load = await runLoad(target(name), board, {
          concurrency: SETTINGS.concurrency,
          users: SETTINGS.users,
          // Later rounds only refill the pipeline: the code is warm by then.
          warmupMs: round === 0 ? SETTINGS.warmupSeconds * 1000 : 500,
          measureMs: (SETTINGS.seconds * 1000) / SETTINGS.rounds,
          answerTimeoutMs: 10_000,
          onMeasureStart: () => {
            measured.send({ type: 'mark' });
            slack.resetCounts();
            driverCpu = process.cpuUsage();
            windowStart = performance.now();
          },
        });
        const report = await measured.report();
        const driverUsage = process.cpuUsage(driverCpu);
        const slackCalls = Object.entries(slack.counts(measured.botToken))
          .filter(([method]) => method.startsWith('chat.') || method === 'users.info')
          .reduce((sum, [, count]) => sum + count, 0);
        const into = saturation.get(name);
        if (!into) throw new Error(`no saturation result for ${name}`);
        addRound(into, load, report, slackCalls, {
          cpuMs: (driverUsage.user + driverUsage.system) / 1000,
          wallMs: performance.now() - windowStart,
        });
      }
    }

    // What each process still holds after the rounds: V8 lets the heap grow to a multiple of what
    // survives its collections, so every MB held may cost several at the RSS peak.
    const liveHeap = new Map<SystemName, number>();
    for (const name of names) {
      liveHeap.set(name, (await child(name).markCpu(undefined, { collectFirst: true })) ?? Number.NaN);
    }

    const sideBySide = await runSideBySide(names, child, target, board);

    for (const [index, name] of names.entries()) {
      const fixed = fixedRate.get(name);
      const saturated = saturation.get(name);
      if (!fixed || !saturated) throw new Error(`no fixed-rate or saturation result for ${name}`);
      // Slow robot: every ask waits robotDelayMs; only the acks are timed. Fresh users for each system.
      simulator.faults.set({
        kind: 'delay',
        ms: SETTINGS.robotDelayMs,
        actions: ['chat_user_robot_ask'],
        times: ackEvents,
      });
      await child(name).markCpu('acks');
      const acks = await runOpenLoop(target(name), board, {
        rate: SETTINGS.ackRate,
        seconds: SETTINGS.ackSeconds,
        firstUser: SETTINGS.users + index * ackEvents,
        answerTimeoutMs: SETTINGS.robotDelayMs + 5_000,
      });
      const acksReport = await child(name).report();
      simulator.faults.clear();
      const { load, loadReport, slackCalls, driver, rounds } = saturated;
      results.push({
        name,
        startRssMb: startRss.get(name) ?? Number.NaN,
        liveHeapMb: liveHeap.get(name) ?? Number.NaN,
        rounds,
        load,
        loadReport,
        slackCallsPerAnswer: load.answered > 0 ? slackCalls / load.answered : Number.NaN,
        driverCpuPercent: (driver.cpuMs / driver.wallMs) * 100,
        steady: fixed.steady,
        steadyCpuMs: fixed.cpuMs,
        steadyStallMs: fixed.stallMs,
        steadyP99s: fixed.p99s,
        acksStallMs: acksReport.longestStallMs,
        sideBySide: sideBySide.get(name) ?? [],
        acks,
      });
    }

    // Last, so that nothing of the other phases is still in flight while the calls are counted.
    const floor = new Child(build, childConfig('http-floor', { kind: 'http-floor' }));
    children.set('http-floor', floor);
    const floorTarget = { url: `http://127.0.0.1:${(await floor.ready()).port}`, secret: SECRET };
    chatter = await runChatterPhase(child('gateway-sqlite'), target('gateway-sqlite'), {
      board,
      slack,
      simulator,
      floor: { child: floor, target: floorTarget },
    });
  } finally {
    // The children first: they hold the SQLite file and the Redis connection.
    await Promise.all([...children.values()].map((running) => running.stop()));
    await slack.close();
    await simulator.close();
    if (sink) {
      console.log(`\nOTLP sink: ${sink.exports()} exports, ${fmt(sink.bytes() / 1024 / 1024)} MB received`);
      await sink.close();
    }
    console.log(`\n${describeFile(sqlitePath)}`);
    rmSync(stateDir, { recursive: true, force: true });
    build.remove();
    beforeBuild?.remove();
    if (redis) await deleteKeysWithPrefix(redis.keyPrefix, redis.url);
  }

  report(results, board.unexpected);
  if (chatter) reportChatter(chatter);
  const missed = verdicts(results, chatter);
  if (profileDir) {
    for (const { name } of results) {
      console.log(`\nCPU profile of the ${name} during the measured load window:`);
      console.log(
        summarizeLargestProfile(join(profileDir, `${name}.cpuprofile`), name === 'relay' ? 12 : 30),
      );
    }
    for (const { name } of SETTINGS.heap ? results : []) {
      console.log(`\nAllocations of the ${name} during the measured load window:`);
      console.log(summarizeHeapProfile(join(profileDir, `${name}.heapprofile`), 15));
    }
    for (const { name } of results) {
      console.log(`\nCPU profile of the ${name} during the fixed-rate window (${SETTINGS.rate} events/s):`);
      console.log(summarizeLargestProfile(join(profileDir, `${name}-fixed-rate.cpuprofile`), 20));
    }
    for (const { name } of results) {
      console.log(`\nCPU profile of the ${name} during the slow-robot phase (acks, then the answers):`);
      console.log(summarizeLargestProfile(join(profileDir, `${name}-acks.cpuprofile`), 15));
    }
    for (const { group } of chatter?.groups ?? []) {
      console.log(`\nCPU profile of the gateway-sqlite during the ${group} chatter window:`);
      console.log(
        summarizeLargestProfile(join(profileDir, `gateway-sqlite-chatter-${group}.cpuprofile`), 20),
      );
      console.log(`\nCPU profile of the bare node:http server during the same ${group} chatter window:`);
      console.log(summarizeLargestProfile(join(profileDir, `http-floor-chatter-${group}.cpuprofile`), 20));
    }
  }
  if (SETTINGS.strict && missed > 0) process.exitCode = 1;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A collector that answers every OTLP export 200 and keeps nothing but counts. */
async function startOtlpSink(): Promise<{
  url: string;
  exports(): number;
  bytes(): number;
  close(): Promise<void>;
}> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the OTLP sink has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    exports: () => exports,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The SQLite gateway's file once it has stopped: its size for each answer it holds (a context each). */
function describeFile(path: string): string {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    const answers = Number(db.prepare("SELECT count(*) AS n FROM kv WHERE ns = 'ctx'").get()?.n ?? 0);
    const bytes = statSync(path).size;
    return `SQLite file at the end: ${fmt(bytes / 1024 / 1024)} MB for ${answers} answers, ${fmt(bytes / answers, 0)} bytes an answer`;
  } catch (error) {
    return `SQLite file at the end: not read (${String(error)})`;
  } finally {
    db?.close();
  }
}

/**
 * Every system in a closed loop at once, `sideConcurrency` questions in flight each, for
 * `sideWindows` windows: each system's CPU per answer is read over the same seconds as the others',
 * so a slower moment of the machine (another tenant, the host's steal) falls on all of them alike,
 * where the rounds above put seconds between them. Their throughput here is a share of the cores
 * they compete for, not a capacity: only CPU per answer is compared from this phase.
 */
async function runSideBySide(
  names: SystemName[],
  child: (name: SystemName) => Child,
  target: (name: SystemName) => Target,
  board: AnswerBoard,
): Promise<Map<SystemName, RoundFigures[]>> {
  const windows = new Map<SystemName, RoundFigures[]>(names.map((name) => [name, []]));
  for (let window = 0; window < SETTINGS.sideWindows; window += 1) {
    const measured = await Promise.all(
      names.map(async (name, index) => {
        let marked: Promise<unknown> | undefined;
        const load = await runLoad(target(name), board, {
          concurrency: SETTINGS.sideConcurrency,
          users: SETTINGS.sideConcurrency * 2,
          // Users of their own, apart from every other phase's: two systems never answer one DM channel.
          firstUser: SIDE_FIRST_USER + index * SETTINGS.sideConcurrency * 2,
          warmupMs: window === 0 ? SETTINGS.warmupSeconds * 1000 : 500,
          measureMs: SETTINGS.sideSeconds * 1000,
          answerTimeoutMs: 10_000,
          onMeasureStart: () => {
            marked = child(name).markCpu();
          },
        });
        await marked;
        return { name, load, report: await child(name).report() };
      }),
    );
    for (const { name, load, report } of measured) windows.get(name)?.push(windowFigures(load, report));
  }
  return windows;
}

/** Above every other phase's users (the slow-robot phase's end near 5,000 by default). */
const SIDE_FIRST_USER = 50_000;

/**
 * The chatter phase on one gateway: its idle CPU, then each group at the fixed rate (a warm-up, then a
 * measured window), then the control questions. Slack calls are counted from each group's warm-up on,
 * platform calls by the simulator's log of requests since then.
 */
async function runChatterPhase(
  measured: Child,
  target: Target,
  {
    board,
    slack,
    simulator,
    floor,
  }: {
    board: AnswerBoard;
    slack: LeanFakeSlack;
    simulator: Simulator;
    /** The bare node:http server: each group's chatter at the same rate and time, for its CPU alone. */
    floor: { child: Child; target: Target };
  },
): Promise<ChatterPhase> {
  // From a collected heap, as the chatter windows, so what the phases before left to collect is not
  // counted as idle: this second read 174 ms of CPU in one run and 4 ms in the next.
  await Promise.all([
    measured.markCpu(undefined, { collectFirst: true }),
    floor.child.markCpu(undefined, { collectFirst: true }),
  ]);
  await sleep(IDLE_MS);
  const [idle, floorIdle] = await Promise.all([measured.report(), floor.child.report()]);
  const groups: ChatterGroupResult[] = [];
  for (const group of ['top-level', 'thread'] as const) {
    slack.resetCounts();
    const since = Date.now();
    const build = (n: number) => chatterEvent(group, n);
    // Both as long (CHATTER_WARMUPS): a gateway in service runs this path all day long.
    const warmUp = { rate: SETTINGS.rate, seconds: SETTINGS.warmupSeconds * CHATTER_WARMUPS };
    await Promise.all([runChatter(target, build, warmUp), runChatter(floor.target, build, warmUp)]);
    // The gateway and the bare server take the same messages at once, each at the full rate: the
    // machine is the same for both, where one after the other their figures drifted apart by a third.
    // From collected heaps: a major collection of the gateway's heap, grown by the answers before,
    // cost it 200–500 µs more a message in one window and none in another.
    await Promise.all([
      measured.markCpu(`chatter-${group}`, { collectFirst: true }),
      // Profiled as the gateway is, so the two profiles read side by side carry the same overhead.
      floor.child.markCpu(`chatter-${group}`, { collectFirst: true }),
    ]);
    const window = { rate: SETTINGS.rate, seconds: SETTINGS.chatterSeconds };
    const [run, floorRun] = await Promise.all([
      runChatter(target, build, window),
      runChatter(floor.target, build, window),
    ]);
    await sleep(SETTLE_MS);
    const [report, floorReport] = await Promise.all([measured.report(), floor.child.report()]);
    const floorMicros = (floorReport.cpuMs * 1000) / floorRun.sent;
    const floorMainThreadMicros = (floorReport.mainThreadCpuMs * 1000) / floorRun.sent;
    groups.push({
      floorMicros,
      floorMainThreadMicros,
      group,
      run,
      cpuMs: report.cpuMs,
      mainThreadCpuMs: report.mainThreadCpuMs,
      warnings: report.warnings,
      slackCalls: slack.counts(measured.botToken),
      platformCalls: simulator.received.filter((received) => received.at >= since).length,
    });
  }
  const controls: ChatterPhase['controls'] = [];
  for (const { name, event, key } of controlQuestions()) {
    controls.push({ name, answered: await answeredWithin(target, board, event, key, 10_000) });
  }
  return {
    idleCpuMsPerSecond: idle.cpuMs / (IDLE_MS / 1000),
    floorIdleCpuMsPerSecond: floorIdle.cpuMs / (IDLE_MS / 1000),
    groups,
    controls,
  };
}

/** µs of the child's CPU per message of a group. */
const chatterMicros = (group: ChatterGroupResult) => (group.cpuMs * 1000) / group.run.sent;
/** µs of the child's CPU per question answered at the fixed rate. */
const answerMicros = (r: SystemResult) => (r.steadyCpuMs * 1000) / r.steady.answered;
const callCount = (calls: Record<string, number>) => Object.values(calls).reduce((sum, n) => sum + n, 0);
const callList = (calls: Record<string, number>) =>
  Object.entries(calls)
    .map(([method, n]) => `${method} ${n}`)
    .join(', ');

function reportChatter(chatter: ChatterPhase): void {
  const idleMicros = (chatter.idleCpuMsPerSecond * 1000) / SETTINGS.rate;
  console.log(
    `\nChatter phase (gateway-sqlite; ${SETTINGS.rate} events/s for ${fmt(SETTINGS.chatterSeconds)} s per group; ` +
      `${CHATTER_CHANNELS.all} in \`all\` mode, ${CHATTER_CHANNELS.questions} in \`questions\` mode; the idle child ` +
      `takes ${fmt(chatter.idleCpuMsPerSecond, 2)} ms CPU a second, ${fmt(idleMicros)} µs a message at this rate, ` +
      `the bare node:http server ${fmt(chatter.floorIdleCpuMsPerSecond, 2)}):`,
  );
  printTable(
    [
      'group',
      'events',
      'ack p50 ms',
      'ack p99 ms',
      'errors',
      'CPU µs/message',
      'main thread',
      'bare node:http µs',
      'its main thread',
      'log lines',
      'Slack calls',
      'platform calls',
    ],
    chatter.groups.map((g) => [
      g.group,
      String(g.run.sent),
      fmt(percentile(g.run.acks, 50)),
      fmt(percentile(g.run.acks, 99)),
      String(g.run.errors),
      fmt(chatterMicros(g)),
      fmt((g.mainThreadCpuMs * 1000) / g.run.sent),
      fmt(g.floorMicros),
      fmt(g.floorMainThreadMicros),
      String(g.warnings),
      callCount(g.slackCalls) === 0 ? '0' : `${callCount(g.slackCalls)} (${callList(g.slackCalls)})`,
      String(g.platformCalls),
    ]),
  );
  for (const group of chatter.groups)
    console.log(`  ${group.group}: ${CHATTER_KINDS[group.group].join(', ')}`);
}

function report(results: SystemResult[], unexpected: number): void {
  const header = [
    'system',
    'answered',
    'answers/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'ack p99 ms',
    'errors',
    'peak RSS MB',
    'CPU ms/answer',
    'Slack calls/answer',
    'driver CPU %',
  ];
  const rows = results.map((r) => {
    const seconds = r.load.measureMs / 1000;
    return [
      r.name,
      String(r.load.answered),
      fmt(r.load.answered / seconds, 0),
      fmt(percentile(r.load.latencies, 50)),
      fmt(percentile(r.load.latencies, 95)),
      fmt(percentile(r.load.latencies, 99)),
      fmt(percentile(r.load.acks, 99)),
      r.load.errors === 0
        ? '0'
        : `${r.load.errors} (${r.load.errorKinds.status} status, ${r.load.errorKinds.transport} transport, ${r.load.errorKinds.unanswered} unanswered)`,
      fmt(r.loadReport.peakRssMb),
      fmt(r.load.answered > 0 ? r.loadReport.cpuMs / r.load.answered : Number.NaN, 2),
      fmt(r.slackCallsPerAnswer, 2),
      fmt(r.driverCpuPercent, 0),
    ];
  });
  console.log('\nSaturation phase (robot answers at once; closed loop, so latency here is mostly queueing):');
  printTable(header, rows);
  if (unexpected > 0) console.log(`(${unexpected} answers arrived for questions no longer awaited)`);

  console.log(
    `\nSide by side (every system in a closed loop of ${SETTINGS.sideConcurrency} at once; ${SETTINGS.sideWindows} windows of ${SETTINGS.sideSeconds} s; answers/s is a share of the cores, not a capacity):`,
  );
  printTable(
    ['system', 'answers/s', 'CPU ms/answer', 'main thread', 'errors', 'CPU ms/answer by window'],
    results.map((r) => {
      const answered = r.sideBySide.reduce((sum, window) => sum + window.answersPerSecond, 0);
      const weighted = (figure: (window: RoundFigures) => number) =>
        r.sideBySide.reduce((sum, window) => sum + figure(window) * window.answersPerSecond, 0) / answered;
      return [
        r.name,
        fmt(answered / r.sideBySide.length, 0),
        fmt(
          weighted((window) => window.cpuMsPerAnswer),
          2,
        ),
        fmt(
          weighted((window) => window.mainThreadCpuMsPerAnswer),
          2,
        ),
        String(sideBySideErrors(r)),
        r.sideBySide.map((window) => fmt(window.cpuMsPerAnswer, 2)).join(' '),
      ];
    }),
  );

  console.log(
    `\nFixed-rate phase (robot answers at once; ${SETTINGS.rate} events/s for ${SETTINGS.seconds} s):`,
  );
  printTable(
    [
      'system',
      'events',
      'answered',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'ack p99 ms',
      'errors',
      'CPU ms/answer',
      'longest stall ms',
    ],
    results.map((r) => [
      r.name,
      String(r.steady.sent),
      String(r.steady.answered),
      fmt(percentile(r.steady.latencies, 50)),
      fmt(percentile(r.steady.latencies, 95)),
      fmt(percentile(r.steady.latencies, 99)),
      fmt(percentile(r.steady.acks, 99)),
      String(r.steady.errors),
      fmt(answerMicros(r) / 1000, 2),
      fmt(r.steadyStallMs),
    ]),
  );

  console.log(
    `\nSlow-robot phase (robot takes ${SETTINGS.robotDelayMs} ms; ${SETTINGS.ackRate} events/s for ${SETTINGS.ackSeconds} s; acks only):`,
  );
  printTable(
    [
      'system',
      'events',
      'ack p50 ms',
      'ack p99 ms',
      'ack max ms',
      'errors',
      'answered later',
      'longest stall ms',
    ],
    results.map((r) => [
      r.name,
      String(r.acks.sent),
      fmt(percentile(r.acks.acks, 50)),
      fmt(percentile(r.acks.acks, 99)),
      fmt(Math.max(...r.acks.acks)),
      String(r.acks.errors),
      String(r.acks.answered),
      fmt(r.acksStallMs),
    ]),
  );
  const warnings = results.map((r) => `${r.name} ${r.loadReport.warnings}`).join(', ');
  console.log(`\nLog lines at ${SETTINGS.logLevel} or above during the measured load window: ${warnings}`);
}

const rate = (r: SystemResult) => r.load.answered / (r.load.measureMs / 1000);

/**
 * A figure of `system` as a ratio of `reference`'s, taken round by round and summed up by its median
 * (with the range): the two ran seconds apart in each round, so a round's ratio is the machine as it
 * was for both, and one round of a busier machine moves the median little, where it moved the totals.
 */
function roundRatios(
  system: SystemResult,
  reference: SystemResult,
  figure: (round: RoundFigures) => number,
  windows: (result: SystemResult) => RoundFigures[] = (result) => result.rounds,
): { median: number; low: number; high: number } {
  const theirs = windows(reference);
  const ratios = windows(system)
    .map((round, index) => {
      const other = theirs[index];
      return other ? figure(round) / figure(other) : Number.NaN;
    })
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (ratios.length === 0) return { median: Number.NaN, low: Number.NaN, high: Number.NaN };
  const middle = ratios.length / 2;
  const median = Number.isInteger(middle)
    ? ((ratios[middle - 1] ?? Number.NaN) + (ratios[middle] ?? Number.NaN)) / 2
    : (ratios[Math.floor(middle)] ?? Number.NaN);
  return { median, low: ratios[0] ?? Number.NaN, high: ratios[ratios.length - 1] ?? Number.NaN };
}

const throughputRatios = (system: SystemResult, reference: SystemResult) =>
  roundRatios(system, reference, (round) => round.answersPerSecond);
const cpuRatios = (system: SystemResult, reference: SystemResult) =>
  roundRatios(system, reference, (round) => round.cpuMsPerAnswer);
const sideBySideCpuRatios = (system: SystemResult, reference: SystemResult) =>
  roundRatios(
    system,
    reference,
    (round) => round.cpuMsPerAnswer,
    (result) => result.sideBySide,
  );
const spread = ({ low, high }: { low: number; high: number }) => `${fmt(low, 2)}–${fmt(high, 2)}`;
const cpuPerAnswer = (r: SystemResult) => r.loadReport.cpuMs / r.load.answered;
const fixedRateP99 = (r: SystemResult) => percentile(r.steady.latencies, 99);
/** The median of the fixed-rate rounds' p99 differences (ms), system minus reference, round by round. */
function fixedRateP99Excess(system: SystemResult, reference: SystemResult): number {
  const differences = system.steadyP99s
    .map((p99, index) => p99 - (reference.steadyP99s[index] ?? Number.NaN))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const middle = differences.length / 2;
  return Number.isInteger(middle)
    ? ((differences[middle - 1] ?? Number.NaN) + (differences[middle] ?? Number.NaN)) / 2
    : (differences[Math.floor(middle)] ?? Number.NaN);
}
const saturatedP99 = (r: SystemResult) => percentile(r.load.latencies, 99);

/**
 * The relay's targets for one gateway variant: its ratios, then one check per target. Throughput and
 * CPU per answer are judged by the median of the rounds' ratios; the totals are printed beside them.
 */
function gatewayChecks(gateway: SystemResult, relay: SystemResult): Array<[boolean, string]> {
  const throughput = throughputRatios(gateway, relay);
  const cpu = cpuRatios(gateway, relay);
  const sideCpu = sideBySideCpuRatios(gateway, relay);
  const ackP99 = percentile(gateway.acks.acks, 99);
  console.log(
    `  ${gateway.name}: throughput x${fmt(throughput.median, 2)} (median of ${gateway.rounds.length} rounds, ${spread(throughput)}; totals x${fmt(rate(gateway) / rate(relay), 2)}), ` +
      `CPU per answer x${fmt(cpu.median, 2)} (${spread(cpu)}; totals x${fmt(cpuPerAnswer(gateway) / cpuPerAnswer(relay), 2)}; side by side x${fmt(sideCpu.median, 2)}, ${spread(sideCpu)}), ` +
      `p50 x${fmt(percentile(gateway.load.latencies, 50) / percentile(relay.load.latencies, 50), 2)}, ` +
      `p99 x${fmt(saturatedP99(gateway) / saturatedP99(relay), 2)} (saturated), p99 x${fmt(fixedRateP99(gateway) / fixedRateP99(relay), 2)} (fixed rate), peak RSS x${fmt(gateway.loadReport.peakRssMb / relay.loadReport.peakRssMb, 2)} (at start ${fmt(gateway.startRssMb)} MB vs ${fmt(relay.startRssMb)} MB; at the peak V8's heap ${fmt(gateway.loadReport.peakRssHeapMb)} MB vs ${fmt(relay.loadReport.peakRssHeapMb)} MB and its external memory ${fmt(gateway.loadReport.peakRssExternalMb)} MB vs ${fmt(relay.loadReport.peakRssExternalMb)} MB, pages mapped from files (the node binary's code in use) ${fmt(gateway.loadReport.peakRssFileMb)} MB vs ${fmt(relay.loadReport.peakRssFileMb)} MB; after the rounds, collected, it holds ${fmt(gateway.liveHeapMb)} MB of heap vs ${fmt(relay.liveHeapMb)} MB)`,
  );
  return [
    [
      throughput.median >= TARGETS.throughputRatio && gateway.load.errors === 0,
      `${gateway.name}: throughput >= ${TARGETS.throughputRatio}x relay: median of the rounds ${fmt(throughput.median, 2)}x (${spread(throughput)}; ${fmt(rate(gateway), 0)}/s vs ${fmt(rate(relay), 0)}/s in all), ${gateway.load.errors} errors`,
    ],
    [
      fixedRateP99Excess(gateway, relay) <= TARGETS.p99SlackMs &&
        gateway.steady.answered === gateway.steady.sent,
      `${gateway.name}: p99 event-to-answer at ${SETTINGS.rate}/s <= relay p99 + ${TARGETS.p99SlackMs} ms: median of ${gateway.steadyP99s.length} rounds' differences ${fmt(fixedRateP99Excess(gateway, relay))} ms (rounds ${gateway.steadyP99s.map((p99, i) => `${fmt(p99)}/${fmt(relay.steadyP99s[i] ?? Number.NaN)}`).join(' ')}; all: ${fmt(fixedRateP99(gateway))} ms vs ${fmt(fixedRateP99(relay))} ms) ` +
        `(saturated: ${fmt(saturatedP99(gateway))} ms vs ${fmt(saturatedP99(relay))} ms)`,
    ],
    [
      cpu.median <= TARGETS.cpuPerAnswerRatio,
      `${gateway.name}: CPU per answer <= ${TARGETS.cpuPerAnswerRatio}x relay: median of the rounds ${fmt(cpu.median, 2)}x (${spread(cpu)}; ${fmt(cpuPerAnswer(gateway), 2)} ms vs ${fmt(cpuPerAnswer(relay), 2)} ms in all)`,
    ],
    [
      sideCpu.median <= TARGETS.cpuPerAnswerRatio && sideBySideErrors(gateway) === 0,
      `${gateway.name}: CPU per answer <= ${TARGETS.cpuPerAnswerRatio}x relay, side by side: median of ${gateway.sideBySide.length} windows ${fmt(sideCpu.median, 2)}x (${spread(sideCpu)}), ${sideBySideErrors(gateway)} errors`,
    ],
    [
      gateway.loadReport.peakRssMb <= relay.loadReport.peakRssMb * TARGETS.peakRssRatio,
      `${gateway.name}: peak RSS <= ${TARGETS.peakRssRatio}x relay: ${fmt(gateway.loadReport.peakRssMb)} MB vs ${fmt(relay.loadReport.peakRssMb)} MB = ${fmt(gateway.loadReport.peakRssMb / relay.loadReport.peakRssMb, 2)}x`,
    ],
    [
      ackP99 < TARGETS.ackP99Ms && gateway.acks.errors === 0,
      `${gateway.name}: p99 ack < ${TARGETS.ackP99Ms} ms while the robot takes ${SETTINGS.robotDelayMs} ms: ${fmt(ackP99)} ms, ${gateway.acks.errors} errors`,
    ],
  ];
}

/**
 * SQLite against memory, measured in the same run, by the median of the rounds' ratios. The band
 * is two-sided: the SQLite store does more per answer than the in-memory one (the same serializing,
 * then SQL and a write to its log), so SQLite ahead by more than the tolerance is noise on the machine,
 * and a run that noisy cannot show that the two are within it.
 */
function storeChecks(sqlite: SystemResult, memory: SystemResult): Array<[boolean, string]> {
  const throughput = throughputRatios(sqlite, memory);
  const cpu = cpuRatios(sqlite, memory);
  const sideCpu = sideBySideCpuRatios(sqlite, memory);
  const within = (ratio: number) => Math.abs(ratio - 1) <= TARGETS.storeTolerance;
  const percent = `${fmt(TARGETS.storeTolerance * 100, 0)}%`;
  console.log(
    `\nSQLite vs memory: throughput x${fmt(throughput.median, 2)} (${spread(throughput)}), CPU per answer x${fmt(cpu.median, 2)} (${spread(cpu)}; side by side x${fmt(sideCpu.median, 2)}, ${spread(sideCpu)}) (target: within ${percent})`,
  );
  return [
    [
      within(throughput.median) && sqlite.load.errors === 0,
      `SQLite vs memory: throughput within ${percent}: median of the rounds ${fmt(throughput.median, 2)}x (${fmt(rate(sqlite), 0)}/s vs ${fmt(rate(memory), 0)}/s in all), ${sqlite.load.errors} errors`,
    ],
    [
      within(cpu.median),
      `SQLite vs memory: CPU per answer within ${percent}: median of the rounds ${fmt(cpu.median, 2)}x (${fmt(cpuPerAnswer(sqlite), 2)} ms vs ${fmt(cpuPerAnswer(memory), 2)} ms in all)`,
    ],
    [
      within(sideCpu.median) && sideBySideErrors(sqlite) === 0,
      `SQLite vs memory: CPU per answer within ${percent}, side by side: median of ${sqlite.sideBySide.length} windows ${fmt(sideCpu.median, 2)}x (${spread(sideCpu)}), ${sideBySideErrors(sqlite)} errors`,
    ],
  ];
}

/**
 * Chatter on the SQLite gateway against a question it answered at the same rate: each group under
 * a tenth of its CPU, no call to Slack or the platform, and the control questions answered.
 */
function chatterChecks(chatter: ChatterPhase, sqlite: SystemResult): Array<[boolean, string]> {
  const answer = answerMicros(sqlite);
  const target = `target < ${TARGETS.chatterRatio}`;
  const checks = chatter.groups.map((g): [boolean, string] => {
    const ratio = chatterMicros(g) / answer;
    const what =
      g.group === 'top-level'
        ? `chatter dropped: ${fmt(chatterMicros(g))} µs CPU a message (${CHATTER_KINDS[g.group].join(', ')})`
        : `thread replies not answered: ${fmt(chatterMicros(g))} µs CPU a message (${CHATTER_KINDS[g.group].join(', ')}: one store read each)`;
    return [
      ratio < TARGETS.chatterRatio && g.run.errors === 0,
      `${what} vs ${fmt(answer)} µs an answered question = ${fmt(ratio, 3)}x (${target}), ${g.run.errors} errors`,
    ];
  });
  const slackCalls = chatter.groups.reduce((sum, g) => sum + callCount(g.slackCalls), 0);
  const platformCalls = chatter.groups.reduce((sum, g) => sum + g.platformCalls, 0);
  const sent = chatter.groups.reduce((sum, g) => sum + g.run.sent, 0);
  checks.push([
    slackCalls === 0 && platformCalls === 0,
    `chatter made no call: ${slackCalls} Slack Web API calls, ${platformCalls} platform calls for ${sent} measured messages and their warm-up`,
  ]);
  // What any Node HTTP receiver pays per request at this rate is not the filter's: the part above it is.
  for (const g of chatter.groups) {
    const above = chatterMicros(g) - g.floorMicros;
    const aboveAnswer = answer - g.floorMicros;
    checks.push([
      above / aboveAnswer < TARGETS.chatterRatio,
      `${g.group} chatter above a bare node:http server (${fmt(g.floorMicros)} µs a message at this rate, ${fmt(g.floorMicros / answer, 3)}x an answer): ` +
        `${fmt(above)} µs vs ${fmt(aboveAnswer)} µs an answered question's = ${fmt(above / aboveAnswer, 3)}x (${target})`,
    ]);
  }
  for (const { name, answered } of chatter.controls) {
    checks.push([
      answered,
      `control: ${name} ${answered ? 'was' : 'was NOT'} answered (the channel settings apply)`,
    ]);
  }
  return checks;
}

/**
 * Two gateways measured in the same rounds, each round a before/after pair: this checkout's against
 * another's (BENCH_BEFORE) on one store, or installed in many workspaces against one (BENCH_WORKSPACES).
 */
function reportPairs(after: SystemResult, before: SystemResult, against: string): void {
  const pairs = (figure: (round: RoundFigures) => number, windows: (r: SystemResult) => RoundFigures[]) =>
    windows(after)
      .map((round, index) => {
        const other = windows(before)[index];
        return other ? `${fmt(figure(other), 2)}→${fmt(figure(round), 2)}` : '';
      })
      .join(' ');
  const throughput = throughputRatios(after, before);
  const cpu = cpuRatios(after, before);
  const sideCpu = sideBySideCpuRatios(after, before);
  console.log(
    `\n${after.name} ${against}: throughput x${fmt(throughput.median, 3)} (median of ${after.rounds.length} pairs, ${spread(throughput)}), ` +
      `CPU per answer x${fmt(cpu.median, 3)} (${spread(cpu)}), side by side x${fmt(sideCpu.median, 3)} (${spread(sideCpu)}); ` +
      `fixed-rate p99 ${fmt(fixedRateP99(before))} → ${fmt(fixedRateP99(after))} ms (median of the rounds' differences ${fmt(fixedRateP99Excess(after, before))} ms)`,
  );
  console.log(
    `  fixed-rate p99 ms, before→after: ${after.steadyP99s.map((p99, i) => `${fmt(before.steadyP99s[i] ?? Number.NaN)}→${fmt(p99)}`).join(' ')}`,
  );
  console.log(
    `  answers/s, before→after: ${pairs(
      (round) => round.answersPerSecond,
      (r) => r.rounds,
    )}`,
  );
  console.log(
    `  CPU ms/answer, before→after: ${pairs(
      (round) => round.cpuMsPerAnswer,
      (r) => r.rounds,
    )}`,
  );
  console.log(
    `  side by side CPU ms/answer, before→after: ${pairs(
      (round) => round.cpuMsPerAnswer,
      (r) => r.sideBySide,
    )}`,
  );
}

/** Prints one PASS/MISS line per target; returns the number missed. */
function verdicts(results: SystemResult[], chatter: ChatterPhase | undefined): number {
  const find = (name: SystemName) => results.find((r) => r.name === name);
  const relay = find('relay');
  const sqlite = find('gateway-sqlite');
  const memory = find('gateway-memory');
  if (!relay || !sqlite || !memory) return 1;
  console.log('\nEach gateway as a ratio of the relay:');
  const checks = results.filter((r) => r !== relay).flatMap((gateway) => gatewayChecks(gateway, relay));
  for (const after of results) {
    const before = results.find((r) => r.name === `${after.name}-before`);
    if (before) reportPairs(after, before, `after vs before (${SETTINGS.before})`);
  }
  const distributed = find('gateway-sqlite-distributed');
  if (distributed) {
    reportPairs(
      distributed,
      sqlite,
      `in ${SETTINGS.workspaces} workspaces (after) vs gateway-sqlite in one (before)`,
    );
  }
  checks.push(...storeChecks(sqlite, memory));
  if (chatter) checks.push(...chatterChecks(chatter, sqlite));
  console.log('');
  for (const [pass, text] of checks) console.log(`${pass ? 'PASS' : 'MISS'}  ${text}`);
  return checks.filter(([pass]) => !pass).length;
}

main().then(
  () => process.exit(),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
