// `npm run simulator` as a developer runs it: its own Node process, configured from the environment.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_TOKEN } from '../../../src/simulator/index.js';
import { type RunningEntry, runEntry } from '../../support/child-process.js';

const running: RunningEntry[] = [];

afterEach(async () => {
  for (const { child, exited } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
});

/** Runs src/simulator/main.ts with only the environment given (plus PATH). */
function runSimulator(env: Record<string, string>): RunningEntry {
  const handle = runEntry('src/simulator/main.ts', env);
  running.push(handle);
  return handle;
}

/** The URL the simulator printed, once it is listening and has printed its whole banner. */
async function urlOf(simulator: RunningEntry): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    // The banner ends with CS_APP_ID; its lines can arrive in separate chunks.
    const bannerDone = simulator.stdout.some((line) => line.startsWith('  CS_APP_ID='));
    for (const line of bannerDone ? simulator.stdout : []) {
      const match = /^platform simulator listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (match?.[1]) return match[1];
    }
    if (simulator.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`simulator did not start:\n${[...simulator.stdout, ...simulator.stderr].join('\n')}`);
}

async function ask(url: string, token: string): Promise<{ code: string; data?: { answer?: string } }> {
  const response = await fetch(`${url}/open/platform/api.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'chat_user_robot_ask',
      access_token: token,
      data: { sysNum: 'sys', partnerId: 'dev', question: 'How do I reset my password?' },
    }),
  });
  return (await response.json()) as { code: string; data?: { answer?: string } };
}

describe('npm run simulator', () => {
  it('listens on SIMULATOR_PORT (0: any free port), prints the built-in token and answers a robot ask', async () => {
    const simulator = runSimulator({ SIMULATOR_PORT: '0' });
    const url = await urlOf(simulator);
    expect(url).not.toMatch(/:0$/);
    expect(simulator.stdout).toContain(`  CS_ACCESS_TOKEN=${DEFAULT_SIMULATOR_TOKEN}`);
    const answer = await ask(url, DEFAULT_SIMULATOR_TOKEN);
    expect(answer.code).toBe('1000');
    expect(answer.data?.answer).toBeTruthy();
    simulator.child.kill('SIGTERM');
    expect(await simulator.exited).toBe(0);
  });

  it('uses CS_ACCESS_TOKEN without printing it', async () => {
    const token = 'operator-token-0123456789';
    const simulator = runSimulator({ SIMULATOR_PORT: '0', CS_ACCESS_TOKEN: token });
    const url = await urlOf(simulator);
    expect(simulator.stdout).toContain('  access token: the one in CS_ACCESS_TOKEN');
    expect((await ask(url, token)).code).toBe('1000');
    expect((await ask(url, DEFAULT_SIMULATOR_TOKEN)).code).toBe('1002');
    expect([...simulator.stdout, ...simulator.stderr].join('\n')).not.toContain(token);
  });

  it('exits 1 with one line per problem in its environment', async () => {
    const simulator = runSimulator({ SIMULATOR_PORT: 'http', CS_ACCESS_TOKEN: 'x'.repeat(41) });
    expect(await simulator.exited).toBe(1);
    expect(simulator.stderr).toEqual([
      'SIMULATOR_PORT: must be a port number from 0 to 65535',
      'CS_ACCESS_TOKEN: must be at most 40 characters',
    ]);
    expect(simulator.stdout).toEqual([]);
  });
});
