// Whether traces are wanted, read from the standard OpenTelemetry variables without loading OpenTelemetry.
import { isHttpUrl } from '../util/http-url.js';

type Variables = Readonly<Record<string, string | undefined>>;

export type TracingChoice = { on: false } | { on: true } | { on: 'invalid'; problems: readonly string[] };

const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'];
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];
const ENDPOINTS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] as const;
const PROTOCOL_VARIABLES = ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] as const;

function given(variables: Variables, name: string): string | undefined {
  const value = variables[name]?.trim();
  return value === '' ? undefined : value;
}

/** On with an OTLP endpoint, unless OTEL_SDK_DISABLED says otherwise; a malformed value stops start-up. */
export function tracingChoice(variables: Variables): TracingChoice {
  const endpoints = ENDPOINTS.filter((name) => given(variables, name) !== undefined);
  if (endpoints.length === 0 || given(variables, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') {
    return { on: false };
  }
  const problems: string[] = [];
  for (const name of endpoints) {
    if (!isHttpUrl(given(variables, name) ?? ''))
      problems.push(`${name}: must be an http:// or https:// URL`);
  }
  for (const name of PROTOCOL_VARIABLES) {
    const protocol = given(variables, name);
    if (protocol !== undefined && !PROTOCOLS.includes(protocol)) {
      problems.push(`${name}: must be one of ${PROTOCOLS.join(', ')}`);
    }
  }
  const sampler = given(variables, 'OTEL_TRACES_SAMPLER');
  if (sampler !== undefined && !SAMPLERS.includes(sampler)) {
    problems.push(`OTEL_TRACES_SAMPLER: must be one of ${SAMPLERS.join(', ')}`);
  }
  const ratio = given(variables, 'OTEL_TRACES_SAMPLER_ARG');
  if (sampler?.endsWith('traceidratio') && ratio !== undefined && !isRatio(ratio)) {
    problems.push('OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1');
  }
  return problems.length > 0 ? { on: 'invalid', problems } : { on: true };
}

function isRatio(text: string): boolean {
  const ratio = Number(text);
  return Number.isFinite(ratio) && ratio >= 0 && ratio <= 1;
}
