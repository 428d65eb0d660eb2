import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askByMention, type GatewayHarness, startGatewayHarness } from '../../support/gateway-harness.js';

let harness: GatewayHarness;

beforeAll(async () => {
  harness = await startGatewayHarness();
});
afterAll(async () => {
  await harness.close();
});

async function scrape(): Promise<string> {
  const response = await fetch(`${harness.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

function sample(metrics: string, name: string, labels: Record<string, string>): number {
  const line = metrics
    .split('\n')
    .find(
      (candidate) =>
        candidate.startsWith(`${name}{`) &&
        Object.entries(labels).every(([key, value]) => candidate.includes(`${key}="${value}"`)),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('GET /metrics', () => {
  it('counts Slack events, platform calls with their latency, and store lookups', async () => {
    const before = await scrape();
    await askByMention(harness, 'How do I reset my password?');
    harness.simulator.faults.set({ kind: 'code', code: '1001', actions: ['chat_user_robot_ask'], times: 1 });
    await askByMention(harness, 'How do I connect to the VPN?');
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta('cs_gateway_slack_events_total', { type: 'app_mention', outcome: 'question' })).toBe(2);
    expect(delta('cs_gateway_platform_calls_total', { action: 'chat_user_robot_ask', outcome: 'ok' })).toBe(
      1,
    );
    expect(
      delta('cs_gateway_platform_calls_total', { action: 'chat_user_robot_ask', outcome: 'PLATFORM_CODE' }),
    ).toBe(1);
    expect(
      delta('cs_gateway_platform_call_duration_seconds_count', {
        action: 'chat_user_robot_ask',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(after).toContain('cs_gateway_questions_in_flight 0');
    expect(after).toContain('cs_gateway_process_resident_memory_bytes');
    expect(after).toMatch(/cs_gateway_store_lookups_total\{store="names",result="(hit|miss)"\}/);
  });
});

describe('logging of one question', () => {
  it('gives every line written while answering it the same request id, and different questions different ids', async () => {
    harness.logs.length = 0;
    harness.simulator.faults.set({ kind: 'http500', actions: ['chat_user_robot_ask'], times: 1 });
    await askByMention(harness, 'How do I reset my password?');
    const failure = harness.logs.find((line) => line.msg === 'robot call failed');
    const ready = harness.logs.find((line) => line.msg === 'reply ready');
    expect(failure?.requestId).toEqual(expect.any(String));
    // The core's failure line and the adapter's line share the id.
    expect(ready?.requestId).toBe(failure?.requestId);
    expect(failure).toMatchObject({ action: 'chat_user_robot_ask', httpStatus: 500 });

    await askByMention(harness, 'How do I connect to the VPN?');
    const ids = new Set(
      harness.logs.filter((line) => line.msg === 'reply ready').map((line) => line.requestId),
    );
    expect(ids.size).toBe(2);
  });
});
