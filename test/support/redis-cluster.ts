// The three-primary Redis Cluster that .ci/redis-cluster starts on loopback, found for the cluster tests
// (where its nodes are, how to delete a test's keys from every primary), and clusters of a test's own.
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient, createCluster } from 'redis';
import type { RedisNode } from '../../src/stores/redis-client.js';
import { freePort, startRedis, stopRedis } from './redis-server.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

export interface ClusterSetup {
  nodes: RedisNode[];
  /** What a gateway is given to use it. */
  variables: Record<string, string>;
}

const NODES = process.env.TEST_CLUSTER_NODES ?? '127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103';

function parseNodes(list: string): RedisNode[] {
  return list.split(',').map((item) => {
    const [host = '', port = ''] = item.trim().split(':');
    return { host, port: Number(port) };
  });
}

/** What `CLUSTER INFO` says its state is, on a connection of its own; undefined when the node is silent. */
async function clusterState(node: RedisNode): Promise<string | undefined> {
  const client = createClient({
    RESP: 2,
    socket: { ...node, connectTimeout: 1_000, reconnectStrategy: false },
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return /cluster_state:(\w+)/.exec(await client.clusterInfo())?.[1];
  } catch {
    return undefined;
  } finally {
    if (client.isOpen) client.destroy();
  }
}

/**
 * The set-up, or why it is missing. Where CI is set a missing set-up is an error, since .ci/run starts
 * it; elsewhere the test is skipped with the reason.
 */
export async function findCluster(): Promise<ClusterSetup | { missing: string }> {
  const nodes = parseNodes(NODES);
  const states = await Promise.all(nodes.map((node) => clusterState(node)));
  const notOk = nodes.filter((_node, index) => states[index] !== 'ok');
  if (notOk.length === 0) return { nodes, variables: { REDIS_CLUSTER_NODES: NODES } };
  const where = notOk.map((node) => `${node.host}:${node.port}`).join(', ');
  const reason = `no Redis Cluster in state ok on ${where}; start it with .ci/redis-cluster (TEST_CLUSTER_NODES)`;
  if (process.env.CI) throw new Error(`the Redis Cluster set-up is required in CI: ${reason}`);
  return { missing: reason };
}

/** Deletes the keys under `prefix` on every primary. */
export async function deleteKeysOnCluster(setup: ClusterSetup, prefix: string): Promise<void> {
  const cluster = createCluster({ rootNodes: setup.nodes.map((node) => ({ socket: node })) });
  cluster.on('error', () => undefined);
  await cluster.connect();
  try {
    for (const master of cluster.masters) {
      const client = await cluster.nodeClient(master);
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) {
        // One key a call: the keys of one node's scan may lie in several slots.
        for (const key of keys) await client.unlink(key);
      }
    }
  } finally {
    cluster.destroy();
  }
}

/** A cluster of a test's own: it may kill a primary without troubling any other test. */
export interface OwnCluster {
  nodes: RedisNode[];
  /** The node serving `port`, to kill it. */
  processOf(node: RedisNode): ChildProcess;
  stop(): Promise<void>;
}

/**
 * Three primaries with one replica each, on free ports (the cluster bus on ports of its own too), with a
 * one-second `cluster-node-timeout`, so a replica is promoted a few seconds after its primary dies.
 */
export async function startOwnCluster(): Promise<OwnCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-'));
  const started: Array<{ node: RedisNode; child: ChildProcess }> = [];
  const stop = async () => {
    for (const { child } of started) await stopRedis(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < 6; index += 1) {
      const [port, busPort] = [await freePort(), await freePort()];
      const child = await startRedis(port, [
        '--cluster-enabled',
        'yes',
        '--cluster-port',
        String(busPort),
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '1000',
        // A replica of a cluster a second old would otherwise count its copy as too stale to take over.
        '--cluster-replica-validity-factor',
        '0',
        '--dir',
        dir,
      ]);
      started.push({ node: { host: '127.0.0.1', port }, child });
    }
    const nodes = started.map(({ node }) => node);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((node) => `${node.host}:${node.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await waitFor(
      async () =>
        (await Promise.all(nodes.map((node) => clusterState(node)))).every((state) => state === 'ok'),
      { timeoutMs: 20_000, intervalMs: 100, message: 'the own cluster in state ok on every node' },
    );
    return {
      nodes,
      processOf(node) {
        const found = started.find((each) => each.node.port === node.port);
        if (!found) throw new Error(`no node of this cluster on ${node.port}`);
        return found.child;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The primary that holds `key`'s slot, as `node` sees the cluster now. */
export async function primaryOfKey(node: RedisNode, key: string): Promise<RedisNode> {
  const client = createClient({ RESP: 2, socket: { ...node, reconnectStrategy: false } });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const slot = await client.clusterKeySlot(key);
    for (const range of await client.clusterSlots()) {
      if (slot >= range.from && slot <= range.to) return { host: range.master.host, port: range.master.port };
    }
    throw new Error(`no primary holds slot ${slot}`);
  } finally {
    client.destroy();
  }
}

/** Waits until `node` names another primary than `old` for `key`'s slot: its replica promoted; returns it. */
export async function waitForPromotion(
  node: RedisNode,
  key: string,
  old: RedisNode,
  timeoutMs: number,
): Promise<RedisNode> {
  return waitFor(
    async () => {
      const primary = await primaryOfKey(node, key);
      return primary.port === old.port ? undefined : primary;
    },
    { timeoutMs, intervalMs: 100, message: `a replica of ${old.host}:${old.port} promoted` },
  );
}
