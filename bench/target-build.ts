// How the load bench's children run their code. As production runs the gateway (README, "Process"):
// compiled by tsc and run by node itself. Through tsx, as `npm start` runs it, every function the
// sources create at run time is named by esbuild's helper as it is made (`__name`, 1.4–2% of a
// gateway's busy time in a profile against none for the relay's few lines): a cost of the transform,
// not of the gateway, and not one production pays. BENCH_TSX=1 runs the sources through tsx.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface TargetBuild {
  /** The children's entry point. */
  readonly entry: string;
  /** node's arguments for it (besides the bench's own). */
  readonly execArgv: readonly string[];
  /** What runs, said in the bench's output. */
  readonly how: string;
  /** Removes what the build wrote. */
  remove(): void;
}

/**
 * The children's code, compiled into a temporary folder (removed by `remove`), or the sources through
 * tsx; of this checkout, or of the one at `root` (BENCH_BEFORE).
 */
export function buildTarget(options: { viaTsx: boolean; root?: string | undefined }): TargetBuild {
  const root = options.root ?? ROOT;
  if (options.viaTsx) {
    return {
      entry: join(root, 'bench', 'load-target.ts'),
      execArgv: ['--import', 'tsx'],
      how: 'the TypeScript sources through tsx, as `npm start` runs them (BENCH_TSX=1)',
      remove: () => undefined,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-build-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    // The compiled files find their packages through this link, as the sources find the project's.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const config = join(dir, 'tsconfig.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(root, 'tsconfig.json'),
        compilerOptions: { rootDir: root, outDir: dir, noEmit: false },
        files: [join(root, 'bench', 'load-target.ts')],
        // The sources' own declarations of untyped packages, as the production build has them.
        include: [join(root, 'src', '**', '*.d.ts')],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    // What the code opens beside itself (a checkout older than the script has none to copy).
    const copyAssets = join(root, 'scripts', 'copy-build-assets.mjs');
    if (existsSync(copyAssets)) execFileSync(process.execPath, [copyAssets, join(dir, 'src')]);
  } catch (error) {
    remove();
    // tsc writes its errors to stdout; a tsc that could not run says why in the error itself.
    const output = error instanceof Error && 'stdout' in error ? String(error.stdout).trim() : '';
    throw new Error(`could not compile the bench's children with tsc: ${output || String(error)}`, {
      cause: error,
    });
  }
  return {
    entry: join(dir, 'bench', 'load-target.js'),
    execArgv: [],
    how: 'compiled by tsc and run by node, as in production',
    remove,
  };
}
