// Runs one of the project's entry points in a Node process of its own, as an operator would, and
// collects what it prints line by line.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface RunningEntry {
  child: ChildProcess;
  /** Complete lines printed so far (a chunk may end in the middle of a line). */
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

/** Runs `entry` (a TypeScript file, through tsx) with only the environment given plus PATH. */
export function runEntry(entry: string, env: Record<string, string>): RunningEntry {
  return runNode(['--import', 'tsx', entry], env);
}

/** Runs compiled JavaScript with plain `node`, as production does: no npm, no tsx in between. */
export function runCompiled(script: string, env: Record<string, string>): RunningEntry {
  return runNode([script], env);
}

export interface CompiledApp {
  /** The compiled entry point, `dist/main.js` of the build. */
  main: string;
  remove(): Promise<void>;
}

/**
 * Builds the app as `npm run build` does, into a directory of its own laid out as a deployment is
 * (package.json, node_modules, dist/), so the test neither needs nor overwrites the repository's dist/.
 */
export async function buildCompiledApp(): Promise<CompiledApp> {
  const root = await mkdtemp(join(tmpdir(), 'cs-gateway-build-'));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    // package.json makes the output ES modules; the link lets it resolve the installed dependencies.
    await copyFile('package.json', join(root, 'package.json'));
    await symlink(join(process.cwd(), 'node_modules'), join(root, 'node_modules'), 'dir');
    await promisify(execFile)(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', join(root, 'dist')],
      { cwd: process.cwd() },
    ).catch((error: unknown) => {
      // tsc reports its errors on stdout, which the error's message leaves out.
      const output = typeof error === 'object' && error !== null && 'stdout' in error ? error.stdout : '';
      throw new Error(`tsc -p tsconfig.build.json failed:\n${String(output)}`, { cause: error });
    });
    await promisify(execFile)(process.execPath, ['scripts/copy-build-assets.mjs', join(root, 'dist')]);
  } catch (error) {
    await remove();
    throw error;
  }
  return { main: join(root, 'dist', 'main.js'), remove };
}

function runNode(args: string[], env: Record<string, string>): RunningEntry {
  const child = spawn(process.execPath, args, {
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
