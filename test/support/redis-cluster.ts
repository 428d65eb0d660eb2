// The three-primary Redis Cluster that .ci/redis-cluster starts on loopback, found for the cluster tests:
// where its nodes are, and how to delete a test's keys from every primary.
import { createClient, createCluster } from 'redis';
import type { RedisNode } from '../../src/stores/redis-client.js';

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
