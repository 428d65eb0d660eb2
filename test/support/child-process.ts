// Runs one of the project's entry points in a Node process of its own, as an operator would, and
// collects what it prints line by line.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface RunningEntry {
  child: ChildProcess;
  /** Complete lines printed so far (a chunk may end in the middle of a line). */
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

/** Runs `entry` (a TypeScript file, through tsx) with only the environment given plus PATH. */
export function runEntry(entry: string, env: Record<string, string>): RunningEntry {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout: linesOf(child.stdout), stderr: linesOf(child.stderr), exited };
}

function linesOf(stream: NodeJS.ReadableStream | null): string[] {
  const lines: string[] = [];
  let partial = '';
  stream?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter(Boolean));
  });
  stream?.on('end', () => {
    if (partial) lines.push(partial);
  });
  return lines;
}
