// An OTLP/HTTP trace receiver on loopback for the tests: takes the JSON encoding (http/json) and keeps
// every span it is sent, with the raw bodies, so a test can look for what must never be exported.
import { createServer } from 'node:http';
import { listen } from '../../src/util/listen.js';

type AttributeValue = string | number | boolean | undefined;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  attributes: Record<string, AttributeValue>;
  /** From the span's resource. */
  serviceName: AttributeValue;
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporter posts to `${url}/v1/traces`. */
  url: string;
  spans(): readonly ReceivedSpan[];
  /** Every request body as received. */
  bodies(): readonly string[];
  /** Forgets what was received, between tests. */
  clear(): void;
  close(): Promise<void>;
}

interface OtlpAttribute {
  key: string;
  value?: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpAttribute[];
      }>;
    }>;
  }>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      bodies.push(body);
      spans.push(...spansOf(JSON.parse(body) as OtlpTraces));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const { port } = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => spans,
    bodies: () => bodies,
    clear: () => {
      spans.length = 0;
      bodies.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function spansOf(traces: OtlpTraces): ReceivedSpan[] {
  return (traces.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = attributesOf(resourceSpans.resource?.attributes)['service.name'];
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: hexOf(span.traceId),
        spanId: hexOf(span.spanId),
        parentSpanId: span.parentSpanId ? hexOf(span.parentSpanId) : '',
        name: span.name,
        attributes: attributesOf(span.attributes),
        serviceName,
      })),
    );
  });
}

function attributesOf(attributes: OtlpAttribute[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries(
    (attributes ?? []).map(({ key, value }) => {
      const found = value?.stringValue ?? value?.boolValue ?? value?.doubleValue;
      return [key, found ?? (value?.intValue === undefined ? undefined : Number(value.intValue))];
    }),
  );
}

/** The JSON encoding writes ids in hex; base64, which some exporters send, is turned into hex. */
function hexOf(id: string): string {
  return /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');
}
