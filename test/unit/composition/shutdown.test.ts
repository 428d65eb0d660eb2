import { describe, expect, it } from 'vitest';
import { drainWithin } from '../../../src/composition/shutdown.js';

describe('drainWithin', () => {
  it('closes as soon as the drain is done, by the end of the grace, and reports nothing cut short', async () => {
    const told: string[] = [];
    const started = Date.now();
    let closeUntil = 0;
    await drainWithin(2_000, {
      drain: async () => undefined,
      onDrainCutShort: () => told.push('drain'),
      close: async (until) => {
        closeUntil = until;
        return [];
      },
      onCloseCutShort: () => told.push('close'),
    });
    expect(told).toEqual([]);
    expect(closeUntil - started).toBeGreaterThanOrEqual(2_000);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('cuts a drain that outlasts its part short, keeps time for closing, and ends with the grace', async () => {
    const told: Array<string | readonly string[]> = [];
    const started = Date.now();
    await drainWithin(500, {
      drain: () => new Promise<void>(() => {}),
      onDrainCutShort: () => told.push('drain'),
      close: () => new Promise<readonly string[]>(() => {}),
      onCloseCutShort: (stillClosing) => told.push(stillClosing),
    });
    const elapsed = Date.now() - started;
    expect(told).toEqual(['drain', []]);
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(900);
  });
});
