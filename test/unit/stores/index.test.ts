import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import { createStores } from '../../../src/stores/index.js';
import { deleteKeysWithPrefix } from '../../support/redis-server.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Runs `script` (an ES module) in a new Node process, as the gateway's code runs (through tsx), and
 * returns what it printed: what a process has loaded cannot be told from inside the test's own.
 */
async function inFreshProcess(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--no-warnings', '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: ROOT, timeout: 30_000 },
  );
  return stdout.trim();
}

/** Prints true when the Redis client's package is among the modules the process has loaded. */
const PRINT_REDIS_LOADED = `
  const { createRequire } = await import('node:module');
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  console.log(loaded.some((file) => /node_modules[\\/]@?redis[\\/]/.test(file)));
`;
const prefix = `test:${process.pid}:${randomBytes(4).toString('hex')}:`;

afterAll(async () => {
  await deleteKeysWithPrefix(prefix);
});

describe('createStores', () => {
  it('makes memory stores when memory is chosen', async () => {
    const stores = await createStores({ state: { kind: 'memory' }, maxEntries: 10, ttlSeconds: 60 });
    expect(stores.kind).toBe('memory');
    expect(await stores.ping()).toBe(true);
    expect(await stores.deliveries.claim('event', 60)).toBe(true);
    expect(await stores.deliveries.claim('event', 60)).toBe(false);
    await stores.names.set('U1', 'Ada', 60);
    expect(await stores.names.get('U1')).toBe('Ada');
    await stores.close();
    // The set's close releases the memory stores' entries.
    expect(await stores.names.get('U1')).toBeUndefined();
  });

  it('makes Redis stores sharing one connection with a Redis URL', async () => {
    const stores = await createStores({
      state: { kind: 'redis', server: { kind: 'url', url: REDIS_URL }, keyPrefix: prefix },
      maxEntries: 10,
      ttlSeconds: 60,
    });
    try {
      expect(stores.kind).toBe('redis');
      expect(await stores.ping()).toBe(true);
      expect(await stores.ratings.recordOnce('ctx-1', 1, 60)).toEqual({ recorded: true, rating: 1 });
      expect(await stores.ratings.get('ctx-1')).toBe(1);
      // No store closes alone: the shared connection stays open for all of them until the set's close.
      expect('close' in stores.ratings).toBe(false);
      expect(await stores.ratings.get('ctx-1')).toBe(1);
    } finally {
      await stores.close();
    }
    expect(await stores.ping()).toBe(false);
    await expect(stores.contexts.get('ctx-1')).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  // The Redis client is 3.6 MB of heap at start: an operator without Redis (the default) does not pay it.
  it('loads the Redis client only for Redis stores', async () => {
    const open = (state: string) => `
      const { createGateway } = await import('./src/app.ts');
      const { createStores } = await import('./src/stores/index.ts');
      const stores = await createStores({ state: ${state}, maxEntries: 10, ttlSeconds: 60 });
      await stores.close();
      if (typeof createGateway !== 'function') throw new Error('no gateway');
      ${PRINT_REDIS_LOADED}`;
    const folder = mkdtempSync(join(tmpdir(), 'stores-loaded-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const file = JSON.stringify(join(folder, 'state.sqlite'));
    const [sqlite, memory, redis] = await Promise.all([
      inFreshProcess(open(`{ kind: 'sqlite', path: ${file} }`)),
      inFreshProcess(open(`{ kind: 'memory' }`)),
      inFreshProcess(
        open(`{ kind: 'redis', server: { kind: 'url', url: '${REDIS_URL}' }, keyPrefix: '${prefix}' }`),
      ),
    ]);
    expect({ sqlite, memory, redis }).toEqual({ sqlite: 'false', memory: 'false', redis: 'true' });
    // Three fresh processes each load the whole app through tsx: seconds each on a busy 2-core machine.
  }, 60_000);

  it('rejects with StoreUnavailableError when Redis cannot be reached at start', async () => {
    await expect(
      createStores({
        state: { kind: 'redis', server: { kind: 'url', url: 'redis://127.0.0.1:1' }, keyPrefix: prefix },
        maxEntries: 10,
        ttlSeconds: 60,
        connectTimeoutMs: 300,
      }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
