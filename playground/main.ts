// Entry point of `npm run demo`: the playground on 127.0.0.1 with no accounts and no configuration.
// PLAYGROUND_PORT picks the page's port (default 3300, 0 for any free one); LOG_LEVEL the gateway's log;
// `--workspaces` (npm run demo -- --workspaces) installs through OAuth in two workspaces, Acme and Globex.
import { z } from 'zod';
import { createLogger } from '../src/logging/logger.js';
import { startPlayground } from './playground.js';

/** A blank variable, as a .env copied from .env.example leaves it, counts as unset. */
const unsetIfBlank = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const demoEnvSchema = z.object({
  PLAYGROUND_PORT: z.preprocess(
    unsetIfBlank,
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number from 0 to 65535')
      .transform(Number)
      .refine((port) => port <= 65_535, 'must be a port number from 0 to 65535')
      .default(3300),
  ),
  LOG_LEVEL: z.preprocess(
    unsetIfBlank,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  ),
});

const parsed = demoEnvSchema.safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues)
    process.stderr.write(`${issue.path.join('.')}: ${issue.message}\n`);
  process.exit(1);
}
const env = parsed.data;
const logger = createLogger({ level: env.LOG_LEVEL, pretty: process.stdout.isTTY === true });

try {
  const playground = await startPlayground({
    port: env.PLAYGROUND_PORT,
    logger,
    workspaces: process.argv.slice(2).includes('--workspaces'),
  });
  let stopping = false;
  // SIGHUP too: a closed terminal would otherwise end the demo without removing its state folder.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      playground.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  // After the handlers: stdout to a pipe is written at once, and whoever reads it may signal at once.
  process.stdout.write(`Playground ready: open ${playground.url}\n`);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const inUse = message.includes('EADDRINUSE');
  process.stderr.write(
    inUse
      ? `Port ${env.PLAYGROUND_PORT} is taken: run with PLAYGROUND_PORT=0 (any free port) or another port.\n`
      : `The playground did not start: ${message}\n`,
  );
  process.exit(1);
}
