import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/conversation/stores.js';
import { createStores } from '../../../src/stores/index.js';
import { deleteKeysWithPrefix } from '../../support/redis-server.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `test:${process.pid}:${randomBytes(4).toString('hex')}:`;

afterAll(async () => {
  await deleteKeysWithPrefix(prefix);
});

describe('createStores', () => {
  it('makes memory stores when memory is chosen', async () => {
    const stores = await createStores({ state: { kind: 'memory' }, maxEntries: 10, ttlSeconds: 60 });
    expect(stores.kind).toBe('memory');
    expect(await stores.ping()).toBe(true);
    expect(await stores.deliveries.claim('event', 60)).toBe(true);
    expect(await stores.deliveries.claim('event', 60)).toBe(false);
    await stores.names.set('U1', 'Ada', 60);
    expect(await stores.names.get('U1')).toBe('Ada');
    await stores.close();
    // The set's close releases the memory stores' entries.
    expect(await stores.names.get('U1')).toBeUndefined();
  });

  it('makes Redis stores sharing one connection with a Redis URL', async () => {
    const stores = await createStores({
      state: { kind: 'redis', url: REDIS_URL, keyPrefix: prefix },
      maxEntries: 10,
      ttlSeconds: 60,
    });
    try {
      expect(stores.kind).toBe('redis');
      expect(await stores.ping()).toBe(true);
      expect(await stores.ratings.recordOnce('ctx-1', 1, 60)).toEqual({ recorded: true, rating: 1 });
      expect(await stores.ratings.get('ctx-1')).toBe(1);
      // No store closes alone: the shared connection stays open for all of them until the set's close.
      expect('close' in stores.ratings).toBe(false);
      expect(await stores.ratings.get('ctx-1')).toBe(1);
    } finally {
      await stores.close();
    }
    expect(await stores.ping()).toBe(false);
    await expect(stores.contexts.get('ctx-1')).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('rejects with StoreUnavailableError when Redis cannot be reached at start', async () => {
    await expect(
      createStores({
        state: { kind: 'redis', url: 'redis://127.0.0.1:1', keyPrefix: prefix },
        maxEntries: 10,
        ttlSeconds: 60,
        connectTimeoutMs: 300,
      }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
