// Makes a file read-only for this process, root included: the permission bits for anyone else,
// the immutable attribute for root (which permission bits do not stop). Returns the undo.
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';

export function makeReadOnly(path: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', path]);
    return () => execFileSync('chattr', ['-i', path]);
  }
  chmodSync(path, 0o444);
  return () => chmodSync(path, 0o644);
}
