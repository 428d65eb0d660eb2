import { describe, expect, it } from 'vitest';
import { tracingChoice } from '../../../src/observability/tracing-switch.js';

describe('tracingChoice', () => {
  it('is off without an OTLP endpoint, whatever else is set', () => {
    expect(tracingChoice({ OTEL_SERVICE_NAME: 'gateway', OTEL_EXPORTER_OTLP_PROTOCOL: 'nonsense' })).toEqual({
      on: false,
    });
    expect(tracingChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toEqual({ on: false });
  });

  it('is on with either endpoint variable', () => {
    expect(tracingChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ on: true });
    expect(tracingChoice({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/v1/traces' })).toEqual({
      on: true,
    });
  });

  it('stays off when OTEL_SDK_DISABLED says so', () => {
    expect(
      tracingChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' }),
    ).toEqual({ on: false });
  });

  it('names every malformed variable, one problem each', () => {
    expect(
      tracingChoice({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/xml',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '1.5',
      }),
    ).toEqual({
      on: 'invalid',
      problems: [
        'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL',
        'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: must be one of http/protobuf, http/json, grpc',
        'OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1',
      ],
    });
    expect(
      tracingChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER: 'sometimes' }),
    ).toEqual({
      on: 'invalid',
      problems: [expect.stringMatching(/^OTEL_TRACES_SAMPLER: must be one of always_on, /)],
    });
  });
});
