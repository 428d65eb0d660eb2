import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
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
    const text = out.lines.join('\n');
    expect(out.lines).toHaveLength(5);
    expect(text).not.toContain(token);
    expect(out.records()[1]).toMatchObject({ body: { action: 'x', access_token: '[redacted]' } });
  });

  it('keeps an error cause chain in the log', () => {
    const out = capture();
    const error = new Error('robot call failed', { cause: new Error('ECONNRESET') });
    createLogger({ level: 'info', destination: out.destination }).error({ err: error }, 'failed');
    expect(JSON.stringify(out.records()[0])).toContain('ECONNRESET');
  });
});
