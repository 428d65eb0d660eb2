// HTTP connections a test controls one by one: a keep-alive connection it can leave idle or stop in
// the middle of a request body, and a request on a connection of its own. fetch pools connections
// behind the test's back, which is exactly what a shutdown test must not let happen.
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import type { Socket } from 'node:net';

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface KeepAliveConnection {
  /** A GET on this connection; the connection stays open afterwards. */
  get(path: string): Promise<HttpAnswer>;
  /**
   * A POST whose headers and first `firstBytes` bytes of body are sent now; `finish()` sends the rest
   * and resolves with the answer.
   */
  postInTwoParts(
    path: string,
    headers: Record<string, string>,
    body: string,
    firstBytes: number,
  ): { finish(): Promise<HttpAnswer> };
  /** Resolves when the connection has closed, by either side. */
  readonly closed: Promise<void>;
  destroy(): void;
}

/** One HTTP/1.1 keep-alive connection to `origin`, opened by its first request. */
export function keepAliveConnection(origin: string): KeepAliveConnection {
  // One socket at most: every request of this connection goes over the same TCP connection.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let socket: Socket | undefined;
  const watch = (opened: Socket) => {
    if (socket === opened) return;
    socket = opened;
    opened.once('close', () => resolveClosed());
  };

  const send = (
    method: string,
    path: string,
    headers: Record<string, string>,
  ): { sent: ReturnType<typeof request>; answer: Promise<HttpAnswer> } => {
    const sent = request(new URL(path, origin), { method, headers, agent });
    sent.on('socket', watch);
    return { sent, answer: answerOf(sent) };
  };

  return {
    get(path) {
      const { sent, answer } = send('GET', path, {});
      sent.end();
      return answer;
    },
    postInTwoParts(path, headers, body, firstBytes) {
      const bytes = Buffer.from(body, 'utf8');
      const { sent, answer } = send('POST', path, { ...headers, 'content-length': String(bytes.length) });
      sent.write(bytes.subarray(0, firstBytes));
      return {
        finish() {
          sent.end(bytes.subarray(firstBytes));
          return answer;
        },
      };
    },
    closed,
    destroy() {
      agent.destroy();
    },
  };
}

/** A GET on a connection opened for it and closed after it, so the server sees a connection opened now. */
export function getOnNewConnection(origin: string, path: string): Promise<HttpAnswer> {
  const sent = request(new URL(path, origin), { method: 'GET', agent: false });
  const answer = answerOf(sent);
  sent.end();
  return answer;
}

/** A POST on a connection opened for it: a pooled keep-alive socket the server is closing would reset it. */
export function postOnNewConnection(
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<HttpAnswer> {
  const bytes = Buffer.from(body, 'utf8');
  const sent = request(new URL(path, origin), {
    method: 'POST',
    agent: false,
    headers: { ...headers, 'content-length': String(bytes.length) },
  });
  const answer = answerOf(sent);
  sent.end(bytes);
  return answer;
}

function answerOf(sent: ReturnType<typeof request>): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    sent.once('error', reject);
    sent.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
  });
}
