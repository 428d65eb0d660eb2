// Slack's side of Socket Mode on loopback. The `ws` package is not installed (socket-mode 3.x uses undici's
// WebSocket client), so this speaks the small part of RFC 6455 that SocketModeClient needs.
import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { listen } from '../../src/util/listen.js';
import { waitFor, withTimeout } from './wait.js';

type DisconnectReason = 'refresh_requested' | 'warning' | 'link_disabled';

export interface SocketModeAck {
  envelope_id: string;
  /** SocketModeClient always sends `payload` (`{}` for a plain ack). */
  payload: unknown;
  connectionId: number;
  at: number;
}

export interface SendEnvelopeOptions {
  /** 0 on first delivery, as Slack sends it. */
  retryAttempt?: number | undefined;
  /** '' on first delivery, e.g. 'timeout' on a redelivery. */
  retryReason?: string | undefined;
  envelopeId?: string | undefined;
  acceptsResponsePayload?: boolean | undefined;
  /** How long to wait for the app's ack before rejecting. */
  timeoutMs?: number | undefined;
}

export interface FakeSocketModeServer {
  /** Pass to `fakeSlackApi.setSocketModeUrl()`; apps.connections.open hands it to the app. */
  readonly url: string;
  /** Connections accepted so far (each one got a `hello`, unless it was withheld). */
  readonly connectionCount: number;
  readonly openConnectionCount: number;
  /** Resolves once `count` connections in total have been accepted and greeted. */
  waitForConnection(count?: number, timeoutMs?: number): Promise<void>;
  /** Resolves once no connection is open (e.g. after app.stop()). */
  waitForNoOpenConnections(timeoutMs?: number): Promise<void>;
  /** Sends an events_api envelope to the newest open connection; resolves with the app's ack. */
  sendEventsApi(eventCallback: unknown, options?: SendEnvelopeOptions): Promise<SocketModeAck>;
  /** Sends an interactive envelope (block_actions, view_submission, ...); resolves with the ack. */
  sendInteractive(payload: unknown, options?: SendEnvelopeOptions): Promise<SocketModeAck>;
  /** Sends a slash_commands envelope; `payload` holds the command's form fields as an object. */
  sendSlashCommand(payload: Record<string, string>, options?: SendEnvelopeOptions): Promise<SocketModeAck>;
  sendEnvelope(type: string, payload: unknown, options?: SendEnvelopeOptions): Promise<SocketModeAck>;
  /** Sends a raw text frame (garbage-input tests). */
  sendRaw(text: string): void;
  /** Sends a WebSocket ping; the app's serverPingTimeout starts counting from the first one. */
  ping(): void;
  /**
   * Sends Slack's `disconnect` message to the newest open connection (and, with `close`, a close frame too);
   * resolves when that connection has closed.
   */
  disconnect(reason?: DisconnectReason, options?: { close?: boolean; timeoutMs?: number }): Promise<void>;
  /** Drops the newest connection without any message, like a network failure. */
  dropConnection(): void;
  /** While on, connections are accepted but never greeted: the app waits for a `hello` that does not come. */
  withholdHello(on: boolean): void;
  acks(): SocketModeAck[];
  /** Every parsed text message the app sent, in order. */
  received(): unknown[];
  close(): Promise<void>;
}

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OP_CONTINUATION = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;
const DEFAULT_ACK_TIMEOUT_MS = 3_000;

