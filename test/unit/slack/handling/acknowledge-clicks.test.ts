import { describe, expect, it } from 'vitest';
import { acknowledgeClick } from '../../../../src/slack/handling/acknowledge-clicks.js';

describe('acknowledgeClick', () => {
  it('acknowledges once, with no response body', async () => {
    const acks: unknown[][] = [];
    await acknowledgeClick({
      ack: async (...args: unknown[]) => {
        acks.push(args);
      },
    });
    expect(acks).toEqual([[]]);
  });
});
