import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../../src/observability/metrics.js';
import { sleep } from '../../support/wait.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** What a gateway hands its metrics: the conversation core, here with a megabyte of ballast. */
function gatewayMetrics(inFlight: number): WeakRef<object> {
  const core = { inFlight, ballast: new Array<number>(131_072).fill(inFlight) };
  new Metrics().countQuestionsInFlight(core);
  return new WeakRef(core);
}

function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // The event loop is stalled, as by a long synchronous task.
  }
}

describe('Metrics', () => {
  it('lets a stopped gateway go: the process metrics do not hold what a gateway reported', async () => {
    const cores = Array.from({ length: 10 }, (_, index) => gatewayMetrics(index));
    for (let round = 0; round < 3; round++) {
      await sleep(10);
      collectGarbage();
    }
    expect(cores.filter((core) => core.deref() !== undefined)).toHaveLength(0);
  });

  it("shows the gateway's own metrics and the process's in one scrape", async () => {
    const metrics = new Metrics();
    metrics.countQuestionsInFlight({ inFlight: 3 });
    const { body, contentType } = await metrics.render();
    expect(contentType).toContain('text/plain');
    expect(body).toContain('cs_gateway_questions_in_flight 3');
    expect(body).toContain('cs_gateway_process_resident_memory_bytes');
    // Each metric once, though every gateway in the process shares the process's.
    const helpLines = body.split('\n').filter((line) => line.startsWith('# HELP '));
    expect(new Set(helpLines).size).toBe(helpLines.length);
  });

  it('shows a stall of the event loop in the lag metrics', async () => {
    const metrics = new Metrics();
    await metrics.render();
    await sleep(120);
    busyFor(200);
    // The sample the stall held back is taken once the loop turns again.
    await sleep(120);
    const { body } = await metrics.render();
    const max = Number(/^cs_gateway_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(body)?.[1]);
    expect(max).toBeGreaterThanOrEqual(0.2);
  });
});
