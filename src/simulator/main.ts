// Entry point of `npm run simulator`: the platform simulator on 127.0.0.1, configured from the environment.
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  DEFAULT_SIMULATOR_PORT,
  DEFAULT_SIMULATOR_TOKEN,
  startSimulator,
} from './index.js';

function portFrom(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_SIMULATOR_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`SIMULATOR_PORT must be a port number, got ${JSON.stringify(text)}`);
  }
  return port;
}

const nonEmpty = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : text);

async function main(): Promise<void> {
  const accessToken = nonEmpty(process.env.CS_ACCESS_TOKEN) ?? DEFAULT_SIMULATOR_TOKEN;
  if (accessToken.length > 40) throw new Error('CS_ACCESS_TOKEN must be at most 40 characters');
  const appId = nonEmpty(process.env.CS_APP_ID) ?? DEFAULT_SIMULATOR_APP_ID;
  const appKey = nonEmpty(process.env.CS_APP_KEY) ?? DEFAULT_SIMULATOR_APP_KEY;
  const simulator = await startSimulator({
    port: portFrom(process.env.SIMULATOR_PORT),
    host: '127.0.0.1',
    accessToken,
    appId,
    appKey,
    logger: { info: (obj, msg) => console.error(JSON.stringify({ msg, ...obj })) },
  });
  console.log(`platform simulator listening on ${simulator.url}`);
  console.log(`  CS_OPEN_URL=${simulator.url}`);
  console.log(`  CS_BASE_URL=${simulator.url}`);
  console.log(`  CS_ACCESS_TOKEN=${accessToken}`);
  console.log(`  CS_APP_ID=${appId}`);
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
