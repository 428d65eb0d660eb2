import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../../src/util/keyed-queue.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));

describe('KeyedQueue', () => {
  it('finishes one key in the order tasks were queued, even when an earlier task is slower', async () => {
    const queue = new KeyedQueue();
    const finished: string[] = [];
    await Promise.all([
      queue.run('alice', async () => finished.push(await later(30, 'first'))),
      queue.run('alice', async () => finished.push(await later(1, 'second'))),
    ]);
    expect(finished).toEqual(['first', 'second']);
  });

  it('runs different keys concurrently', async () => {
    const queue = new KeyedQueue();
    const finished: string[] = [];
    await Promise.all([
      queue.run('alice', async () => finished.push(await later(30, 'alice'))),
      queue.run('bob', async () => finished.push(await later(1, 'bob'))),
    ]);
    expect(finished).toEqual(['bob', 'alice']);
  });

  it('goes on after a failed task and forgets idle keys', async () => {
    const queue = new KeyedQueue();
    await expect(queue.run('alice', () => Promise.reject(new Error('robot down')))).rejects.toThrow(
      'robot down',
    );
    await expect(queue.run('alice', () => Promise.resolve('answered'))).resolves.toBe('answered');
    await queue.drain();
    expect(queue.has('alice')).toBe(false);
  });
});
