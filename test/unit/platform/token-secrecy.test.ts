// Regression: a token answer with `"msg": null` was refused, and the error quoted the body, token included.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { AccessTokenError, FetchedTokenProvider } from '../../../src/platform/index.js';
import { logSink } from '../../support/log-sink.js';
import { type Loopback, ROBOT_ASK, sendJson, startLoopback, TEST_TOKEN, testClient } from './loopback.js';

const SECRET = 'SECRETtoken0123456789abcdef0123456789ab';

let server: Loopback | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function tokenFrom(answer: (response: ServerResponse) => void): Promise<FetchedTokenProvider> {
  server = await startLoopback((_request, response) => answer(response));
  return new FetchedTokenProvider({ openUrl: server.url, appId: 'app', appKey: 'key' });
}

function sendRaw(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(text);
}

/** Every message, own property and cause down the chain, as one string. */
function everythingIn(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current !== undefined && current !== null; depth += 1) {
    if (current instanceof Error) {
      parts.push(current.message, current.stack ?? '');
      for (const [key, value] of Object.entries(current)) parts.push(key, String(value));
      current = current.cause;
    } else {
      parts.push(String(current));
      current = undefined;
    }
  }
  return parts.join('\n');
}

/** What the project's logger writes when the error is logged as `err`, parsed back into objects. */
function loggedLines(error: unknown): { text: string; lines: Record<string, unknown>[] } {
  const sink = logSink();
  const logger = createLogger({ level: 'debug', destination: sink.destination });
  logger.error({ err: error }, 'could not obtain the platform token');
  return { text: sink.lines.join('\n'), lines: sink.records };
}

describe('token answers with null fields', () => {
  it('accepts "msg": null and "message": null on a successful answer', async () => {
    const tokens = await tokenFrom((response) =>
      sendJson(response, { code: '1000', msg: null, message: null, data: { access_token: SECRET } }),
    );
    await expect(tokens.getToken()).resolves.toBe(SECRET);
  });

  it('reads "msg": null on a refusal as no message', async () => {
    const tokens = await tokenFrom((response) => sendJson(response, { code: '1003', msg: null }));
    const error = await tokens.getToken().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(AccessTokenError);
    expect((error as AccessTokenError).cause).toMatchObject({
      platformCode: '1003',
      platformMessage: undefined,
    });
  });
});

describe('the token never reaches an error or a log line', () => {
  const answers: [string, (response: ServerResponse) => void][] = [
    [
      'a code of the wrong type next to the token',
      (response) => sendJson(response, { code: { value: 1000 }, data: { access_token: SECRET } }),
    ],
    [
      'a token that is not a string in a list with the real one',
      (response) => sendJson(response, { code: '1000', data: { access_token: [SECRET] } }),
    ],
    [
      'a body cut off after the token',
      (response) => sendRaw(response, 200, `{"code":"1000","data":{"access_token":"${SECRET}"`),
    ],
    [
      'an HTTP 500 whose body echoes the token',
      (response) => sendRaw(response, 500, `{"code":"1500","data":{"access_token":"${SECRET}"}}`),
    ],
    [
      'a refusal that still carries a token',
      (response) => sendJson(response, { code: '1001', data: { access_token: SECRET } }),
    ],
  ];

  it.each(answers)('%s', async (_name, answer) => {
    const tokens = await tokenFrom(answer);
    const error = await tokens.getToken().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(AccessTokenError);
    expect(everythingIn(error)).not.toContain(SECRET);

    const { text, lines } = loggedLines(error);
    // The error was really serialized, with its code: an empty line would prove nothing.
    expect(lines).toHaveLength(1);
    expect(lines[0]?.err).toMatchObject({ type: 'AccessTokenError', code: 'PLATFORM_TOKEN' });
    expect(text).not.toContain(SECRET);
  });
});

describe('the access token of a call never reaches an error or a log line', () => {
  const echoes: [string, (response: ServerResponse, echoed: string) => void][] = [
    ['an HTTP 500 whose body echoes the request', (response, echoed) => sendRaw(response, 500, echoed)],
    [
      'a body that is not JSON and echoes the request',
      (response, echoed) => sendRaw(response, 200, `oops ${echoed}`),
    ],
    [
      'a body cut off after echoing the request',
      (response, echoed) => sendRaw(response, 200, echoed.slice(0, -2)),
    ],
  ];

  it.each(echoes)('%s', async (_name, answer) => {
    server = await startLoopback((request, response) => answer(response, request.raw));
    const client = testClient(server.url, { retry: { attempts: 0 } });
    const error = await client.askRobot(ROBOT_ASK).catch((failure: unknown) => failure);
    await client.close();
    expect(error).toMatchObject({ action: 'chat_user_robot_ask' });
    expect(everythingIn(error)).not.toContain(TEST_TOKEN);
    // The snippet still shows what came back, with the token blanked.
    expect(everythingIn(error)).toContain('[redacted]');

    const { text, lines } = loggedLines(error);
    expect(lines).toHaveLength(1);
    expect(text).not.toContain(TEST_TOKEN);
  });
});
