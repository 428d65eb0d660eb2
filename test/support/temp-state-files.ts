// SQLite state files for the store tests, each in a folder of its own that is removed after its test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Call at a test file's top level: returns a maker of fresh state file paths, removed after each test. */
export function tempStateFiles(prefix: string): () => string {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    const folder = mkdtempSync(join(tmpdir(), prefix));
    folders.push(folder);
    return join(folder, 'state.sqlite');
  };
}
