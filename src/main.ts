// The only place that reads process.env. Run by plain node: npm exits at once on SIGTERM, cutting the drain.
import type { Gateway } from './app.js';
import { parseEnv } from './config/env.js';
import { errorFields } from './logging/error-fields.js';
import { createLogger } from './logging/logger.js';
import { tracingChoice } from './observability/tracing-switch.js';
import { GatewayConfigurationError } from './slack/handling/configuration-error.js';
import { SqliteStateError } from './stores/sqlite-database.js';

/** Values never echoed. */
function exitOnInvalidConfiguration(problems: readonly string[]): never {
  process.stderr.write(
    `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n`,
  );
  for (const problem of problems) process.stderr.write(`  ${problem}\n`);
  process.stderr.write('See .env.example and the README for every variable.\n');
  process.exit(1);
}

const STORE_NAMES = { memory: 'memory', sqlite: 'SQLite', redis: 'Redis' } as const;

const parsed = parseEnv(process.env);
const tracingWanted = tracingChoice(process.env);
const problems = [
  ...(parsed.ok ? [] : parsed.problems),
  ...(tracingWanted.on === 'invalid' ? tracingWanted.problems : []),
];
if (!parsed.ok || problems.length > 0) exitOnInvalidConfiguration(problems);
const env = parsed.env;
// Before the app's modules load, so the instrumentations patch them; off, OpenTelemetry is never imported.
const tracing =
  tracingWanted.on === true
    ? (await import('./observability/tracing.js')).startTracing(process.env)
    : undefined;
const logger = createLogger({
  level: env.LOG_LEVEL,
  pretty: process.stdout.isTTY === true,
  ...(tracing ? { traceFields: tracing.logFields } : {}),
});
const { createGateway } = await import('./app.js');

process.on('unhandledRejection', (reason) => {
  // Logged, not fatal: one failed promise must not take every conversation down with it.
  logger.error(errorFields(reason), 'unhandled promise rejection');
});

try {
  const gateway = await createGateway(env, logger);
  const { port } = await gateway.start();
  // Before the line that says it is up: whoever reads it may signal at once.
  stopOnSignals(gateway);
  const { store } = gateway;
  logger.info(
    { mode: gateway.mode, port, platformUrl: gateway.platformUrl, demo: gateway.demo, store },
    (gateway.mode === 'http'
      ? `gateway listening on port ${port}: Slack requests at POST /slack/events, health at GET /healthz`
      : `gateway connected in Socket Mode; health at GET /healthz on port ${port}`) +
      `; state in ${STORE_NAMES[store.kind]} at ${store.location}`,
  );
} catch (error) {
  if (error instanceof GatewayConfigurationError) exitOnInvalidConfiguration([error.problem]);
  if (error instanceof SqliteStateError) {
    // The one line an operator needs: the file, what is wrong, what to do.
    process.stderr.write(`Cannot start: ${error.message}\n`);
    process.exit(1);
  }
  logger.fatal(errorFields(error), 'gateway failed to start');
  process.exit(1);
}

function stopOnSignals(gateway: Gateway): void {
  let signalled = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      logger.info(
        { signal, graceSeconds: env.SHUTDOWN_GRACE_SECONDS },
        'stopping: finishing questions in flight',
      );
      gateway.stop().then(
        async () => {
          await tracing?.shutdown();
          logger.info({ signal }, 'stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error(errorFields(error), 'stop failed');
          process.exit(1);
        },
      );
    });
  }
}
