// Tiny real HTTP servers on 127.0.0.1:0 for the platform client's tests; no module mocks.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PlatformClient,
  type PlatformClientOptions,
  StaticTokenProvider,
} from '../../../src/platform/index.js';

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: unknown;
}

export type LoopbackHandler = (
  request: ReceivedRequest,
  response: ServerResponse,
  incoming: IncomingMessage,
) => void;

export interface Loopback {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export const TEST_TOKEN = 'T'.repeat(40);

export async function startLoopback(handler: LoopbackHandler): Promise<Loopback> {
  const received: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const request = { path: incoming.url ?? '', headers: incoming.headers, raw, body };
      received.push(request);
      handler(request, response, incoming);
    });
  });
  // Node advertises whole seconds ("timeout=5"); below ~3 s undici would not reuse sockets at all.
  // close() ends idle sockets itself, so nothing waits on this.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function sendJson(response: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** The body field `action` of an open-platform request, or the last path segment for ticket calls. */
export function actionOf(request: ReceivedRequest): string {
  const body = request.body;
  if (typeof body === 'object' && body !== null && 'action' in body && typeof body.action === 'string') {
    return body.action;
  }
  return request.path.split('/').pop() ?? '';
}

export function testClient(url: string, overrides: Partial<PlatformClientOptions> = {}): PlatformClient {
  return new PlatformClient({
    openUrl: url,
    baseUrl: url,
    tokenProvider: new StaticTokenProvider(TEST_TOKEN),
    timeouts: { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000 },
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    keepAliveTimeoutMs: 200,
    ...overrides,
  });
}

export const ROBOT_ASK = { sysNum: 'sys-1', partnerId: 'partner-1', question: 'How do I reset my password?' };

export const ROBOT_ANSWER_DATA = {
  answer: 'Use the reset link.',
  suggestions: [{ question: 'Where is the link?', answer: 'In settings.', docId: 'doc-2' }],
  question: 'How do I reset my password?',
  docId: 'doc-1',
  uid: 'uid-1',
  cid: 'cid-1',
  msgId: 'msg-1',
  stripe: 'You may also ask:',
  robotFlag: 1,
  answerType: 1,
  sessionNew: true,
};
