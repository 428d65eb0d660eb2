import { readSimulatorEnv } from './env.js';
import { startSimulator } from './index.js';

async function main(): Promise<void> {
  const result = readSimulatorEnv(process.env);
  if (!result.ok) {
    for (const problem of result.problems) console.error(problem);
    process.exit(1);
  }
  const { env } = result;
  const simulator = await startSimulator({
    port: env.port,
    host: '127.0.0.1',
    accessToken: env.accessToken,
    appId: env.appId,
    appKey: env.appKey,
    logger: { info: (obj, msg) => console.error(JSON.stringify({ msg, ...obj })) },
  });
  console.log(`platform simulator listening on ${simulator.url}`);
  console.log(`  CS_OPEN_URL=${simulator.url}`);
  console.log(`  CS_BASE_URL=${simulator.url}`);
  // The built-in token is in the source and not a secret; one given by the operator is never printed.
  if (env.accessTokenIsDefault) console.log(`  CS_ACCESS_TOKEN=${env.accessToken}`);
  else console.log('  access token: the one in CS_ACCESS_TOKEN');
  console.log(`  CS_APP_ID=${env.appId}`);
  const stop = (signal: string) => {
    console.log(`${signal} received, stopping the simulator`);
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
