// The token a lock is taken with and released by only its taker: random, so no other replica, and no
// later run of this one, holds the same. randomUUID draws from a pool Node refills in bulk, where
// randomBytes ran a job of its own per token, on the answer path (each unanswered question changes its
// review card under a lock: 0.5% of the SQLite gateway's busy time at saturation).
import { randomUUID } from 'node:crypto';

export function lockOwner(): string {
  return randomUUID();
}
