// The gateway laid out and run as its container image does, without Docker: the compiled code and
// the production dependencies in a read-only folder, an unprivileged user, and one writable folder
// standing for the image's volume.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, chown, copyFile, cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { buildCompiledApp, type RunningEntry } from './child-process.js';
import type { RuntimeImage } from './dockerfile-image.js';

const run = promisify(execFile);

export interface ImageLikeApp {
  /** Stands for the image's WORKDIR: package.json, production node_modules and dist/, all read-only. */
  appDir: string;
  /** Stands for the image's volume: the one folder the gateway may write to. */
  dataDir: string;
  /** Whom the gateway runs as: nobody when the tests run as root, else the tests' own user. */
  user: { uid: number; gid: number } | undefined;
  /** The node binary that user can run, as the image's is (this one may sit in a folder only root reads). */
  node: string;
  remove(): Promise<void>;
}

/** Installs and builds as the Dockerfile's final stage does, then takes write access away. */
export async function prepareImageLikeApp(): Promise<ImageLikeApp> {
  const appDir = await mkdtemp(join(tmpdir(), 'cs-gateway-image-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-gateway-data-'));
  const nodeDir = await mkdtemp(join(tmpdir(), 'cs-gateway-node-'));
  const remove = async () => {
    // Root ignores the modes; anyone else needs write access back to delete.
    await run('chmod', ['-R', 'u+w', appDir]).catch(() => undefined);
    await rm(appDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
    await rm(nodeDir, { recursive: true, force: true });
  };
  try {
    const user = process.getuid?.() === 0 ? await unprivilegedUser() : undefined;
    // CI installs node under a folder of mode 700 (mktemp): nobody could not run it from there.
    const node = user ? join(nodeDir, 'node') : process.execPath;
    if (user) {
      await copyFile(process.execPath, node);
      await chmod(node, 0o755);
      await chmod(nodeDir, 0o755);
    }
    await copyFile('package.json', join(appDir, 'package.json'));
    await copyFile('package-lock.json', join(appDir, 'package-lock.json'));
    await run(
      'npm',
      ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
      {
        cwd: appDir,
      },
    );
    const build = await buildCompiledApp();
    try {
      await cp(dirname(build.main), join(appDir, 'dist'), { recursive: true });
    } finally {
      await build.remove();
    }
    // As the Dockerfile's `ln -s /data /app/data`: the default STATE_PATH leads to the volume.
    await symlink(dataDir, join(appDir, 'data'));
    await run('chmod', ['-R', 'a+rX,a-w', appDir]);
    if (user) await chown(dataDir, user.uid, user.gid);
    return { appDir, dataDir, user, node, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

async function unprivilegedUser(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await run('id', [flag, 'nobody'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

/** Where a path on the image's volume lands here: in `dataDir`. Other values are left as they are. */
export function onDataDir(app: ImageLikeApp, image: RuntimeImage, value: string): string {
  const volume = image.volumes.find((path) => value === path || value.startsWith(`${path}/`));
  return volume ? join(app.dataDir, value.slice(volume.length)) : value;
}

/** The image's environment, its volume paths moved onto `dataDir`, then `env` over it. */
function environment(app: ImageLikeApp, image: RuntimeImage, env: Record<string, string>) {
  const imageEnv = Object.fromEntries(
    Object.entries(image.env).map(([name, value]) => [name, onDataDir(app, image, value)]),
  );
  return { PATH: process.env.PATH ?? '', ...imageEnv, ...env };
}

/** `node` in an image's command is this test's own node. */
function nodeCommand(command: string[] | undefined, what: string): string[] {
  const [program, ...args] = command ?? [];
  if (program !== 'node') throw new Error(`the image's ${what} does not start with node: ${command}`);
  return args;
}

/** Starts the image's CMD in its WORKDIR (the app folder), as its user would. */
export function runAsImage(
  app: ImageLikeApp,
  image: RuntimeImage,
  env: Record<string, string>,
): RunningEntry {
  const child = spawn(app.node, nodeCommand(image.command, 'CMD'), {
    cwd: app.appDir,
    env: environment(app, image, env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...app.user,
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout: linesOf(child.stdout), stderr: linesOf(child.stderr), exited };
}

/** Runs the image's HEALTHCHECK command once and returns its exit code (0: healthy). */
export async function runHealthcheck(
  app: ImageLikeApp,
  image: RuntimeImage,
  env: Record<string, string>,
): Promise<number | null> {
  const child = spawn(app.node, nodeCommand(image.healthcheck, 'HEALTHCHECK'), {
    cwd: app.appDir,
    env: environment(app, image, env),
    stdio: 'ignore',
    ...app.user,
  });
  const [code] = await once(child, 'exit');
  return code as number | null;
}

/** The real user id a process runs as, from Linux's /proc. */
export async function uidOf(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const uid = status.split('\n').find((line) => line.startsWith('Uid:'));
  return Number(uid?.split(/\s+/)[1]);
}

function linesOf(stream: Readable): string[] {
  const lines: string[] = [];
  createInterface({ input: stream }).on('line', (line) => {
    if (line) lines.push(line);
  });
  return lines;
}
