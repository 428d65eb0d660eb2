// Robot-ask throughput on loopback: PlatformClient (undici, keep-alive pool) against plain global fetch.
// Run with `npm run bench`. Starts the simulator in-process, closes everything, prints a table.
import { subscribe } from 'node:diagnostics_channel';
import { PlatformClient, StaticTokenProvider } from '../src/platform/index.js';
import { startSimulator } from '../src/simulator/index.js';

const TOKEN = 'bench-token-0123456789abcdef0123456789ab';
const CONCURRENCY = 16;
const MAX_CALLS = 5_000;
const MAX_MS = 2_000;

// Both undici copies (ours and the one inside global fetch) announce each new connection here.
let connections = 0;
subscribe('undici:client:connected', () => {
  connections += 1;
});

interface RunResult {
  name: string;
  connections: number;
  calls: number;
  failures: number;
  elapsedMs: number;
  latencies: number[];
}

/** Keeps `CONCURRENCY` calls in flight until MAX_CALLS have started or MAX_MS has passed. */
async function run(name: string, call: (index: number) => Promise<void>): Promise<RunResult> {
  const latencies: number[] = [];
  let started = 0;
  let failures = 0;
  const connectionsBefore = connections;
  const begin = performance.now();
  const worker = async () => {
    while (started < MAX_CALLS && performance.now() - begin < MAX_MS) {
      const index = started;
      started += 1;
      const callStart = performance.now();
      try {
        await call(index);
        latencies.push(performance.now() - callStart);
      } catch {
        failures += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsedMs = performance.now() - begin;
  return {
    name,
    connections: connections - connectionsBefore,
    calls: latencies.length,
    failures,
    elapsedMs,
    latencies,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

function printTable(results: RunResult[]): void {
  const rows = results.map((result) => {
    const sorted = [...result.latencies].sort((a, b) => a - b);
    return {
      client: result.name,
      calls: String(result.calls),
      failures: String(result.failures),
      connections: String(result.connections),
      'calls/s': ((result.calls / result.elapsedMs) * 1000).toFixed(0),
      'p50 ms': percentile(sorted, 50).toFixed(2),
      'p99 ms': percentile(sorted, 99).toFixed(2),
    };
  });
  const columns = Object.keys(rows[0] ?? {}) as (keyof (typeof rows)[number])[];
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i] ?? 0)).join('  ');
  console.log(line(columns));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(columns.map((column) => row[column])));
}

/** Adds up rounds of one client into one row. */
function combine(name: string, rounds: RunResult[]): RunResult {
  return {
    name,
    connections: rounds.reduce((sum, round) => sum + round.connections, 0),
    calls: rounds.reduce((sum, round) => sum + round.calls, 0),
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
    elapsedMs: rounds.reduce((sum, round) => sum + round.elapsedMs, 0),
    latencies: rounds.flatMap((round) => round.latencies),
  };
}

const ROUNDS = 3;

async function main(): Promise<void> {
  const simulator = await startSimulator({ accessToken: TOKEN, host: '127.0.0.1', port: 0 });
  const client = new PlatformClient({
    openUrl: simulator.url,
    baseUrl: simulator.url,
    tokenProvider: new StaticTokenProvider(TOKEN),
    timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 },
  });
  const apiUrl = `${simulator.url}/open/platform/api.json`;
  const question = (index: number) => ({
    sysNum: 'bench',
    partnerId: `bench-user-${index % 64}`,
    question: 'How do I reset my password?',
  });
  const clients: Array<[string, (index: number) => Promise<void>]> = [
    [
      'PlatformClient (undici pool, validation)',
      async (index) => {
        await client.askRobot(question(index));
      },
    ],
    [
      'global fetch (no validation)',
      async (index) => {
        const response = await fetch(apiUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'chat_user_robot_ask', access_token: TOKEN, data: question(index) }),
        });
        const body = (await response.json()) as { code?: unknown };
        if (body.code !== '1000') throw new Error(`code ${String(body.code)}`);
      },
    ],
  ];
  try {
    // Warm both up (JIT, connection pools, the simulator) before anything is measured.
    for (const [name, call] of clients) await run(name, call);
    // Interleaved rounds, so neither client gains from running on a warmer process.
    const rounds = new Map<string, RunResult[]>();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, call] of clients)
        rounds.set(name, [...(rounds.get(name) ?? []), await run(name, call)]);
    }
    console.log(
      `robot ask on loopback, ${CONCURRENCY} in flight, ${ROUNDS} interleaved rounds of at most ${MAX_CALLS} calls or ${MAX_MS} ms per client, after a warm-up`,
    );
    printTable([...rounds].map(([name, results]) => combine(name, results)));
  } finally {
    await client.close();
    await simulator.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
