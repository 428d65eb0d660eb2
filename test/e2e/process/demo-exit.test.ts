// `npm run demo` as a person runs it, in a process of its own: its state lives in a temporary folder
// that is gone once the demo ends (Ctrl-C, SIGTERM, a closed terminal), and a folder left by a demo
// that was killed outright is removed when the next one starts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEntry, runEntry } from '../../support/child-process.js';
import { waitFor } from '../../support/wait.js';

const running: RunningEntry[] = [];
const folders: string[] = [];

afterEach(() => {
  for (const { child } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The id of a process that has ended. */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  if (child.pid === undefined) throw new Error('no process was started');
  return child.pid;
}

function stateFolders(tmp: string): string[] {
  return readdirSync(tmp)
    .filter((name) => name.startsWith('playground-state-'))
    .sort();
}

describe('the demo’s temporary folder', () => {
  it('is removed when the terminal closes (SIGHUP), and a killed demo’s is removed at the next start', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'demo-exit-'));
    folders.push(tmp);
    const killed = `playground-state-${await endedPid()}-abc123`;
    // A demo still running (this test's process stands for it) keeps its folder.
    const alive = `playground-state-${process.pid}-def456`;
    for (const name of [killed, alive]) mkdirSync(join(tmp, name));

    const demo = runEntry('playground/main.ts', { PLAYGROUND_PORT: '0', TMPDIR: tmp, LOG_LEVEL: 'silent' });
    running.push(demo);
    await waitFor(() => demo.stdout.some((line) => line.startsWith('Playground ready')), {
      timeoutMs: 40_000,
      intervalMs: 100,
      message: () => demo.stderr.join('\n'),
    });
    const own = stateFolders(tmp).filter((name) => name !== alive);
    expect(own).toEqual([expect.stringMatching(new RegExp(`^playground-state-${demo.child.pid}-`))]);

    demo.child.kill('SIGHUP');
    expect(await demo.exited).toBe(0);
    expect(stateFolders(tmp)).toEqual([alive]);
  }, 60_000);
});
