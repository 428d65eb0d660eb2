// The question limits on a Redis Cluster that is down when the gateway starts: questions pass, and once
// the cluster is up the limits count again, without a restart.

import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { createQuestionLimits } from '../../../src/composition/question-limits.js';
import { parseEnv } from '../../../src/config/env.js';
import { createLogger } from '../../../src/logging/logger.js';
import { logSink } from '../../support/log-sink.js';
import { freePort, startRedis, stopRedis } from '../../support/redis-server.js';
import { waitFor } from '../../support/wait.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A one-node cluster on `port`, holding every slot from its first moment (its nodes file says so): a
 * client that reaches it never sees it without slots.
 */
async function startOneNodeCluster(port: number): Promise<ChildProcess> {
  const folder = mkdtempSync(join(tmpdir(), 'limits-cluster-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const busPort = await freePort();
  const nodesFile = join(folder, 'nodes.conf');
  const id = randomBytes(20).toString('hex');
  writeFileSync(
    nodesFile,
    `${id} 127.0.0.1:${port}@${busPort} myself,master - 0 0 1 connected 0-16383\nvars currentEpoch 1 lastVoteEpoch 0\n`,
  );
  const child = await startRedis(port, [
    '--cluster-enabled',
    'yes',
    '--cluster-port',
    String(busPort),
    '--cluster-config-file',
    nodesFile,
    '--dir',
    folder,
  ]);
  cleanups.push(() => stopRedis(child));
  const client = createClient({ RESP: 2, socket: { host: '127.0.0.1', port } });
  await client.connect();
  try {
    await waitFor(async () => (await client.clusterInfo()).includes('cluster_state:ok'), {
      timeoutMs: 20_000,
      intervalMs: 50,
      message: 'the one-node cluster in state ok',
    });
  } finally {
    client.destroy();
  }
  return child;
}

describe('question limits on a Redis Cluster down at start-up', () => {
  it('let questions through, then count them once the cluster is up', async () => {
    const port = await freePort();
    const parsed = parseEnv({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 'secret',
      REDIS_CLUSTER_NODES: `127.0.0.1:${port}`,
      REDIS_KEY_PREFIX: `test-limits-${randomBytes(4).toString('hex')}:`,
      USER_QUESTION_LIMIT: '1/60s',
    });
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const sink = logSink();
    const { limits, close } = await createQuestionLimits(
      parsed.env,
      createLogger({ level: 'warn', destination: sink.destination }),
    );
    cleanups.push(close);
    const ask = (userId: string) => limits.admit({ workspace: 'T1', userId, channel: undefined });

    expect((await ask('U0')).kind).toBe('admitted');
    expect((await ask('U0')).kind).toBe('admitted');

    await startOneNodeCluster(port);
    let asker = 0;
    await waitFor(
      async () => {
        asker += 1;
        const userId = `U${asker}`;
        await ask(userId);
        return (await ask(userId)).kind === 'throttled';
      },
      {
        timeoutMs: 20_000,
        intervalMs: 200,
        message: "a person's second question refused by the cluster's count",
      },
    );
  }, 90_000);
});
