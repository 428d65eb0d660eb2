// Robot-ask throughput on loopback: PlatformClient (undici, keep-alive pool) against plain global fetch.
// Run with `npm run bench`. Starts the simulator in-process, closes everything, prints a table.
import { subscribe } from 'node:diagnostics_channel';
import { createKeepAliveAgent, PlatformClient, StaticTokenProvider } from '../src/platform/index.js';
import { startSimulator } from '../src/simulator/index.js';

const TOKEN = 'bench-token-0123456789abcdef0123456789ab';
const CONCURRENCY = 16;
const MAX_CALLS = 5_000;
const MAX_MS = 3_000;

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

async function main(): Promise<void> {
  const simulator = await startSimulator({ accessToken: TOKEN, host: '127.0.0.1', port: 0 });
  const timeouts = { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 };
  const clientOptions = {
    openUrl: simulator.url,
    baseUrl: simulator.url,
    tokenProvider: new StaticTokenProvider(TOKEN),
    timeouts,
  };
  const client = new PlatformClient(clientOptions);
  // The simulator advertises Keep-Alive timeout=1; undici's default 2 s safety margin then never reuses a
  // socket, so this pool trusts the hint more (a loopback setting, not a production one).
  const tunedAgent = createKeepAliveAgent(timeouts, { keepAliveTimeoutThresholdMs: 250 });
  const tuned = new PlatformClient({ ...clientOptions, dispatcher: tunedAgent });
  const apiUrl = `${simulator.url}/open/platform/api.json`;
  const question = (index: number) => ({
    sysNum: 'bench',
    partnerId: `bench-user-${index % 64}`,
    question: 'How do I reset my password?',
  });
  try {
    const results: RunResult[] = [];
    results.push(
      await run('PlatformClient', async (index) => {
        await client.askRobot(question(index));
      }),
    );
    results.push(
      await run('PlatformClient, hint-trusting pool', async (index) => {
        await tuned.askRobot(question(index));
      }),
    );
    results.push(
      await run('global fetch', async (index) => {
        const response = await fetch(apiUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'chat_user_robot_ask', access_token: TOKEN, data: question(index) }),
        });
        const body = (await response.json()) as { code?: unknown };
        if (body.code !== '1000') throw new Error(`code ${String(body.code)}`);
      }),
    );
    console.log(
      `robot ask on loopback, ${CONCURRENCY} in flight, at most ${MAX_CALLS} calls or ${MAX_MS} ms per client`,
    );
    printTable(results);
  } finally {
    await client.close();
    await tuned.close();
    await tunedAgent.close();
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
