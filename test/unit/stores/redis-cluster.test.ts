// The stores' connection on a Redis Cluster: a cluster it cannot find stops start-up at once, saying why;
// what one replica publishes reaches every replica, whichever primary holds the channel's slot; and a
// primary killed is an outage until its replica is promoted, then everything works without a restart.
import { randomBytes } from 'node:crypto';
import { afterEach, assert, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import type { RedisServer } from '../../../src/stores/redis-client.js';
import { RedisConnection } from '../../../src/stores/redis-connection.js';
import {
  findCluster,
  type OwnCluster,
  primaryOfKey,
  startOwnCluster,
  waitForPromotion,
} from '../../support/redis-cluster.js';
import { freePort } from '../../support/redis-server.js';
import { waitFor } from '../../support/wait.js';

const found = await findCluster();

const opened: RedisConnection[] = [];
let ownCluster: OwnCluster | undefined;
afterEach(async () => {
  for (const connection of opened.splice(0)) await connection.close();
  await ownCluster?.stop();
  ownCluster = undefined;
});

describe('starting on a Redis Cluster', () => {
  it('fails fast, naming the nodes and why, when none answers', async () => {
    const ports = [await freePort(), await freePort()];
    const started = Date.now();
    const error = await RedisConnection.connect({
      server: {
        kind: 'cluster',
        nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
        password: 'hunter2',
      },
      keyPrefix: 'test:cluster-start:',
      connectTimeoutMs: 500,
    }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(5_000);
    assert.instanceOf(error, StoreUnavailableError);
    expect(error.message).toContain(`cluster via 127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toContain('hunter2');
  });
});

describe.skipIf('missing' in found)('changes told across replicas on a Redis Cluster', () => {
  it('reaches every replica, this one too, on topics whose channels lie on different primaries', async () => {
    if ('missing' in found) return;
    const server = { kind: 'cluster', nodes: found.nodes } as const;
    const keyPrefix = `test:cluster-notices:${process.pid}:${randomBytes(4).toString('hex')}:`;
    const publisher = await RedisConnection.connect({ server, keyPrefix });
    opened.push(publisher);
    const listener = await RedisConnection.connect({ server, keyPrefix });
    opened.push(listener);
    // Enough topics that their channels' slots fall on more than one of the three primaries.
    const topics = ['installations', 'workspace-setups', 'channel-settings', 'a', 'b', 'c', 'd', 'e'];
    const heard: string[] = [];
    const heardByPublisher: string[] = [];
    for (const topic of topics) {
      await listener.subscribe(topic, (message) => heard.push(`${topic}=${message}`));
      await publisher.subscribe(topic, (message) => heardByPublisher.push(`${topic}=${message}`));
    }
    for (const topic of topics) await publisher.publish(topic, `T1:${topic}`);
    const expected = topics.map((topic) => `${topic}=T1:${topic}`).sort();
    await waitFor(() => heard.length >= topics.length && heardByPublisher.length >= topics.length, {
      timeoutMs: 5_000,
      message: 'every notice heard by both connections',
    });
    expect(heard.sort()).toEqual(expected);
    expect(heardByPublisher.sort()).toEqual(expected);
  });
});

/** The promise for Sentinel, kept on a cluster too: working again this soon after the promotion. */
const RECOVERY_MS = 10_000;

describe('a primary of the Redis Cluster killed', () => {
  it('is an outage for the stores until its replica is promoted, then every slot and notice works again', async () => {
    ownCluster = await startOwnCluster();
    const cluster = ownCluster;
    const logs: string[] = [];
    const logger = {
      warn: (_fields: object, msg: string) => logs.push(msg),
      info: (_fields: object, msg: string) => logs.push(msg),
    };
    const [first] = cluster.nodes;
    if (first === undefined) throw new Error('no node');
    const server: RedisServer = { kind: 'cluster', nodes: [first] };
    const keyPrefix = 'test:cluster-failover:';
    const connection = await RedisConnection.connect({ server, keyPrefix, logger });
    opened.push(connection);
    const listener = await RedisConnection.connect({ server, keyPrefix });
    opened.push(listener);
    const heard: string[] = [];
    await listener.subscribe('changes', (message) => heard.push(message));
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((name) => `${keyPrefix}${name}`);
    for (const key of keys) await connection.set(key, 'before', 60);

    // The primary holding the notices' channel: the subscription has to move with it.
    const victim = await primaryOfKey(first, `${keyPrefix}changes`);
    cluster.processOf(victim).kill('SIGKILL');
    await waitFor(
      () =>
        logs.includes(
          'redis connection lost or not answering; store calls fail at once until it answers again',
        ),
      {
        timeoutMs: 5_000,
        message: 'the circuit open',
      },
    );
    await expect(connection.set(`${keyPrefix}a`, 'during', 60)).rejects.toBeInstanceOf(StoreUnavailableError);

    const survivor = cluster.nodes.find((node) => node.port !== victim.port);
    if (survivor === undefined) throw new Error('no node left');
    await waitForPromotion(survivor, `${keyPrefix}changes`, victim, 20_000);
    const promotedAt = Date.now();
    await waitFor(
      async () => {
        try {
          for (const key of keys) await connection.set(key, 'after', 60);
          return true;
        } catch {
          return false;
        }
      },
      {
        timeoutMs: RECOVERY_MS,
        intervalMs: 200,
        message: `every slot written within ${RECOVERY_MS} ms of the promotion`,
      },
    );
    // The listener is a connection of its own: its circuit closes at its own next probe, maybe later.
    const readBack = () => Promise.all(keys.map((key) => listener.get(key)));
    await waitFor(
      async () => {
        try {
          await readBack();
          return true;
        } catch {
          return false;
        }
      },
      {
        timeoutMs: Math.max(1_000, promotedAt + RECOVERY_MS - Date.now()),
        intervalMs: 200,
        message: 'every slot read by the other connection again',
      },
    );
    expect(await readBack()).toEqual(keys.map(() => 'after'));
    await waitFor(
      async () => {
        await connection.publish('changes', 'T1');
        return heard.includes('T1');
      },
      {
        timeoutMs: Math.max(1_000, promotedAt + RECOVERY_MS - Date.now()),
        intervalMs: 200,
        message: 'a notice heard again',
      },
    );
    expect(logs).toContain('redis connection restored');
  });
});
