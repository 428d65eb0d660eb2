import { describe, expect, it } from 'vitest';
import { errorFields } from '../../../src/logging/error-fields.js';
import { createLogger } from '../../../src/logging/logger.js';
import { HttpStatusError, RequestInvalidError, TransportError } from '../../../src/platform/errors.js';
import { CodedError } from '../../../src/util/coded-error.js';
import { logSink } from '../../support/log-sink.js';

class RobotDownError extends CodedError<'ROBOT_DOWN'> {
  readonly code = 'ROBOT_DOWN' as const;
}

function logged(error: unknown) {
  const sink = logSink();
  createLogger({ level: 'info', destination: sink.destination }).error(errorFields(error), 'failed');
  expect(sink.records).toHaveLength(1);
  return sink.records[0];
}

describe('errorFields', () => {
  it('logs a coded error with its code beside it and its cause chain', () => {
    const record = logged(new RobotDownError('robot unreachable', { cause: new Error('ECONNRESET') }));
    expect(record).toMatchObject({
      level: 50,
      msg: 'failed',
      code: 'ROBOT_DOWN',
      err: { type: 'RobotDownError', message: expect.stringContaining('robot unreachable') },
    });
    expect(JSON.stringify(record?.err)).toContain('ECONNRESET');
  });

  it('logs a plain error the same way, without a code', () => {
    const record = logged(new Error('something broke'));
    expect(record).toMatchObject({ level: 50, err: { type: 'Error', message: 'something broke' } });
    expect(record).not.toHaveProperty('code');
  });

  it('keeps the code an SDK or Node error carries of its own', () => {
    const error = Object.assign(new Error('An API error occurred: invalid_auth'), {
      code: 'slack_webapi_platform_error',
    });
    expect(logged(error)).toMatchObject({ code: 'slack_webapi_platform_error', err: { type: 'Error' } });
  });

  it('logs a rejection that is no error at all', () => {
    expect(logged('just a string')).toMatchObject({ err: 'just a string' });
  });
});

describe('a failure outside the app', () => {
  it('is one line with its context and no stack: a platform that errs or does not answer is no bug of ours', () => {
    const timeout = new TransportError('chat_user_robot_ask', 'timeout', false, {
      cause: Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
    });
    const record = logged(timeout);
    expect(record).toMatchObject({
      code: 'PLATFORM_TRANSPORT',
      err: { type: 'TransportError', message: 'chat_user_robot_ask: transport failure (timeout)' },
    });
    expect(JSON.stringify(record)).not.toContain('"stack"');
    expect(JSON.stringify(logged(new HttpStatusError('getTicketInfoList', 500, 'oops')))).not.toContain(
      '"stack"',
    );
  });

  it('keeps the stack of what is a bug: our own invalid request, and any other error', () => {
    expect(logged(new RequestInvalidError('update_robot_doc', 'docId', 'required'))?.err).toHaveProperty(
      'stack',
    );
    expect(logged(new Error('something broke'))?.err).toHaveProperty('stack');
    expect(logged(new RobotDownError('robot unreachable'))?.err).toHaveProperty('stack');
  });
});
