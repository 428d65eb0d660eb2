import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { boltLogger } from '../../../../src/slack/transport/bolt-logger.js';
import { logSink } from '../../../support/log-sink.js';

/** A part whose serialization is seen: the SDKs hand whole results to their debug lines. */
function countedPart(): { part: { toJSON(): unknown }; serialized: () => number } {
  let count = 0;
  return {
    part: {
      toJSON() {
        count += 1;
        return { channel: 'C1' };
      },
    },
    serialized: () => count,
  };
}

describe('the Bolt and SDK logger bridge', () => {
  it("writes the SDKs' lines as ours, with their parts joined and errors kept as errors", () => {
    const sink = logSink();
    const logger = boltLogger(createLogger({ level: 'debug', destination: sink.destination }), 'web-api');
    const { part } = countedPart();
    logger.debug('http request result:', part);
    logger.warn('rate limited', new Error('slow down'));

    expect(sink.records).toHaveLength(2);
    expect(sink.records[0]).toMatchObject({
      level: 20,
      component: 'web-api',
      msg: 'http request result: {"channel":"C1"}',
    });
    expect(sink.records[1]).toMatchObject({ level: 40, msg: 'rate limited', err: { message: 'slow down' } });
  });

  it('does not build a line below LOG_LEVEL: an SDK debug line costs nothing at info', () => {
    const sink = logSink();
    const logger = boltLogger(createLogger({ level: 'info', destination: sink.destination }));
    const { part, serialized } = countedPart();
    logger.debug('http request result:', part);
    logger.info('started', part);

    expect(sink.records.map((record) => record.msg)).toEqual(['started {"channel":"C1"}']);
    expect(serialized()).toBe(1);
  });
});
