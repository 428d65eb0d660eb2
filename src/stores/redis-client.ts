// The one place a node-redis client is made, for the stores and the question limits alike: the server at
// REDIS_URL, the primary that Sentinel names (followed through failovers), or a Redis Cluster, on one
// protocol and timeout.
import { createHash } from 'node:crypto';
import { createClient, createCluster, createSentinel, type RedisScripts } from 'redis';

export interface RedisNode {
  host: string;
  port: number;
}

/** Where the shared Redis is: REDIS_URL, REDIS_SENTINELS with REDIS_SENTINEL_NAME, or REDIS_CLUSTER_NODES. */
export type RedisServer =
  | { kind: 'url'; url: string }
  | {
      kind: 'cluster';
      /** Some nodes of the cluster: the rest, and which holds which slots, are asked of them. */
      nodes: RedisNode[];
      username?: string;
      password?: string;
    }
  | {
      kind: 'sentinel';
      /** The primary's name in the sentinels' configuration (`sentinel monitor NAME …`). */
      name: string;
      sentinels: RedisNode[];
      /** For the primary and its replicas. */
      username?: string;
      password?: string;
      /** For the sentinels themselves, whose `requirepass` is their own. */
      sentinelPassword?: string;
    };

export interface RedisPolicy {
  /** node-redis 6 gives up on a command after 5 s by default; ours is REDIS_COMMAND_TIMEOUT_MS. */
  commandTimeoutMs: number;
  connectTimeoutMs: number;
  reconnectStrategy: (retries: number) => number | Error;
}

// RESP2: the reply shapes the stores were written for; node-redis 6 would otherwise speak RESP3.
const RESP = 2;

/** Not connected yet: the caller attaches its 'error' listener first, or an error would end the process. */
export function createRedisClient<S extends RedisScripts>(
  server: RedisServer,
  policy: RedisPolicy,
  scripts: S,
) {
  const socket = { connectTimeout: policy.connectTimeoutMs, reconnectStrategy: policy.reconnectStrategy };
  const commandOptions = { timeout: policy.commandTimeoutMs };
  if (server.kind === 'url') {
    return {
      kind: 'url',
      client: createClient({
        url: server.url,
        RESP,
        // Queued commands would answer users minutes late.
        disableOfflineQueue: true,
        socket,
        commandOptions,
        scripts,
      }),
    } as const;
  }
  if (server.kind === 'cluster') {
    return {
      kind: 'cluster',
      client: createCluster({
        rootNodes: server.nodes.map((node) => ({ socket: { host: node.host, port: node.port } })),
        RESP,
        commandOptions,
        scripts,
        // For every node's connection, those it finds as well as those named here.
        defaults: {
          disableOfflineQueue: true,
          socket,
          ...(server.username !== undefined && { username: server.username }),
          ...(server.password !== undefined && { password: server.password }),
        },
      }),
    } as const;
  }
  return {
    kind: 'sentinel',
    client: createSentinel({
      name: server.name,
      sentinelRootNodes: server.sentinels,
      RESP,
      commandOptions,
      scripts,
      nodeClientOptions: {
        disableOfflineQueue: true,
        socket,
        ...(server.username !== undefined && { username: server.username }),
        ...(server.password !== undefined && { password: server.password }),
      },
      sentinelClientOptions: {
        socket: { connectTimeout: policy.connectTimeoutMs },
        ...(server.sentinelPassword !== undefined && { password: server.sentinelPassword }),
      },
    }),
  } as const;
}

/** For logs and the start-up line: never a password. */
export function redisLocation(server: RedisServer): string {
  if (server.kind === 'sentinel') {
    return `sentinel ${server.name} via ${hostPorts(server.sentinels)}`;
  }
  if (server.kind === 'cluster') return `cluster via ${hostPorts(server.nodes)}`;
  try {
    const parsed = new URL(server.url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'Redis';
  }
}

function hostPorts(nodes: RedisNode[]): string {
  return nodes.map((node) => `${node.host}:${node.port}`).join(',');
}

interface ScriptClient {
  readonly isReady: boolean;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Sends each script's hash rather than its text, and the text only when Redis does not hold it yet. */
export function evalBySha(client: ScriptClient): ScriptClient {
  const hashes = new Map<string, string>();
  return {
    get isReady() {
      return client.isReady;
    },
    evalSha: (sha, options) => client.evalSha(sha, options),
    async eval(script, options) {
      let sha = hashes.get(script);
      if (sha === undefined) {
        sha = createHash('sha1').update(script).digest('hex');
        hashes.set(script, sha);
      }
      try {
        return await client.evalSha(sha, options);
      } catch (error) {
        // A new primary after a failover, or a SCRIPT FLUSH, has lost it: the text loads it again.
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return client.eval(script, options);
      }
    },
  };
}
