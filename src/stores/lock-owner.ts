// Random, so no other replica, and no later run of this one, holds the same lock token.
import { randomUUID } from 'node:crypto';

export function lockOwner(): string {
  return randomUUID();
}
