// What the log says when the platform fails as the demo's faults switch makes it fail: one line with
// the context (the action, the reason, the code), and no stack, which would read as a bug of ours.
import { describe, expect, it } from 'vitest';
import { askByMention, useGatewayHarness } from '../../support/gateway-harness.js';
import type { LogRecord } from '../../support/log-sink.js';
import { waitFor } from '../../support/wait.js';

function robotFailures(logs: LogRecord[]): LogRecord[] {
  return logs.filter((record) => record.msg === 'robot call failed');
}

describe('a platform fault switched on', () => {
  const harness = useGatewayHarness();

  it('is logged as one line with its context, without a stack, whether the platform errs or does not answer', async () => {
    const h = harness();
    for (const fault of [{ kind: 'http500' as const }, { kind: 'code' as const, code: '1001' }]) {
      const before = robotFailures(h.logs).length;
      h.simulator.faults.set({ ...fault, actions: ['chat_user_robot_ask'], times: 1 });
      try {
        await askByMention(h, 'How do I reset my password?');
      } finally {
        h.simulator.faults.clear();
      }
      const [failure] = await waitFor(() => {
        const found = robotFailures(h.logs).slice(before);
        return found.length > 0 && found;
      });
      expect(failure).toMatchObject({ err: { type: expect.stringMatching(/Error$/) } });
      expect(String(failure?.code ?? JSON.stringify(failure?.err))).toMatch(/PLATFORM_/);
      expect(JSON.stringify(failure)).not.toContain('"stack"');
      // A warning (pino's 40), not an error (50): the platform failed, not the gateway.
      expect(failure?.level).toBe(40);
    }
  });
});
