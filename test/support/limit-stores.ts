// Limit stores on the real Redis for the limiter and pacing tests: each its own connection, as
// replicas have, under one key prefix of the test's, all closed and their keys removed at the end.
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import type { LimitStore } from '../../src/slack/handling/question-limits.js';
import { evalBySha } from '../../src/stores/redis-client.js';
import { deleteKeysWithPrefix } from './redis-server.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

export interface RedisLimitStores {
  keyPrefix: string;
  /** A store on a connection of its own. */
  open(): Promise<LimitStore>;
  /** Every connection opened, and every key written under the prefix. */
  close(): Promise<void>;
}

export function redisLimitStores(name: string): RedisLimitStores {
  const keyPrefix = `test:${name}:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const clients: Array<{ readonly isOpen: boolean; close(): Promise<unknown> }> = [];
  return {
    keyPrefix,
    async open() {
      const client = createClient({ url: REDIS_URL });
      clients.push(client);
      await client.connect();
      return { kind: 'redis', client: evalBySha(client), keyPrefix };
    },
    async close() {
      for (const client of clients) if (client.isOpen) await client.close();
      await deleteKeysWithPrefix(keyPrefix);
    },
  };
}
