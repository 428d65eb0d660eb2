// A redis-server of a test's own, on a free port, that the test may stop and start again.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createClient } from 'redis';

const REDIS_SERVER = '/usr/bin/redis-server';
/** Another process can take a port between freePort() and redis-server's bind; a fresh one is tried. */
const PORT_ATTEMPTS = 5;

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

/** A redis-server on a port nobody else took, retried on another port when the bind lost a race. */
export async function startRedisOnFreePort(): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { port, child: await startRedis(port) };
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !isPortTaken(error)) throw error;
    }
  }
}

/** Whether startRedis failed because its port was taken meanwhile. */
function isPortTaken(error: unknown): boolean {
  return error instanceof Error && error.message.includes('Address already in use');
}

/** Stops the server without closing its sockets: clients stay connected and get no answer. */
export function freezeRedis(child: ChildProcess): void {
  child.kill('SIGSTOP');
}

export function thawRedis(child: ChildProcess | undefined): void {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGCONT');
}

/** `settings`: more of redis-server's command-line settings (a cluster node's). */
export async function startRedis(port: number, settings: string[] = []): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      ...settings,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const { stdout } = child;
  if (stdout === null) throw new Error('redis-server has no stdout');
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      // A server that never got ready must not outlive the test that started it.
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start: ${output}`));
    }, 5_000);
    stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    // 'close', not 'exit': by then stdout is drained, so the output holds the reason (a port taken).
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
  });
  // Later output only needs draining.
  stdout.resume();
  child.stderr?.resume();
  return child;
}

export async function stopRedis(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  // SIGKILL ends a frozen (SIGSTOPped) server too.
  child.kill('SIGKILL');
  await exited;
}

/** Deletes the keys under `prefix` (one test file's namespace) from the shared Redis, and only those. */
export async function deleteKeysWithPrefix(prefix: string, url = 'redis://127.0.0.1:6379'): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    await client.quit();
  }
}
