// The stores' connection on a Redis Cluster: a cluster it cannot find stops start-up at once, saying why, and
// what one replica publishes reaches every replica, whichever primary holds the channel's slot.
import { randomBytes } from 'node:crypto';
import { afterEach, assert, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import { RedisConnection } from '../../../src/stores/redis-connection.js';
import { findCluster } from '../../support/redis-cluster.js';
import { freePort } from '../../support/redis-server.js';
import { waitFor } from '../../support/wait.js';

const found = await findCluster();

const opened: RedisConnection[] = [];
afterEach(async () => {
  for (const connection of opened.splice(0)) await connection.close();
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
