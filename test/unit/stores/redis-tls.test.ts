// Redis over TLS alone, as managed Redis services offer it: a Cluster, a primary behind Sentinel and a
// rediss:// URL, each trusted through a private CA (REDIS_TLS_CA_FILE), and refused without it.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import type { RedisServer } from '../../../src/stores/redis-client.js';
import { RedisConnection } from '../../../src/stores/redis-connection.js';
import { freePort, startRedis, stopRedis } from '../../support/redis-server.js';
import {
  makeTlsFiles,
  startTlsCluster,
  startTlsSentinel,
  type TlsFiles,
  type TlsRedis,
  tlsOnly,
} from '../../support/redis-tls.js';
import { waitFor } from '../../support/wait.js';

let files: TlsFiles;
const started: TlsRedis[] = [];
const opened: RedisConnection[] = [];

beforeAll(async () => {
  files = await makeTlsFiles();
});

afterAll(async () => {
  for (const connection of opened.splice(0)) await connection.close();
  for (const redis of started.splice(0)) await redis.stop();
  rmSync(files.folder, { recursive: true, force: true });
});

async function connected(server: RedisServer): Promise<RedisConnection> {
  const connection = await RedisConnection.connect({
    server,
    keyPrefix: `test:tls:${randomBytes(4).toString('hex')}:`,
    connectTimeoutMs: 2_000,
  });
  opened.push(connection);
  return connection;
}

/** Keys on every slot range, a notice there and back: what the stores and the replicas' notices need. */
async function expectWorking(connection: RedisConnection): Promise<void> {
  const keys = ['installations', 'threads:a', 'threads:b', 'channel:C1', 'review:x', 'limits:U1'];
  for (const key of keys) expect(await connection.set(key, `value of ${key}`, 60)).toBe(true);
  for (const key of keys) expect(await connection.get(key)).toBe(`value of ${key}`);
  const heard: string[] = [];
  await connection.subscribe('channel-settings', (message) => heard.push(message));
  await connection.publish('channel-settings', 'C1 changed');
  await waitFor(() => heard.length > 0, { timeoutMs: 5_000, message: 'the notice heard over TLS' });
  expect(heard).toEqual(['C1 changed']);
}

describe('a Redis Cluster on TLS alone', () => {
  let cluster: TlsRedis;
  beforeAll(async () => {
    cluster = await startTlsCluster(files);
    started.push(cluster);
  }, 60_000);

  it('stores, reads and tells replicas through REDIS_TLS with the private CA', async () => {
    await expectWorking(await connected({ kind: 'cluster', nodes: cluster.nodes, tls: { ca: files.ca } }));
  });

  it('refuses to start when the certificates are checked against the system CAs alone', async () => {
    const error = await connected({ kind: 'cluster', nodes: cluster.nodes, tls: {} }).catch(
      (caught: unknown) => caught,
    );
    assert.instanceOf(error, StoreUnavailableError);
    expect(error.message).toContain('cluster over TLS via');
    expect(error.message).toMatch(/certificate/i);
  });
});

describe('a primary behind Sentinel on TLS alone', () => {
  let sentinel: TlsRedis;
  beforeAll(async () => {
    sentinel = await startTlsSentinel(files, 'gateway-tls');
    started.push(sentinel);
  }, 60_000);

  it('finds the primary through the sentinel and works with it, both over TLS', async () => {
    await expectWorking(
      await connected({
        kind: 'sentinel',
        name: 'gateway-tls',
        sentinels: sentinel.nodes,
        tls: { ca: files.ca },
      }),
    );
  });
});

describe('a rediss:// REDIS_URL', () => {
  it('trusts the private CA given beside the URL', async () => {
    const port = await freePort();
    const child = await startRedis(port, tlsOnly(files, port));
    try {
      const connection = await connected({
        kind: 'url',
        url: `rediss://127.0.0.1:${port}`,
        tls: { ca: files.ca },
      });
      expect(await connection.set('k', 'v', 60)).toBe(true);
      expect(await connection.get('k')).toBe('v');
    } finally {
      await stopRedis(child);
    }
  });
});
