import { createServer } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  HttpStatusError,
  JsonTransport,
  MalformedResponseError,
  type PlatformClient,
  TransportError,
} from '../../../src/platform/index.js';
import {
  type Loopback,
  ROBOT_ANSWER_DATA,
  ROBOT_ASK,
  sendJson,
  startLoopback,
  testClient,
} from './loopback.js';

const WINDOW = { createStartTime: 1_700_000_000, createEndTime: 1_700_003_600 };

let server: Loopback | undefined;
let client: PlatformClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** A port nothing listens on: bind one, note it, release it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return address.port;
}

describe("a 429's Retry-After", () => {
  /** Answers 429 with `retryAfter` first, then the agent list; notes when each call arrived. */
  async function limitedOnce(retryAfter: string | (() => string)): Promise<number[]> {
    const arrivals: number[] = [];
    server = await startLoopback((_request, response) => {
      arrivals.push(performance.now());
      if (arrivals.length === 1) {
        response.writeHead(429, {
          'retry-after': typeof retryAfter === 'string' ? retryAfter : retryAfter(),
        });
        response.end('slow down');
        return;
      }
      sendJson(response, { code: '1000', data: { items: [{ serviceId: 's-1', serviceName: 'Ann' }] } });
    });
    return arrivals;
  }

  it('waits as long as the platform asks before trying a read again, not a jittered few ms', async () => {
    const arrivals = await limitedOnce('1');
    client = testClient(server?.url ?? '', { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2_000 } });
    await expect(client.listAgents({ groupId: 'g' })).resolves.toEqual([
      { serviceId: 's-1', serviceName: 'Ann' },
    ]);
    expect(arrivals).toHaveLength(2);
    const [first = 0, second = 0] = arrivals;
    expect(second - first).toBeGreaterThanOrEqual(990);
  });

  it('reads an HTTP date as well as seconds', async () => {
    const arrivals = await limitedOnce(() => new Date(Date.now() + 2_000).toUTCString());
    client = testClient(server?.url ?? '', { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 3_000 } });
    await expect(client.listAgents({ groupId: 'g' })).resolves.toHaveLength(1);
    const [first = 0, second = 0] = arrivals;
    // The date has whole seconds: at least one second of it is left when it is written.
    expect(second - first).toBeGreaterThanOrEqual(500);
  });

  it('gives up at once when the platform asks for longer than a retry would ever wait', async () => {
    const arrivals = await limitedOnce('120');
    client = testClient(server?.url ?? '', { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2_000 } });
    const error = await client.listAgents({ groupId: 'g' }).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(arrivals).toHaveLength(1);
  });
});

describe('transport failures', () => {
  it('maps a 500 to HttpStatusError with a body snippet', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(500);
      response.end(`upstream exploded ${'x'.repeat(1000)}`);
    });
    client = testClient(server.url, { retry: { attempts: 0 } });
    const error = await client.listAgents({ groupId: 'g' }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error).toMatchObject({ status: 500, code: 'PLATFORM_HTTP_STATUS', action: 'queryServiceList' });
    const snippet = (error as HttpStatusError).bodySnippet;
    expect(snippet.startsWith('upstream exploded')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(301);
  });

  it('maps a garbage 200 body to MalformedResponseError', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>gateway login</html>');
    });
    client = testClient(server.url);
    const error = await client.askRobot(ROBOT_ASK).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toMatchObject({ bodySnippet: '<html>gateway login</html>' });
  });

  it('maps JSON of the wrong shape to MalformedResponseError', async () => {
    server = await startLoopback((_request, response) =>
      sendJson(response, { code: '1000', data: 'not an object' }),
    );
    client = testClient(server.url);
    await expect(client.askRobot(ROBOT_ASK)).rejects.toBeInstanceOf(MalformedResponseError);
  });

  it('maps a destroyed socket to TransportError reset, sent', async () => {
    server = await startLoopback((_request, response) => response.socket?.destroy());
    client = testClient(server.url, { retry: { attempts: 0 } });
    const error = await client.askRobot(ROBOT_ASK).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'reset', beforeRequestSent: false });
  });

  it('maps slow headers beyond headersMs to TransportError timeout', async () => {
    server = await startLoopback((_request, response) => {
      const timer = setTimeout(() => sendJson(response, { code: '1000', data: ROBOT_ANSWER_DATA }), 3_000);
      response.on('close', () => clearTimeout(timer));
    });
    client = testClient(server.url, { timeouts: { connectMs: 500, headersMs: 200, bodyMs: 200 } });
    const started = Date.now();
    await expect(client.askRobot(ROBOT_ASK)).rejects.toMatchObject({
      code: 'PLATFORM_TRANSPORT',
      failure: 'timeout',
      beforeRequestSent: false,
    });
    // undici's timers tick coarsely (about a second); what matters is that we did not wait for the answer.
    expect(Date.now() - started).toBeLessThan(2_900);
  });

  it('maps a refused port to TransportError connect, before the request was sent', async () => {
    const port = await closedPort();
    client = testClient(`http://127.0.0.1:${port}`, { retry: { attempts: 0 } });
    await expect(client.askRobot(ROBOT_ASK)).rejects.toMatchObject({
      code: 'PLATFORM_TRANSPORT',
      failure: 'connect',
      beforeRequestSent: true,
    });
  });

  it('maps an abort to TransportError aborted', async () => {
    server = await startLoopback((_request, response) => {
      const timer = setTimeout(() => sendJson(response, { code: '1000', data: ROBOT_ANSWER_DATA }), 2_000);
      response.on('close', () => clearTimeout(timer));
    });
    client = testClient(server.url);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user went away')), 50);
    await expect(client.askRobot(ROBOT_ASK, { signal: controller.signal })).rejects.toMatchObject({
      failure: 'aborted',
    });
  });
});

