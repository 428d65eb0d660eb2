// OpenTelemetry traces, loaded by main.ts only when an OTLP endpoint is set: nothing of it otherwise.
import { createRequire } from 'node:module';
import {
  type Attributes,
  context,
  createContextKey,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { isRecord } from '../util/json.js';
import { installTraceHooks, type TraceHooks } from './tracing-hooks.js';

const DEFAULT_SERVICE_NAME = 'cs-gateway';
/** The one path whose requests start a trace; health probes, metrics scrapes and install pages do not. */
const SLACK_EVENTS_PATH = '/slack/events';
/** Slack's response URLs carry their secret in the path. */
const SLACK_HOOKS_HOST = 'hooks.slack.com';
/** The stop waits this long at most for the last spans to reach the collector. */
const FLUSH_LIMIT_MS = 5_000;

export interface Tracing {
  /** trace_id and span_id of the span in effect, for each log line. */
  logFields(): object;
  /** Sends what is still buffered; bounded, so a dead collector cannot hold the stop. */
  shutdown(): Promise<void>;
}

type Variables = Readonly<Record<string, string | undefined>>;

/** Starts the SDK (OTEL_* variables read by it) and the instrumentations, before the app is imported. */
export function startTracing(variables: Variables): Tracing {
  const sdk = new NodeSDK({
    ...(namesService(variables) ? {} : { serviceName: DEFAULT_SERVICE_NAME }),
    instrumentations: [
      new HttpInstrumentation({
        // Every outgoing call goes through undici; the http module's are the Socket Mode handshake.
        disableOutgoingRequestInstrumentation: true,
        ignoreIncomingRequestHook: (request) =>
          request.method !== 'POST' || (request.url ?? '').split('?')[0] !== SLACK_EVENTS_PATH,
      }),
      new UndiciInstrumentation({
        startSpanHook: (request) => safeUrlAttributes(request.origin, request.path),
      }),
      // The command name alone: its arguments are keys and values, a question among them.
      new RedisInstrumentation({ dbStatementSerializer: (command) => command }),
    ],
    // Traces only: metrics stay on /metrics (prom-client), logs on stdout.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  // `node:http` is patched on its first CommonJS require: done here, not left to whichever dependency.
  createRequire(import.meta.url)('node:http');

  const tracer = trace.getTracer('cs-gateway');
  installTraceHooks(traceHooksOn(tracer));
  return {
    logFields,
    shutdown: () =>
      Promise.race([
        sdk.shutdown(),
        new Promise<void>((resolve) => setTimeout(resolve, FLUSH_LIMIT_MS).unref()),
      ]),
  };
}

function namesService(variables: Variables): boolean {
  if (variables.OTEL_SERVICE_NAME?.trim()) return true;
  return (variables.OTEL_RESOURCE_ATTRIBUTES ?? '')
    .split(',')
    .some((pair) => pair.trim().startsWith('service.name='));
}

function logFields(): object {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Origin and path, no query; a response URL's path is its secret, so only its first segment stays. */
function safeUrlAttributes(origin: string, path: string): Attributes {
  const host = URL.parse(origin)?.hostname ?? '';
  const bare = path.split('?')[0] ?? '';
  const shown = host === SLACK_HOOKS_HOST ? `/${bare.split('/')[1] ?? ''}/[redacted]` : bare;
  return { 'url.full': `${origin}${shown}`, 'url.path': shown, 'url.query': '' };
}

type Tracer = ReturnType<typeof trace.getTracer>;

function traceHooksOn(tracer: Tracer): TraceHooks {
  // The delivery span of the work in progress: a room or an outcome deep inside finds it here.
  const deliveryKey = createContextKey('cs-gateway delivery span');
  const deliverySpan = (): Span | undefined => context.active().getValue(deliveryKey) as Span | undefined;
  return {
    delivery(body, run) {
      const { kind, workspace } = deliveryOf(body);
      return tracer.startActiveSpan(
        `slack ${kind}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: { 'cs.delivery': kind, ...(workspace ? { 'cs.workspace': workspace } : {}) },
        },
        (span) => context.with(context.active().setValue(deliveryKey, span), () => endSpan(span, run)),
      );
    },
    surface(name) {
      deliverySpan()?.setAttribute('cs.surface', name);
    },
    outcome(kind, outcome) {
      deliverySpan()?.setAttributes({ 'cs.event': kind, 'cs.outcome': outcome });
    },
    storeCall(store, operation, call) {
      return tracer.startActiveSpan(
        `store ${store}.${operation}`,
        { kind: SpanKind.INTERNAL, attributes: { 'cs.store': store, 'cs.store.operation': operation } },
        (span) => endSpan(span, call),
      );
    },
  };
}

/** Runs `run` in the span, marks the span failed if it throws, and ends it either way. */
async function endSpan<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorCode(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** An error's code or class name: its message may quote what a person wrote. */
function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code: unknown = Reflect.get(error, 'code');
    if (typeof code === 'string') return code;
    return error.constructor.name;
  }
  return 'error';
}

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** What kind of delivery it is and the workspace it came from: ids only, read without trusting the shape. */
function deliveryOf(body: unknown): { kind: string; workspace: string | undefined } {
  const envelope = record(body);
  const event = record(envelope.event);
  const kind =
    envelope.type === 'event_callback'
      ? (text(event.type) ?? 'event')
      : (text(envelope.type) ?? (text(envelope.command) ? 'slash_command' : 'unknown'));
  const authorization = record(
    Array.isArray(envelope.authorizations) ? envelope.authorizations[0] : undefined,
  );
  const workspace =
    text(envelope.team_id) ??
    text(record(envelope.team).id) ??
    text(authorization.team_id) ??
    text(record(envelope.user).team_id);
  return { kind, workspace };
}
