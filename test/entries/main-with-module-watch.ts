// The gateway's entry point, watched: on exit it prints every OpenTelemetry module the process loaded,
// so a test can tell that with tracing off none was.
import { registerHooks } from 'node:module';

const OPENTELEMETRY = '/node_modules/@opentelemetry/';
const loaded = new Set<string>();

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (resolved.url.includes(OPENTELEMETRY)) loaded.add(resolved.url);
    return resolved;
  },
});
process.on('exit', () => {
  process.stderr.write(`${JSON.stringify({ opentelemetryModules: [...loaded] })}\n`);
});

await import('../../src/main.js');
