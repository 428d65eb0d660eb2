// One reading of a failed platform call for every surface: the asker in a conversation, the service
// desk's commands and the review loop's edits tell the same failure the same way, each in its words.
import { describe, expect, it } from 'vitest';
import { failureReason } from '../../../src/conversation/conversation.js';
import {
  AccessTokenError,
  HttpStatusError,
  MalformedResponseError,
  PlatformBusyError,
  PlatformCodeError,
  type PlatformError,
  platformFailureKind,
  RequestInvalidError,
  TransportError,
} from '../../../src/platform/errors.js';
import { platformFailureReason } from '../../../src/service-desk/platform-failure.js';

const timedOut = new TransportError('chat_user_robot_ask', 'timeout', false);
const noConnection = new TransportError('chat_user_robot_ask', 'connect', true);
const tokenVia = (cause?: PlatformError) =>
  new AccessTokenError('could not fetch an access token', cause ? { cause } : undefined);

describe('a failed platform call, read once for every surface', () => {
  it.each([
    ['a code the platform answered', new PlatformCodeError('chat_user_robot_ask', '1001'), 'refused'],
    [
      'a request the spec forbids',
      new RequestInvalidError('chat_user_robot_ask', 'question', 'empty'),
      'refused',
    ],
    ['an HTTP error', new HttpStatusError('chat_user_robot_ask', 502, 'Bad Gateway'), 'unavailable'],
    [
      'a body not of the spec',
      new MalformedResponseError('chat_user_robot_ask', 'not JSON', '<html>'),
      'malformed',
    ],
    ['no answer in time', timedOut, 'timeout'],
    ['no connection', noConnection, 'unreachable'],
    ['a token call that timed out', tokenVia(timedOut), 'timeout'],
    ['a token call that could not connect', tokenVia(noConnection), 'unreachable'],
    [
      'a token refused (the credentials)',
      tokenVia(new PlatformCodeError('getAccessToken', '1002')),
      'unavailable',
    ],
    [
      'a token answer not of the spec',
      tokenVia(new MalformedResponseError('getAccessToken', 'no token', '{}')),
      'malformed',
    ],
    ['a token that could not be had, no cause', tokenVia(), 'unavailable'],
    [
      'a question held back by PLATFORM_QUESTION_RATE',
      new PlatformBusyError('chat_user_robot_ask', 'deadline'),
      'busy',
    ],
  ] as const)('%s', (_, error, kind) => {
    expect(platformFailureKind(error)).toBe(kind);
  });

  it('tells the asker and the service desk the same thing when the token call fails as the ask would', () => {
    // The token endpoint timing out is the platform taking too long, as the ask itself timing out is.
    expect(failureReason(tokenVia(timedOut))).toBe(failureReason(timedOut));
    expect(failureReason(tokenVia(timedOut))).toBe('timeout');
    expect(platformFailureReason(tokenVia(noConnection))).toBe(platformFailureReason(noConnection));
    expect(platformFailureReason(tokenVia(noConnection))).toBe('unreachable');
    expect(failureReason(tokenVia(new MalformedResponseError('getAccessToken', 'no token', '{}')))).toBe(
      'malformed',
    );
  });
});
