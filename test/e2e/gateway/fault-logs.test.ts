// What the log says when the platform fails as the demo's faults switch makes it fail: one line with
// the context (the action, the reason, the code), and no stack, which would read as a bug of ours.
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../../src/simulator/index.js';
import { askByMention, useGatewayHarness } from '../../support/gateway-harness.js';
import type { LogRecord } from '../../support/log-sink.js';

function robotFailures(logs: LogRecord[]): LogRecord[] {
  return logs.filter((record) => record.msg === 'robot call failed');
}

describe('a platform fault switched on', () => {
  const harness = useGatewayHarness();

  it('is logged as one line with its context, without a stack, whether the platform errs or does not answer', async () => {
    const h = harness();
    const faults: Fault[] = [
      { kind: 'http500' },
      { kind: 'code', code: '1001' },
      // It does not answer: the connection dropped, or no headers within CS_HEADERS_TIMEOUT_MS (1.5 s here).
      { kind: 'drop' },
      { kind: 'delay', ms: 2_500 },
    ];
    for (const fault of faults) {
      const before = robotFailures(h.logs).length;
      h.simulator.faults.set({ ...fault, actions: ['chat_user_robot_ask'], times: 1 });
      try {
        await askByMention(h, 'How do I reset my password?');
      } finally {
        h.simulator.faults.clear();
      }
      // The line is written before the asker is told, so the failure shown means it is there; one only.
      const lines = robotFailures(h.logs).slice(before);
      expect(lines, JSON.stringify(fault)).toHaveLength(1);
      const [failure] = lines;
      expect(failure).toMatchObject({ err: { type: expect.stringMatching(/Error$/) } });
      expect(String(failure?.code ?? JSON.stringify(failure?.err))).toMatch(/PLATFORM_/);
      expect(JSON.stringify(failure)).not.toContain('"stack"');
      // A warning (pino's 40), not an error (50): the platform failed, not the gateway.
      expect(failure?.level).toBe(40);
    }
  });
});
