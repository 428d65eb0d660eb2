import { describe, expect, it } from 'vitest';
import { Routes } from '../../../../src/slack/handling/routes.js';

describe('Routes', () => {
  const seen: string[] = [];
  const listener = (name: string) => async (args: { key: string }) => {
    seen.push(`${name}:${args.key}`);
  };
  const routes = new Routes<{ key: string }>([
    [/^suggestion:\d+$/, listener('suggestion')],
    ['try_again', listener('retry')],
    ['a.b', listener('dotted')],
    [/^rate_(?:up|down)$/, listener('rating')],
  ]);

  it('finds a listener by its exact id or by the first pattern that matches', async () => {
    for (const key of ['suggestion:3', 'try_again', 'a.b', 'rate_down']) await routes.find(key)?.({ key });
    expect(seen).toEqual(['suggestion:suggestion:3', 'retry:try_again', 'dotted:a.b', 'rating:rate_down']);
  });

  it('finds nothing for an id it does not route, and its pattern matches exactly what it routes', () => {
    for (const key of ['suggestion:x', 'try_again_later', 'aXb', 'rate_sideways', '']) {
      expect(routes.find(key)).toBeUndefined();
      expect(routes.pattern.test(key)).toBe(false);
    }
    for (const key of ['suggestion:12', 'try_again', 'a.b', 'rate_up'])
      expect(routes.pattern.test(key)).toBe(true);
  });

  it('refuses two listeners for one id', () => {
    expect(
      () =>
        new Routes([
          ['x', listener('one')],
          ['x', listener('two')],
        ]),
    ).toThrow('two listeners for x');
  });
});
