// Redis that speaks only TLS, of a test's own: a private CA made with openssl, a Cluster of three
// primaries and a primary behind one sentinel, each on free ports and stopped by the test.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import type { RedisNode } from '../../src/stores/redis-client.js';
import { freePort, startRedis, stopRedis } from './redis-server.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

export interface TlsFiles {
  folder: string;
  caFile: string;
  /** The CA's PEM, as REDIS_TLS_CA_FILE is read. */
  ca: string;
  certFile: string;
  keyFile: string;
}

/** A CA and a certificate it signed for 127.0.0.1 and localhost, in a new folder. */
export async function makeTlsFiles(): Promise<TlsFiles> {
  const folder = mkdtempSync(join(tmpdir(), 'redis-tls-'));
  const file = (name: string) => join(folder, name);
  const subject = (name: string) => ['-subj', `/CN=${name}`];
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    ...subject('gateway test CA'),
  ]);
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    ...subject('localhost'),
  ]);
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'x509',
    '-req',
    '-days',
    '2',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.crt'),
    '-extfile',
    file('server.ext'),
  ]);
  return {
    folder,
    caFile: file('ca.crt'),
    ca: readFileSync(file('ca.crt'), 'utf8'),
    certFile: file('server.crt'),
    keyFile: file('server.key'),
  };
}

/** redis-server's settings for TLS alone on `port`: no plain TCP port, clients not asked for certificates. */
export function tlsOnly(files: TlsFiles, port: number): string[] {
  return [
    '--port',
    '0',
    '--tls-port',
    String(port),
    '--tls-cert-file',
    files.certFile,
    '--tls-key-file',
    files.keyFile,
    '--tls-ca-cert-file',
    files.caFile,
    '--tls-auth-clients',
    'no',
    '--tls-replication',
    'yes',
  ];
}

export interface TlsRedis {
  nodes: RedisNode[];
  stop(): Promise<void>;
}

async function stopAll(children: ChildProcess[], folder: string): Promise<void> {
  for (const child of children) await stopRedis(child);
  rmSync(folder, { recursive: true, force: true });
}

/** A Cluster of three primaries (no replicas), its nodes and its bus on TLS only. */
export async function startTlsCluster(files: TlsFiles): Promise<TlsRedis> {
  const children: ChildProcess[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'redis-tls-cluster-'));
  try {
    const nodes: RedisNode[] = [];
    for (let index = 0; index < 3; index += 1) {
      const [port, busPort] = [await freePort(), await freePort()];
      children.push(
        await startRedis(port, [
          ...tlsOnly(files, port),
          '--tls-cluster',
          'yes',
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          join(folder, `nodes-${port}.conf`),
          '--dir',
          folder,
        ]),
      );
      nodes.push({ host: '127.0.0.1', port });
    }
    await run('redis-cli', [
      '--tls',
      '--cacert',
      files.caFile,
      '--cluster',
      'create',
      ...nodes.map((node) => `${node.host}:${node.port}`),
      '--cluster-yes',
    ]);
    await waitFor(
      async () =>
        (await Promise.all(nodes.map((node) => clusterState(files, node)))).every((state) => state === 'ok'),
      { timeoutMs: 20_000, intervalMs: 100, message: 'the TLS cluster in state ok on every node' },
    );
    return { nodes, stop: () => stopAll(children, folder) };
  } catch (error) {
    await stopAll(children, folder);
    throw error;
  }
}

async function clusterState(files: TlsFiles, node: RedisNode): Promise<string | undefined> {
  return askOverTls(
    files,
    node,
    async (client) => /cluster_state:(\w+)/.exec(await client.clusterInfo())?.[1],
  );
}

function tlsClient(files: TlsFiles, node: RedisNode) {
  return createClient({ RESP: 2, socket: { ...node, tls: true, ca: files.ca, reconnectStrategy: false } });
}

/** `ask`'s answer from a TLS client of `node`, or undefined when it cannot be reached or fails. */
async function askOverTls<T>(
  files: TlsFiles,
  node: RedisNode,
  ask: (client: ReturnType<typeof tlsClient>) => Promise<T>,
): Promise<T | undefined> {
  const client = tlsClient(files, node);
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await ask(client);
  } catch {
    return undefined;
  } finally {
    client.destroy();
  }
}

/** A primary and one sentinel watching it as `name`, both on TLS only; `nodes` are the sentinel's. */
export async function startTlsSentinel(files: TlsFiles, name: string): Promise<TlsRedis> {
  const children: ChildProcess[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'redis-tls-sentinel-'));
  try {
    const primaryPort = await freePort();
    children.push(await startRedis(primaryPort, tlsOnly(files, primaryPort)));
    const sentinelPort = await freePort();
    // A sentinel rewrites its configuration file, so it gets one of its own.
    const config = join(folder, 'sentinel.conf');
    const settings = tlsOnly(files, sentinelPort);
    const lines = [];
    for (let index = 0; index < settings.length; index += 2) {
      lines.push(`${settings[index]?.slice(2)} ${settings[index + 1]}`);
    }
    lines.push('bind 127.0.0.1', `dir ${folder}`, `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 1`);
    writeFileSync(config, `${lines.join('\n')}\n`);
    const sentinel = spawn('/usr/bin/redis-server', [config, '--sentinel'], { stdio: 'ignore' });
    children.push(sentinel);
    const node = { host: '127.0.0.1', port: sentinelPort };
    await waitFor(() => primaryKnown(files, node, name), {
      timeoutMs: 10_000,
      intervalMs: 100,
      message: 'the TLS sentinel naming its primary',
    });
    return { nodes: [node], stop: () => stopAll(children, folder) };
  } catch (error) {
    await stopAll(children, folder);
    throw error;
  }
}

async function primaryKnown(files: TlsFiles, node: RedisNode, name: string): Promise<boolean> {
  const reply = await askOverTls(files, node, (client) =>
    client.sendCommand(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name]),
  );
  return Array.isArray(reply) && reply.length === 2;
}
