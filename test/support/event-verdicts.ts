// What the gateway itself says it did with an event (its /metrics counters), so a test that expects
// nothing to happen waits for that verdict instead of sleeping and then finding nothing: a slow
// wrong answer cannot land after the check.
import { expect } from 'vitest';
import type { GatewayHarness } from './gateway-harness.js';
import type { SlackAppResponse } from './slack-signing.js';
import { waitFor } from './wait.js';

const VERDICT_WAIT_MS = 8_000;

/** cs_gateway_slack_events_total for this event type and outcome, as the gateway's /metrics says now. */
export async function slackEventCount(url: string, type: string, outcome: string): Promise<number> {
  const response = await fetch(`${url}/metrics`);
  const text = await response.text();
  const line = text
    .split('\n')
    .find(
      (candidate) =>
        candidate.startsWith('cs_gateway_slack_events_total{') &&
        candidate.includes(`type="${type}"`) &&
        candidate.includes(`outcome="${outcome}"`),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Waits until the gateway has counted `count` events of this type and outcome (a total, not a delta). */
export async function waitForEventCount(
  url: string,
  type: string,
  outcome: string,
  count: number,
): Promise<void> {
  let seen = Number.NaN;
  await waitFor(
    async () => {
      seen = await slackEventCount(url, type, outcome);
      return seen >= count;
    },
    {
      timeoutMs: VERDICT_WAIT_MS,
      intervalMs: 20,
      message: () => `${type}/${outcome} at ${seen}, want ${count}`,
    },
  );
  expect(seen).toBe(count);
}

/**
 * Sends an event the gateway must leave alone and waits for its verdict (one more `ignored` of the
 * event's type); then nothing may have been asked of the robot and no Slack call made.
 */
export async function expectLeftAlone(
  harness: GatewayHarness,
  event: { type: string },
  send: () => Promise<SlackAppResponse> = () => harness.sendEvent(event),
): Promise<void> {
  const ignored = await slackEventCount(harness.url, event.type, 'ignored');
  const asksBefore = harness.robotAsks().length;
  const callsBefore = harness.slack.calls().length;
  expect((await send()).status).toBe(200);
  await waitForEventCount(harness.url, event.type, 'ignored', ignored + 1);
  expect(harness.robotAsks().slice(asksBefore)).toEqual([]);
  expect(harness.slack.calls().slice(callsBefore)).toEqual([]);
}
