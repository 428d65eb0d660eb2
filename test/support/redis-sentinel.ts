// The primary, replica and three sentinels that .ci/redis-sentinel starts on loopback, found for the failover
// test: where they are, which node is the primary now, and how to kill it and bring it back as a replica.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import type { RedisNode } from '../../src/stores/redis-client.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

export interface SentinelSetup {
  name: string;
  sentinels: RedisNode[];
  /** What a gateway is given to use them. */
  variables: Record<string, string>;
}

const SENTINELS = process.env.TEST_SENTINELS ?? '127.0.0.1:26391,127.0.0.1:26392,127.0.0.1:26393';
const NAME = process.env.TEST_SENTINEL_NAME ?? 'cs-gateway-test';

function parseNodes(list: string): RedisNode[] {
  return list.split(',').map((item) => {
    const [host = '', port = ''] = item.trim().split(':');
    return { host, port: Number(port) };
  });
}

/** One command to one node or sentinel, on a connection of its own: a dead node answers undefined. */
async function ask(node: RedisNode, args: string[]): Promise<unknown> {
  // RESP2: a sentinel's replies as flat arrays of names and values.
  const client = createClient({
    RESP: 2,
    socket: { ...node, connectTimeout: 1_000, reconnectStrategy: false },
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await client.sendCommand(args);
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
export async function findSentinels(): Promise<SentinelSetup | { missing: string }> {
  const sentinels = parseNodes(SENTINELS);
  const setup: SentinelSetup = {
    name: NAME,
    sentinels,
    variables: { REDIS_SENTINELS: SENTINELS, REDIS_SENTINEL_NAME: NAME },
  };
  const answering = await Promise.all(sentinels.map((node) => ask(node, ['PING'])));
  const silent = sentinels.filter((_node, index) => answering[index] !== 'PONG');
  const primary = silent.length === 0 ? await primaryOf(setup) : undefined;
  const missing =
    silent.length > 0
      ? `no sentinel answers on ${silent.map((node) => `${node.host}:${node.port}`).join(', ')}`
      : primary === undefined
        ? `the sentinels know no primary named ${NAME}`
        : undefined;
  if (missing === undefined) return setup;
  const reason = `${missing}; start them with .ci/redis-sentinel (TEST_SENTINELS, TEST_SENTINEL_NAME)`;
  if (process.env.CI) throw new Error(`the Sentinel set-up is required in CI: ${reason}`);
  return { missing: reason };
}

/** The primary the first answering sentinel names. */
export async function primaryOf(setup: SentinelSetup): Promise<RedisNode | undefined> {
  for (const sentinel of setup.sentinels) {
    const reply = await ask(sentinel, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', setup.name]);
    if (Array.isArray(reply) && typeof reply[0] === 'string' && typeof reply[1] === 'string') {
      return { host: reply[0], port: Number(reply[1]) };
    }
  }
  return undefined;
}

/** Replicas that every sentinel sees up and that are in sync with the primary. */
async function healthyReplicas(setup: SentinelSetup): Promise<RedisNode[]> {
  const perSentinel = await Promise.all(
    setup.sentinels.map(async (sentinel) => {
      const reply = await ask(sentinel, ['SENTINEL', 'REPLICAS', setup.name]);
      if (!Array.isArray(reply)) return [];
      return reply.flatMap((fields: unknown) => {
        if (!Array.isArray(fields)) return [];
        const field = (key: string) => String(fields[fields.indexOf(key) + 1]);
        const up = field('flags') === 'slave' && field('master-link-status') === 'ok';
        return up ? [`${field('ip')}:${field('port')}`] : [];
      });
    }),
  );
  const seenByAll = (perSentinel[0] ?? []).filter((address) =>
    perSentinel.every((seen) => seen.includes(address)),
  );
  return parseNodes(seenByAll.join(',')).filter((node) => node.port > 0);
}

/** Waits until there is a primary with a replica in sync, as every sentinel sees it: a failover can happen. */
export async function waitUntilFailoverReady(setup: SentinelSetup, timeoutMs: number): Promise<RedisNode> {
  return waitFor(
    async () => {
      const primary = await primaryOf(setup);
      if (primary === undefined || (await ask(primary, ['PING'])) !== 'PONG') return undefined;
      return (await healthyReplicas(setup)).length > 0 ? primary : undefined;
    },
    { timeoutMs, intervalMs: 200, message: 'a primary with a replica in sync, seen by every sentinel' },
  );
}

/** How the node runs, to start it again the same way. */
export interface KilledNode {
  node: RedisNode;
  dir: string;
  logfile: string;
}

/** SIGKILL, found by the process id the node reports: no shutdown, no goodbye to its clients. */
export async function killNode(node: RedisNode): Promise<KilledNode> {
  const info = await ask(node, ['INFO', 'server']);
  const pid = Number(/process_id:(\d+)/.exec(String(info))?.[1]);
  if (!(pid > 0)) throw new Error(`no process id from ${node.host}:${node.port}`);
  const dir = await ask(node, ['CONFIG', 'GET', 'dir']);
  const logfile = await ask(node, ['CONFIG', 'GET', 'logfile']);
  process.kill(pid, 'SIGKILL');
  return {
    node,
    dir: String(Array.isArray(dir) ? dir[1] : '.'),
    logfile: String(Array.isArray(logfile) ? logfile[1] : ''),
  };
}

/** Starts the killed node again as a replica of `primary`, as .ci/redis-sentinel would, and waits for it to sync. */
export async function restoreAsReplica(
  setup: SentinelSetup,
  killed: KilledNode,
  primary: RedisNode,
  timeoutMs: number,
): Promise<void> {
  const { node } = killed;
  await run('redis-server', [
    '--daemonize',
    'yes',
    '--bind',
    node.host,
    '--port',
    String(node.port),
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    killed.dir,
    '--logfile',
    killed.logfile,
    '--replicaof',
    primary.host,
    String(primary.port),
  ]);
  await waitFor(
    async () =>
      (await healthyReplicas(setup)).some(
        (replica) => replica.host === node.host && replica.port === node.port,
      ),
    { timeoutMs, intervalMs: 200, message: `${node.host}:${node.port} back as a replica in sync` },
  );
}

/** Deletes the keys under `prefix` on the primary of the day. */
export async function deleteKeysOnPrimary(setup: SentinelSetup, prefix: string): Promise<void> {
  const primary = await primaryOf(setup);
  if (primary === undefined) return;
  const client = createClient({ socket: primary });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    client.destroy();
  }
}
