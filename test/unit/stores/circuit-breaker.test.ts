import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CircuitBreaker } from '../../../src/stores/circuit-breaker.js';

/** A probe whose answers the test gives one at a time. */
function controlledProbe() {
  const pending: Array<(answer: boolean | Error) => void> = [];
  return {
    pending,
    probe: () =>
      new Promise<boolean>((resolve, reject) => {
        pending.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer)));
      }),
    /** Settles the oldest probe in flight and lets the breaker react. */
    async answer(answer: boolean | Error) {
      const settle = pending.shift();
      if (!settle) throw new Error('no probe in flight');
      settle(answer);
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

function breakerWith(probe: () => Promise<boolean>) {
  const events: string[] = [];
  const breaker = new CircuitBreaker({
    probe,
    probeIntervalMs: 500,
    onOpen: (cause) => events.push(`open: ${cause instanceof Error ? cause.message : String(cause)}`),
    onClose: () => events.push('close'),
  });
  return { breaker, events };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('CircuitBreaker', () => {
  it('opens on the first failure, once however many follow, and probes at once', async () => {
    const probe = controlledProbe();
    const { breaker, events } = breakerWith(probe.probe);
    expect(breaker.isOpen).toBe(false);
    breaker.trip(new Error('no answer within 300 ms'));
    breaker.trip(new Error('no answer within 300 ms'));
    expect(breaker.isOpen).toBe(true);
    expect(events).toEqual(['open: no answer within 300 ms']);
    expect(probe.pending).toHaveLength(1);
  });

  it('closes when a probe answers, and opens again on the next failure', async () => {
    const probe = controlledProbe();
    const { breaker, events } = breakerWith(probe.probe);
    breaker.trip(new Error('lost'));
    await probe.answer(true);
    expect(breaker.isOpen).toBe(false);
    breaker.trip(new Error('lost again'));
    expect(breaker.isOpen).toBe(true);
    expect(events).toEqual(['open: lost', 'close', 'open: lost again']);
  });

  it('probes again after the pause when a probe fails or throws, and never two at once', async () => {
    const probe = controlledProbe();
    const { breaker } = breakerWith(probe.probe);
    breaker.trip(new Error('lost'));
    // An unanswered probe (a frozen server) is waited for: no second PING queues behind it.
    await vi.advanceTimersByTimeAsync(5_000);
    breaker.probeNow();
    expect(probe.pending).toHaveLength(1);

    await probe.answer(false);
    await vi.advanceTimersByTimeAsync(499);
    expect(probe.pending).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe.pending).toHaveLength(1);

    await probe.answer(new Error('The client is offline'));
    expect(breaker.isOpen).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    await probe.answer(true);
    expect(breaker.isOpen).toBe(false);
  });

  it('probes at once on probeNow instead of waiting out the pause', async () => {
    const probe = controlledProbe();
    const { breaker } = breakerWith(probe.probe);
    breaker.trip(new Error('lost'));
    await probe.answer(false);
    breaker.probeNow();
    expect(probe.pending).toHaveLength(1);
    await probe.answer(true);
    expect(breaker.isOpen).toBe(false);
    // The pause's timer was dropped: it probes no more.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe.pending).toHaveLength(0);
  });

  it('does nothing while closed: no probe, and probeNow is ignored', async () => {
    const probe = vi.fn(async () => true);
    const { breaker } = breakerWith(probe);
    breaker.probeNow();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(probe).not.toHaveBeenCalled();
  });

  it('stops probing once disposed, and a failure after that opens nothing', async () => {
    const probe = controlledProbe();
    const { breaker, events } = breakerWith(probe.probe);
    breaker.trip(new Error('lost'));
    await probe.answer(false);
    breaker.dispose();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe.pending).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);

    const fresh = breakerWith(probe.probe);
    fresh.breaker.dispose();
    fresh.breaker.trip(new Error('after close'));
    expect(fresh.breaker.isOpen).toBe(false);
    expect(fresh.events).toEqual([]);
    expect(events).toEqual(['open: lost']);
  });

  it('rejects a probe interval that is not positive', () => {
    expect(() => new CircuitBreaker({ probe: async () => true, probeIntervalMs: 0 })).toThrow(RangeError);
  });
});
