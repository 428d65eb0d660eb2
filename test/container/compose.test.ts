// compose.yaml, checked without Docker: the gateway beside a Redis that keeps its writes on a volume,
// and an OpenTelemetry collector only for those who ask for the tracing profile.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { finalStage, readDockerfile, runtimeImage } from '../support/dockerfile-image.js';

const service = z.looseObject({
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  env_file: z.unknown().optional(),
  volumes: z.array(z.string()).optional(),
  profiles: z.array(z.string()).optional(),
  healthcheck: z.looseObject({ test: z.array(z.string()) }).optional(),
  depends_on: z.record(z.string(), z.looseObject({ condition: z.string() })).optional(),
  stop_grace_period: z.string().optional(),
});
const composeFile = z.looseObject({
  services: z.record(z.string(), service),
  volumes: z.record(z.string(), z.null().or(z.looseObject({}))).optional(),
});

const compose = composeFile.parse(parse(readFileSync('compose.yaml', 'utf8')));
const { gateway, redis, 'otel-collector': collector } = compose.services;
const namedVolumes = Object.keys(compose.volumes ?? {});
const image = runtimeImage(finalStage(readDockerfile()));

/** The named volume mounted at `target`, or undefined for none (a bind mount counts as none). */
const namedVolumeAt = (mounts: string[] | undefined, target: string) =>
  mounts
    ?.map((mount) => mount.split(':'))
    .find(([source = '', mountTarget]) => mountTarget === target && namedVolumes.includes(source))?.[0];

describe('compose.yaml', () => {
  it('builds the gateway from this Dockerfile, with .env and the Redis beside it', () => {
    expect(gateway?.build).toBe('.');
    expect(gateway?.env_file).toEqual([{ path: '.env', required: true }]);
    const redisUrl = new URL(gateway?.environment?.REDIS_URL ?? '');
    expect(redisUrl.protocol).toBe('redis:');
    expect(Object.keys(compose.services)).toContain(redisUrl.hostname);
    expect(gateway?.depends_on?.[redisUrl.hostname]).toEqual({ condition: 'service_healthy' });
    // Pinned over .env: a HOST or PORT meant for a laptop would leave the published port unanswered.
    expect(gateway?.environment?.HOST).toBe('0.0.0.0');
    expect(gateway?.environment?.PORT).toBe(image.env.PORT);
  });

  it("mounts a named volume on the image's state volume", () => {
    expect(namedVolumeAt(gateway?.volumes, '/data')).toBeDefined();
  });

  it('gives the gateway longer to stop than its default drain', () => {
    const stopSeconds = Number(/^(\d+)s$/.exec(gateway?.stop_grace_period ?? '')?.[1]);
    // SHUTDOWN_GRACE_SECONDS' default in src/config/env.ts.
    expect(stopSeconds).toBeGreaterThan(25);
  });

  it('runs Redis with an append-only file on a named volume, and checks its health', () => {
    expect(redis?.command).toEqual(expect.arrayContaining(['redis-server', '--appendonly', 'yes']));
    const appendonly = redis?.command?.indexOf('--appendonly') ?? -1;
    expect(redis?.command?.[appendonly + 1]).toBe('yes');
    expect(namedVolumeAt(redis?.volumes, '/data')).toBeDefined();
    expect(redis?.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('starts the OpenTelemetry collector only with the tracing profile, on the config in deploy/', () => {
    expect(collector?.image).toMatch(/^otel\/opentelemetry-collector-contrib:\d+\.\d+\.\d+$/);
    expect(collector?.profiles).toEqual(['tracing']);
    for (const always of [gateway, redis]) expect(always?.profiles).toBeUndefined();
    const config = collector?.volumes?.find((mount) => mount.startsWith('./deploy/'))?.split(':') ?? [];
    expect(config[1]).toBe('/etc/otelcol-contrib/config.yaml');
    expect(existsSync(config[0] ?? '')).toBe(true);
  });
});

describe('deploy/otel-collector.yaml', () => {
  const pipeline = z.object({
    receivers: z.array(z.string()),
    processors: z.array(z.string()).optional(),
    exporters: z.array(z.string()),
  });
  const config = z
    .looseObject({
      receivers: z.record(z.string(), z.unknown()),
      processors: z.record(z.string(), z.unknown()).optional(),
      exporters: z.record(z.string(), z.unknown()),
      service: z.object({ pipelines: z.record(z.string(), pipeline) }),
    })
    .parse(parse(readFileSync('deploy/otel-collector.yaml', 'utf8')));

  it('takes OTLP over HTTP and prints the traces, with every component it names declared', () => {
    const traces = config.service.pipelines.traces;
    expect(traces?.receivers).toEqual(['otlp']);
    expect(JSON.stringify(config.receivers.otlp)).toContain('0.0.0.0:4318');
    expect(traces?.exporters).toEqual(['debug']);
    for (const [name, components] of [
      ['receivers', config.receivers],
      ['processors', config.processors ?? {}],
      ['exporters', config.exporters],
    ] as const) {
      for (const component of traces?.[name] ?? []) expect(Object.keys(components)).toContain(component);
    }
  });
});