describe('retries', () => {
  it('retries a read after a 500 and succeeds on the second attempt', async () => {
    let count = 0;
    server = await startLoopback((_request, response) => {
      count += 1;
      if (count === 1) {
        response.writeHead(500);
        response.end('busy');
      } else {
        sendJson(response, { code: '1000,ok', data: [{ ticketId: 'a' }], pageCount: 1, totalCount: 1 });
      }
    });
    client = testClient(server.url);
    await expect(client.listTickets(WINDOW)).resolves.toMatchObject({ tickets: [{ ticketId: 'a' }] });
    expect(count).toBe(2);
  });

  it('retries a read after a reset', async () => {
    let count = 0;
    server = await startLoopback((_request, response) => {
      count += 1;
      if (count === 1) response.socket?.destroy();
      else sendJson(response, { code: '1000', data: { items: [{ serviceId: 's1', serviceName: 'Ann' }] } });
    });
    client = testClient(server.url);
    await expect(client.listAgents({ groupId: 'g' })).resolves.toEqual([
      { serviceId: 's1', serviceName: 'Ann' },
    ]);
    expect(count).toBe(2);
  });

  it('gives up on a read after 1 + attempts tries', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(503);
      response.end();
    });
    client = testClient(server.url, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(
      client.getSessionMessageStatistics({ startDate: '2026-01-01', endDate: '2026-01-02' }),
    ).rejects.toMatchObject({ status: 503 });
    expect(server.received).toHaveLength(3);
  });

  it('does not retry the robot ask after a 500', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(500);
      response.end();
    });
    client = testClient(server.url);
    await expect(client.askRobot(ROBOT_ASK)).rejects.toBeInstanceOf(HttpStatusError);
    expect(server.received).toHaveLength(1);
  });

  it('does not retry the robot ask after a reset', async () => {
    server = await startLoopback((_request, response) => response.socket?.destroy());
    client = testClient(server.url);
    await expect(client.askRobot(ROBOT_ASK)).rejects.toMatchObject({ failure: 'reset' });
    expect(server.received).toHaveLength(1);
  });

  it('does not retry feedback or a knowledge update after a 502', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(502);
      response.end();
    });
    client = testClient(server.url);
    await expect(client.updateRobotDoc({ docId: 'd' })).rejects.toBeInstanceOf(HttpStatusError);
    await expect(
      client.sendRobotFeedback({
        uid: 'u',
        cid: 'c',
        docId: 'd',
        docName: 'n',
        robotFlag: 1,
        status: 1,
        msgId: 'm',
      }),
    ).rejects.toBeInstanceOf(HttpStatusError);
    expect(server.received).toHaveLength(2);
  });

  it('does not retry a read that the caller aborted', async () => {
    server = await startLoopback((_request, response) => {
      const timer = setTimeout(() => sendJson(response, { code: '1000,ok', data: [] }), 2_000);
      response.on('close', () => clearTimeout(timer));
    });
    client = testClient(server.url);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(client.listTickets(WINDOW, { signal: controller.signal })).rejects.toMatchObject({
      failure: 'aborted',
    });
    expect(server.received).toHaveLength(1);
  });
});

describe('keep-alive', () => {
  it('reuses connections for sequential calls', async () => {
    const ports = new Set<number>();
    server = await startLoopback((_request, response, incoming) => {
      ports.add(incoming.socket.remotePort ?? -1);
      sendJson(response, { code: '1000', data: ROBOT_ANSWER_DATA });
    });
    client = testClient(server.url, { keepAliveTimeoutMs: 2_000 });
    for (let i = 0; i < 10; i += 1) await client.askRobot(ROBOT_ASK);
    // The pool may open a second socket while the first is finishing its response; never one per call.
    expect(ports.size).toBeLessThanOrEqual(2);
  });
});

describe('ownership and limits', () => {
  it('leaves a dispatcher passed in open when the client closes', async () => {
    server = await startLoopback((_request, response) =>
      sendJson(response, { code: '1000', data: ROBOT_ANSWER_DATA }),
    );
    const dispatcher = new Agent({ keepAliveTimeout: 200 });
    try {
      const first = testClient(server.url, { dispatcher });
      await first.askRobot(ROBOT_ASK);
      await first.close();
      await first.close();
      expect(dispatcher.closed).toBe(false);
      const second = testClient(server.url, { dispatcher });
      await expect(second.askRobot(ROBOT_ASK)).resolves.toBeDefined();
      await second.close();
    } finally {
      await dispatcher.close();
    }
  });

  it('refuses to buffer a body beyond maxResponseBytes', async () => {
    server = await startLoopback((_request, response) =>
      sendJson(response, { code: '1000', data: 'x'.repeat(5_000) }),
    );
    const transport = new JsonTransport({
      timeouts: { connectMs: 500, headersMs: 1_000, bodyMs: 1_000 },
      keepAliveTimeoutMs: 200,
      maxResponseBytes: 1_000,
    });
    try {
      await expect(transport.postJson('probe', `${server.url}/x`, {})).rejects.toMatchObject({
        code: 'PLATFORM_MALFORMED_RESPONSE',
        message: 'probe: malformed response: body exceeds 1000 bytes',
      });
    } finally {
      await transport.close();
    }
  });
});
