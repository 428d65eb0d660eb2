// The storage the Slack adapter needs; src/stores implements it in memory and in Redis.

/**
 * Claims that make an action happen once across retries and replicas.
 * `claim` returns true for the first caller of a key within its TTL; `release` gives a claim back
 * so that a delivery whose processing failed early can be processed again.
 */
export interface OnceStore {
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** True while a claim on the key holds (e.g. a thread the app is answering). */
  has(key: string): Promise<boolean>;
  release(key: string): Promise<void>;
  /** Holds the key for `ttlSeconds` from now, claimed or not: the work its claim guarded is done. */
  keep(key: string, ttlSeconds: number): Promise<void>;
}

/** Display names by user id, so users.info is not called for every message. */
export interface NameCache {
  get(userId: string): Promise<string | undefined>;
  set(userId: string, name: string, ttlSeconds: number): Promise<void>;
}

/** The members of a Slack user group as last read, shared by every replica. */
export interface UsergroupMembers {
  members: string[];
  fetchedAt: number;
}

/** Operator user groups' members by group id, so usergroups.users.list is not called per click. */
export interface OperatorCache {
  get(usergroupId: string): Promise<UsergroupMembers | undefined>;
  set(usergroupId: string, value: UsergroupMembers, ttlSeconds: number): Promise<void>;
}

/**
 * Scheduled ticks (the digest's), each claimed by one replica of the fleet. Unlike the deliveries, a
 * tick is never decided by one process alone: while the shared store is unreachable, `claim` rejects
 * with StoreUnavailableError, because every replica deciding alone would post the tick once each.
 */
export interface TickClaims {
  /** True for the first replica to claim `key` within `ttlSeconds`. */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
}
