// The one place a node-redis client is made, for the stores and the question limits alike: the server at
// REDIS_URL, the primary that Sentinel names (followed through failovers), or a Redis Cluster, on one
// protocol and timeout.
import { createHash } from 'node:crypto';
import { createClient, createCluster, createSentinel, type RedisScripts } from 'redis';

export interface RedisNode {
  host: string;
  port: number;
}

/** TLS to every connection: the sentinels and the nodes alike (a `rediss://` URL says it itself). */
export interface RedisTls {
  /** PEM certificates trusted instead of the system's (REDIS_TLS_CA_FILE): a private CA. */
  ca?: string;
}

/** Where the shared Redis is: REDIS_URL, REDIS_SENTINELS with REDIS_SENTINEL_NAME, or REDIS_CLUSTER_NODES. */
export type RedisServer =
  | { kind: 'url'; url: string; tls?: RedisTls }
  | {
      kind: 'cluster';
      tls?: RedisTls;
      /** Some nodes of the cluster: the rest, and which holds which slots, are asked of them. */
      nodes: RedisNode[];
      username?: string;
      password?: string;
    }
  | {
      kind: 'sentinel';
      tls?: RedisTls;
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
  const tls = tlsOptions(server);
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
        // The URL's scheme turns TLS on; only the CA is added to it.
        socket: { ...socket, ...(server.tls?.ca !== undefined && { ca: server.tls.ca }) },
        commandOptions,
        scripts,
      }),
    } as const;
  }
  if (server.kind === 'cluster') {
    return {
      kind: 'cluster',
      client: createCluster({
        rootNodes: server.nodes.map((node) => ({ socket: { host: node.host, port: node.port, ...tls } })),
        RESP,
        commandOptions,
        scripts,
        // For every node's connection, those it finds as well as those named here.
        defaults: nodeOptions(server, { ...socket, ...tls }),
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
      nodeClientOptions: nodeOptions(server, { ...socket, ...tls }),
      sentinelClientOptions: {
        socket: { connectTimeout: policy.connectTimeoutMs, ...tls },
        ...(server.sentinelPassword !== undefined && { password: server.sentinelPassword }),
      },
    }),
  } as const;
}

/** A cluster's or a Sentinel's options for each node's connection. */
function nodeOptions<Socket extends object>(
  server: { username?: string; password?: string },
  socket: Socket,
): { disableOfflineQueue: true; socket: Socket; username?: string; password?: string } {
  return {
    disableOfflineQueue: true,
    socket,
    ...(server.username !== undefined && { username: server.username }),
    ...(server.password !== undefined && { password: server.password }),
  };
}

/** node-redis's socket options for TLS: on, and the CA when one is given; none without TLS. */
function tlsOptions(server: RedisServer): { tls: true; ca?: string } | Record<never, never> {
  if (!server.tls) return {};
  return { tls: true, ...(server.tls.ca !== undefined && { ca: server.tls.ca }) };
}

/** For logs and the start-up line: never a password. */
export function redisLocation(server: RedisServer): string {
  const overTls = server.tls ? ' over TLS' : '';
  if (server.kind === 'sentinel') {
    return `sentinel ${server.name}${overTls} via ${hostPorts(server.sentinels)}`;
  }
  if (server.kind === 'cluster') return `cluster${overTls} via ${hostPorts(server.nodes)}`;
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
