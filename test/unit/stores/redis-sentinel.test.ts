// Starting on Redis through Sentinel: a set-up the gateway cannot use stops it at once, saying why.
import { assert, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import { RedisConnection } from '../../../src/stores/redis-connection.js';
import { findSentinels } from '../../support/redis-sentinel.js';
import { freePort } from '../../support/redis-server.js';

const found = await findSentinels();

async function startError(name: string, port: number, password?: string): Promise<unknown> {
  return RedisConnection.connect({
    server: {
      kind: 'sentinel',
      name,
      sentinels: [{ host: '127.0.0.1', port }],
      ...(password !== undefined && { password }),
    },
    keyPrefix: 'test:sentinel-start:',
    connectTimeoutMs: 500,
  }).catch((caught: unknown) => caught);
}

describe('starting on Redis through Sentinel', () => {
  it('fails fast, naming the sentinels and why, when none answers', async () => {
    const port = await freePort();
    const started = Date.now();
    const error = await startError('gateway', port, 'hunter2');
    expect(Date.now() - started).toBeLessThan(5_000);
    assert.instanceOf(error, StoreUnavailableError);
    expect(error.message).toContain(`sentinel gateway via 127.0.0.1:${port}`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toContain('hunter2');
  });

  it.skipIf('missing' in found)(
    'fails fast, saying so, when the sentinels know no primary of that name',
    async () => {
      if ('missing' in found) return;
      const [sentinel] = found.sentinels;
      if (sentinel === undefined) throw new Error('no sentinel');
      const error = await startError('no-such-primary', sentinel.port);
      assert.instanceOf(error, StoreUnavailableError);
      expect(error.message).toContain('No such master with that name');
    },
  );
});
