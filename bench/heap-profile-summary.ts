// Summarizes a V8 sampling heap profile (HeapProfiler.startSampling, objects collected by GC included):
// what the process allocated in a window, by the function that allocated it and by package or file.
// bench/load.ts writes one per system with BENCH_HEAP=1 and prints this summary of it.
import { readFileSync } from 'node:fs';
import { origin } from './cpu-profile-summary.js';

interface HeapNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: HeapNode[];
}

interface HeapProfile {
  head: HeapNode;
  samples: Array<{ size: number; nodeId: number }>;
}

function isHeapProfile(value: unknown): value is HeapProfile {
  return (
    typeof value === 'object' &&
    value !== null &&
    'head' in value &&
    typeof value.head === 'object' &&
    'samples' in value &&
    Array.isArray(value.samples)
  );
}

const MB = 1024 * 1024;

/** The top allocating functions and origins of a heap profile, as lines of text. */
export function summarizeHeapProfile(file: string, top: number): string {
  const profile: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isHeapProfile(profile)) return `${file}: not a heap profile`;
  const bytesOf = new Map<number, number>();
  for (const { nodeId, size } of profile.samples) bytesOf.set(nodeId, (bytesOf.get(nodeId) ?? 0) + size);
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  let total = 0;
  const visit = (node: HeapNode) => {
    const bytes = bytesOf.get(node.id) ?? 0;
    if (bytes > 0) {
      const { functionName, url, lineNumber } = node.callFrame;
      const from = origin(url);
      const name = `${functionName || '(anonymous)'} ${from}:${lineNumber + 1}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + bytes);
      byOrigin.set(from, (byOrigin.get(from) ?? 0) + bytes);
      total += bytes;
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(profile.head);
  const lines = (counts: Map<string, number>) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, bytes]) =>
          `${(bytes / MB).toFixed(1).padStart(9)} MB ${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${name}`,
      );
  return [
    file,
    `allocated ${(total / MB).toFixed(0)} MB (sampled, objects since collected included)`,
    'by function:',
    ...lines(byFunction),
    'by package or file:',
    ...lines(byOrigin),
  ].join('\n');
}
