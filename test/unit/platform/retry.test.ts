import { describe, expect, it } from 'vitest';
import {
  connectionNeverMadeRule,
  fullJitterDelay,
  HttpStatusError,
  MalformedResponseError,
  PlatformCodeError,
  retryRulesFor,
  safeReadRule,
  TransportError,
  withRetries,
} from '../../../src/platform/index.js';

const refused = new TransportError('a', 'connect', true);
const reset = new TransportError('a', 'reset', false);
const timeout = new TransportError('a', 'timeout', false);
const aborted = new TransportError('a', 'aborted', false);
const policy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

function decide(kind: 'read' | 'write', error: unknown): boolean {
  return retryRulesFor(kind).some((rule) => rule(error));
}

describe('retry rules', () => {
  it.each([
    ['refused connection', refused, true],
    ['reset', reset, true],
    ['timeout', timeout, true],
    ['abort', aborted, false],
    ['HTTP 500', new HttpStatusError('a', 500, ''), true],
    ['HTTP 503', new HttpStatusError('a', 503, ''), true],
    ['HTTP 429', new HttpStatusError('a', 429, ''), true],
    ['HTTP 404', new HttpStatusError('a', 404, ''), false],
    ['platform code', new PlatformCodeError('a', '1001'), false],
    ['malformed body', new MalformedResponseError('a', 'x', ''), false],
    ['plain error', new Error('x'), false],
  ])('reads: %s -> retry %s', (_name, error, expected) => {
    expect(decide('read', error)).toBe(expected);
  });

  it.each([
    ['refused connection', refused, true],
    ['reset', reset, false],
    ['timeout', timeout, false],
    ['abort', aborted, false],
    ['HTTP 500', new HttpStatusError('a', 500, ''), false],
    ['HTTP 429', new HttpStatusError('a', 429, ''), false],
  ])('writes and the robot ask: %s -> retry %s', (_name, error, expected) => {
    expect(decide('write', error)).toBe(expected);
  });

  it('each rule answers on its own', () => {
    expect(connectionNeverMadeRule(refused)).toBe(true);
    expect(connectionNeverMadeRule(reset)).toBe(false);
    expect(safeReadRule(reset)).toBe(true);
  });
});

describe('full jitter', () => {
  it('grows exponentially and is capped', () => {
    const top = () => 0.999_999;
    expect(fullJitterDelay(1, policy, top)).toBe(99);
    expect(fullJitterDelay(2, policy, top)).toBe(199);
    expect(fullJitterDelay(3, policy, top)).toBe(399);
    expect(fullJitterDelay(10, policy, top)).toBe(999);
  });

  it('can be zero', () => {
    expect(fullJitterDelay(4, policy, () => 0)).toBe(0);
  });
});

describe('withRetries', () => {
  const fast = { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 };

  it('stops after the budget: 1 try + attempts retries', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw reset;
        },
        { action: 'a', policy: fast, rules: retryRulesFor('read') },
      ),
    ).rejects.toBe(reset);
    expect(calls).toBe(3);
  });

  it('succeeds on a later attempt and reports each retry', async () => {
    const retries: number[] = [];
    const result = await withRetries(
      async (attempt) => {
        if (attempt < 2) throw timeout;
        return attempt;
      },
      {
        action: 'a',
        policy: fast,
        rules: retryRulesFor('read'),
        onRetry: (_e, attempt) => retries.push(attempt),
      },
    );
    expect(result).toBe(2);
    expect(retries).toEqual([1]);
  });

  it('does not retry what no rule allows', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw reset;
        },
        { action: 'a', policy: fast, rules: retryRulesFor('write') },
      ),
    ).rejects.toBe(reset);
    expect(calls).toBe(1);
  });

  it('gives up with an aborted TransportError when the signal fires during the backoff', async () => {
    const controller = new AbortController();
    const slow = { attempts: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 };
    const run = withRetries(
      async () => {
        throw refused;
      },
      { action: 'a', policy: slow, rules: retryRulesFor('read'), signal: controller.signal, random: () => 1 },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(run).rejects.toMatchObject({ code: 'PLATFORM_TRANSPORT', failure: 'aborted' });
  });
});
