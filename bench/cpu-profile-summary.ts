// Summarizes a V8 .cpuprofile (node --cpu-prof): self time by function and by package or source file.
// `tsx bench/cpu-profile-summary.ts <file-or-dir> [top]` prints it; bench/load.ts calls it with BENCH_PROFILE=1.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function isCpuProfile(value: unknown): value is CpuProfile {
  return (
    typeof value === 'object' &&
    value !== null &&
    'nodes' in value &&
    Array.isArray(value.nodes) &&
    'samples' in value &&
    Array.isArray(value.samples) &&
    'timeDeltas' in value &&
    Array.isArray(value.timeDeltas)
  );
}

/** Where a frame comes from: an npm package, a file of ours, node's internals, or V8 itself. */
export function origin(url: string): string {
  if (url === '') return '(v8/native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return 'node:internal';
  const ours = /\/((?:src|bench|test)\/.*)$/.exec(url);
  return ours?.[1] ?? url;
}

/** Samples V8 files under these names are the process waiting, not working. */
const IDLE = new Set(['(idle)', '(program)']);

export function summarizeProfile(profile: CpuProfile, top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // Native and node-internal frames are charged to the nearest caller in a package or a file of ours.
  const attributed = (id: number): string => {
    for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
      const from = origin(byId.get(current)?.callFrame.url ?? '');
      if (from !== '(v8/native)' && from !== 'node:internal') return from;
    }
    return origin(byId.get(id)?.callFrame.url ?? '');
  };
  const selfByFunction = new Map<string, number>();
  const selfByOrigin = new Map<string, number>();
  const byCaller = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    if (IDLE.has(functionName)) {
      idle += micros;
      return;
    }
    busy += micros;
    const where = url === '' ? '' : ` ${origin(url)}:${lineNumber + 1}`;
    const name = `${functionName || '(anonymous)'}${where}`;
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + micros);
    const from = origin(url);
    selfByOrigin.set(from, (selfByOrigin.get(from) ?? 0) + micros);
    const caller = functionName === '(garbage collector)' ? '(garbage collector)' : attributed(id);
    byCaller.set(caller, (byCaller.get(caller) ?? 0) + micros);
  });
  const lines = (entries: Map<string, number>, count: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(
        ([name, micros]) =>
          `  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${name}`,
      );
  return [
    `busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms; percentages are of busy time`,
    'by function (self time):',
    ...lines(selfByFunction, top),
    'by package or file, native and node-internal time charged to the nearest caller in one:',
    ...lines(byCaller, 20),
    'by package or file (self time only):',
    ...lines(selfByOrigin, 10),
  ].join('\n');
}

/** The largest .cpuprofile in `path` (the main thread's; tsx's loader thread writes a small one), or `path` itself. */
export function summarizeLargestProfile(path: string, top: number): string {
  let file = path;
  if (statSync(path).isDirectory()) {
    const newest = readdirSync(path)
      .filter((name) => name.endsWith('.cpuprofile'))
      .map((name) => join(path, name))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
    if (!newest) return `no .cpuprofile in ${path}`;
    file = newest;
  }
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isCpuProfile(parsed)) return `${file} is not a V8 CPU profile`;
  return `${file}\n${summarizeProfile(parsed, top)}`;
}

// Run as a script, not imported by bench/load.ts.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [path, top] = process.argv.slice(2);
  if (!path) {
    console.error('usage: tsx bench/cpu-profile-summary.ts <file.cpuprofile | dir> [top]');
    process.exit(2);
  }
  console.log(summarizeLargestProfile(path, Number(top ?? 30)));
}
