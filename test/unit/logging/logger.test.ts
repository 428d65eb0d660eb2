import { describe, expect, it } from 'vitest';
import { createLogger, withRequestId } from '../../../src/logging/logger.js';
import { logSink } from '../../support/log-sink.js';

function capture() {
  const sink = logSink();
  return { lines: sink.lines, records: () => sink.records, destination: sink.destination };
}

describe('logger', () => {
  it('writes JSON lines that parse back into the fields logged', () => {
    const out = capture();
    createLogger({ level: 'info', destination: out.destination }).info(
      { action: 'chat_user_robot_ask' },
      'asked',
    );
    expect(out.records()[0]).toMatchObject({ level: 30, msg: 'asked', action: 'chat_user_robot_ask' });
  });

  it('never lets a token, key or secret reach a log line, at any depth', () => {
    const out = capture();
    const token = 'tok_0123456789abcdef0123456789abcdef0123';
    const logger = createLogger({ level: 'debug', destination: out.destination });
    logger.info({ access_token: token }, 'top level');
    logger.info({ body: { action: 'x', access_token: token, data: { appKey: token } } }, 'nested');
    logger.info({ request: { headers: { authorization: `Bearer ${token}` } } }, 'header');
    logger
      .child({ component: 'platform' })
      .debug({ config: { botToken: token, signingSecret: token } }, 'child');
    logger.info({ req: { body: { sign: token, secret: token } } }, 'sign');
    logger.info({ state: { server: { password: token, sentinelPassword: token } } }, 'redis');
    const text = out.lines.join('\n');
    expect(out.lines).toHaveLength(6);
    expect(text).not.toContain(token);
    expect(out.records()[1]).toMatchObject({ body: { action: 'x', access_token: '[redacted]' } });
  });

  it('adds the trace fields in effect when each line is written, beside the request id', () => {
    const out = capture();
    let current: object = { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) };
    const logger = createLogger({ level: 'info', destination: out.destination, traceFields: () => current });
    withRequestId(logger, 'req-1').info('within a span');
    current = {};
    logger.info('outside any span');
    expect(out.records()[0]).toMatchObject({
      requestId: 'req-1',
      trace_id: 'a'.repeat(32),
      span_id: 'b'.repeat(16),
    });
    expect(out.records()[1]).not.toHaveProperty('trace_id');
  });

  it('keeps an error cause chain in the log', () => {
    const out = capture();
    const error = new Error('robot call failed', { cause: new Error('ECONNRESET') });
    createLogger({ level: 'info', destination: out.destination }).error({ err: error }, 'failed');
    expect(JSON.stringify(out.records()[0])).toContain('ECONNRESET');
  });

  it("puts an event's request id on every line of its logger and its children, and on no other line", () => {
    const out = capture();
    const logger = createLogger({ level: 'info', destination: out.destination });
    const token = 'tok_0123456789abcdef0123456789abcdef0123';
    const event = withRequestId(logger, 'req-1');
    event.info('from the event');
    event.child({ component: 'review' }).warn({ body: { access_token: token } }, 'from a child');
    withRequestId(logger, 'req-2').info('from another event');
    event.info({ requestId: 'req-given' }, 'given on the line');
    logger.info('from the app');
    expect(out.records().map((line) => [line.msg, line.requestId, line.component])).toEqual([
      ['from the event', 'req-1', undefined],
      ['from a child', 'req-1', 'review'],
      ['from another event', 'req-2', undefined],
      ['given on the line', 'req-given', undefined],
      ['from the app', undefined, undefined],
    ]);
    expect(out.lines.join('\n')).not.toContain(token);
  });
});