export async function startFakeSocketMode(options: { appId?: string } = {}): Promise<FakeSocketModeServer> {
  const appId = options.appId ?? 'A1';
  const connections: WsConnection[] = [];
  const ackLog: SocketModeAck[] = [];
  const receivedLog: unknown[] = [];
  const pendingAcks = new Map<string, (ack: SocketModeAck) => void>();
  const events = new EventEmitter();
  let nextConnectionId = 1;
  let helloWithheld = false;

  const openConnections = (): WsConnection[] => connections.filter((c) => c.isOpen);
  const newestOpen = (): WsConnection | undefined => openConnections().at(-1);

  const onText = (conn: WsConnection, text: string): void => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      receivedLog.push(text);
      return;
    }
    receivedLog.push(message);
    if (isRecord(message) && typeof message.envelope_id === 'string') {
      const ack: SocketModeAck = {
        envelope_id: message.envelope_id,
        payload: message.payload,
        connectionId: conn.id,
        at: Date.now(),
      };
      ackLog.push(ack);
      pendingAcks.get(ack.envelope_id)?.(ack);
      pendingAcks.delete(ack.envelope_id);
    }
  };

  const server: Server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('fake socket mode: WebSocket upgrade required');
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const key = req.headers['sec-websocket-key'];
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (typeof key !== 'string' || !path.startsWith('/link')) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    const accept = createHash('sha1')
      .update(key + WS_GUID)
      .digest('base64');
    // No Sec-WebSocket-Extensions in the answer: permessage-deflate is declined, frames stay uncompressed.
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket.setNoDelay(true);
    const conn = new WsConnection(nextConnectionId++, socket, (c, text) => onText(c, text));
    connections.push(conn);
    conn.on('close', () => events.emit('change'));
    if (head.length > 0) conn.feed(head);
    if (helloWithheld) {
      events.emit('change');
      return;
    }
    conn.sendText(
      JSON.stringify({
        type: 'hello',
        num_connections: openConnections().length,
        debug_info: { host: 'fake', build_number: 1, approximate_connection_time: 3600 },
        connection_info: { app_id: appId },
      }),
    );
    events.emit('change');
  });

  const { port } = await listen(server, 0, '127.0.0.1');
  const url = `ws://127.0.0.1:${port}/link/?ticket=${randomUUID()}&app_id=${appId}`;

  const describe = (): string =>
    `connections: ${connections.length} (open: ${openConnections().length}); acks seen: ${
      ackLog.map((a) => a.envelope_id).join(', ') || 'none'
    }`;

  const sendEnvelope = (
    type: string,
    payload: unknown,
    opts: SendEnvelopeOptions = {},
  ): Promise<SocketModeAck> => {
    const conn = newestOpen();
    if (conn === undefined) {
      return Promise.reject(
        new Error(`fake socket mode: no open connection to send ${type} on; ${describe()}`),
      );
    }
    const envelopeId = opts.envelopeId ?? randomUUID();
    const envelope: Record<string, unknown> = {
      envelope_id: envelopeId,
      payload,
      type,
      accepts_response_payload: opts.acceptsResponsePayload ?? type === 'slash_commands',
    };
    if (type === 'events_api') {
      envelope.retry_attempt = opts.retryAttempt ?? 0;
      envelope.retry_reason = opts.retryReason ?? '';
    }
    const acked = new Promise<SocketModeAck>((resolve) => pendingAcks.set(envelopeId, resolve));
    conn.sendText(JSON.stringify(envelope));
    const timeoutMs = opts.timeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
    return withTimeout(acked, timeoutMs, `fake socket mode: ${type} envelope ${envelopeId} was not acked`)
      .catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}; ${describe()}`);
      })
      .finally(() => pendingAcks.delete(envelopeId));
  };

  return {
    url,
    get connectionCount() {
      return connections.length;
    },
    get openConnectionCount() {
      return openConnections().length;
    },
    async waitForConnection(count = 1, timeoutMs = 5_000) {
      await waitFor(() => connections.length >= count, {
        timeoutMs,
        message: () => `expected ${count} connection(s); ${describe()}`,
      });
    },
    async waitForNoOpenConnections(timeoutMs = 5_000) {
      await waitFor(() => openConnections().length === 0, {
        timeoutMs,
        message: () => `connections still open; ${describe()}`,
      });
    },
    sendEventsApi: (eventCallback, opts) => sendEnvelope('events_api', eventCallback, opts),
    sendInteractive: (payload, opts) => sendEnvelope('interactive', payload, opts),
    sendSlashCommand: (payload, opts) => sendEnvelope('slash_commands', payload, opts),
    sendEnvelope,
    sendRaw(text) {
      const conn = newestOpen();
      if (conn === undefined) throw new Error(`fake socket mode: no open connection; ${describe()}`);
      conn.sendText(text);
    },
    ping() {
      newestOpen()?.sendFrame(OP_PING, Buffer.from(`ping ${Date.now()}`));
    },
    async disconnect(reason = 'refresh_requested', { close = false, timeoutMs = 5_000 } = {}) {
      const conn = newestOpen();
      if (conn === undefined) throw new Error(`fake socket mode: nothing to disconnect; ${describe()}`);
      const closed = new Promise<void>((resolve) => conn.once('close', () => resolve()));
      conn.sendText(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'fake' } }));
      if (close) conn.sendClose(1000, '');
      await withTimeout(
        closed,
        timeoutMs,
        `fake socket mode: connection ${conn.id} did not close after disconnect`,
      );
    },
    dropConnection() {
      newestOpen()?.destroy();
    },
    withholdHello(on) {
      helloWithheld = on;
    },
    acks: () => [...ackLog],
    received: () => [...receivedLog],
    close() {
      for (const conn of connections) conn.destroy();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One server-side WebSocket: unmasked frames out, masked frames in, pings answered, close handshake honoured. */
class WsConnection extends EventEmitter {
  private buffer: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closeSent = false;
  private closed = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly onText: (conn: WsConnection, text: string) => void,
  ) {
    super();
    socket.on('data', (chunk: Buffer) => this.feed(chunk));
    socket.on('close', () => this.markClosed());
    // A reset from the client is a normal way for a test connection to end.
    socket.on('error', () => this.markClosed());
  }

  get isOpen(): boolean {
    return !this.closed && !this.closeSent;
  }

  feed(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const frame = parseFrame(this.buffer);
      if (frame === undefined) return;
      this.buffer = this.buffer.subarray(frame.length);
      this.handleFrame(frame.fin, frame.opcode, frame.payload);
    }
  }

  sendText(text: string): void {
    this.sendFrame(OP_TEXT, Buffer.from(text, 'utf8'));
  }

  sendFrame(opcode: number, payload: Buffer): void {
    if (this.closed || this.socket.destroyed) return;
    this.socket.write(encodeFrame(opcode, payload));
  }

  sendClose(code: number, reason: string): void {
    if (this.closeSent) return;
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    this.sendFrame(OP_CLOSE, payload);
    this.closeSent = true;
    // A peer that never answers the close must not keep the fake (and the test) alive.
    setTimeout(() => this.destroy(), 1_000).unref();
  }

  destroy(): void {
    this.socket.destroy();
    this.markClosed();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }

  private handleFrame(fin: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case OP_PING:
        this.sendFrame(OP_PONG, payload);
        return;
      case OP_PONG:
        return;
      case OP_CLOSE: {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1000;
        // Echo the close (unless we started it), then end the TCP side as the server should.
        if (!this.closeSent) this.sendClose(code === 1005 ? 1000 : code, '');
        this.socket.end();
        this.markClosed();
        return;
      }
      case OP_TEXT:
      case OP_BINARY:
      case OP_CONTINUATION: {
        this.fragments.push(payload);
        if (!fin) return;
        const data = Buffer.concat(this.fragments);
        this.fragments = [];
        this.onText(this, data.toString('utf8'));
        return;
      }
      default:
        this.destroy();
    }
  }
}

interface ParsedFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
  length: number;
}

function parseFrame(buf: Buffer): ParsedFrame | undefined {
  if (buf.length < 2) return undefined;
  const b0 = buf.readUInt8(0);
  const b1 = buf.readUInt8(1);
  let offset = 2;
  let len = b1 & 0x7f;
  if (len === 126) {
    if (buf.length < 4) return undefined;
    len = buf.readUInt16BE(2);
    offset = 4;
  } else if (len === 127) {
    if (buf.length < 10) return undefined;
    len = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const masked = (b1 & 0x80) !== 0;
  const maskOffset = offset;
  if (masked) offset += 4;
  if (buf.length < offset + len) return undefined;
  const payload = Buffer.from(buf.subarray(offset, offset + len));
  if (masked) {
    for (let i = 0; i < payload.length; i++) {
      payload.writeUInt8(payload.readUInt8(i) ^ buf.readUInt8(maskOffset + (i % 4)), i);
    }
  }
  return { fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f, payload, length: offset + len };
}

function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  let header: Buffer;
  if (len < 126) {
    header = Buffer.from([0x80 | opcode, len]);
  } else if (len < 65_536) {
    header = Buffer.alloc(4);
    header.writeUInt8(0x80 | opcode, 0);
    header.writeUInt8(126, 1);
    header.writeUInt16BE(len, 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(0x80 | opcode, 0);
    header.writeUInt8(127, 1);
    header.writeBigUInt64BE(BigInt(len), 2);
  }
  return Buffer.concat([header, payload]);
}
