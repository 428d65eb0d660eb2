import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { ResourceStack } from '../../../src/util/resource-stack.js';
import { logSink } from '../../support/log-sink.js';

function stack() {
  const sink = logSink();
  return {
    resources: new ResourceStack(createLogger({ level: 'info', destination: sink.destination })),
    sink,
  };
}

describe('ResourceStack', () => {
  it('closes the last opened first, each once', async () => {
    const { resources } = stack();
    const closed: string[] = [];
    for (const name of ['stores', 'platform client', 'Slack app']) {
      resources.defer(name, async () => {
        closed.push(name);
      });
    }
    expect(await resources.closeAll()).toEqual([]);
    await resources.closeAll();
    expect(closed).toEqual(['Slack app', 'platform client', 'stores']);
  });

  it('logs a close that fails, with its code, and closes the rest', async () => {
    const { resources, sink } = stack();
    let storesClosed = false;
    resources.defer('stores', async () => {
      storesClosed = true;
    });
    resources.defer('platform client', async () => {
      throw Object.assign(new Error('pool broke'), { code: 'UND_ERR_DESTROYED' });
    });
    await resources.closeAll();
    expect(storesClosed).toBe(true);
    expect(sink.records).toMatchObject([
      {
        level: 40,
        msg: 'platform client did not close',
        resource: 'platform client',
        code: 'UND_ERR_DESTROYED',
      },
    ]);
  });

  it('gives a close that hangs its share of the time, so the others still close by the end', async () => {
    const { resources } = stack();
    let storesClosed = false;
    resources.defer('stores', async () => {
      storesClosed = true;
    });
    resources.defer('platform client', () => new Promise<void>(() => {}));
    const started = Date.now();
    expect(await resources.closeAll(started + 200)).toEqual(['platform client']);
    expect(storesClosed).toBe(true);
    expect(Date.now() - started).toBeLessThan(400);
  });
});
