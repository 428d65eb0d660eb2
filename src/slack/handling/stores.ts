// The storage the Slack adapter needs; src/stores implements it.
/** `release` gives a claim back so a delivery whose processing failed early can be processed again. */
export interface OnceStore {
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** E.g. a thread the app is answering. */
  has(key: string): Promise<boolean>;
  release(key: string): Promise<void>;
  /** Claimed or not: the work its claim guarded is done. */
  keep(key: string, ttlSeconds: number): Promise<void>;
}

/** So users.info is not called for every message. */
export interface NameCache {
  get(userId: string): Promise<string | undefined>;
  set(userId: string, name: string, ttlSeconds: number): Promise<void>;
}

export interface UsergroupMembers {
  members: string[];
  fetchedAt: number;
}

/** So usergroups.users.list is not called per click. */
export interface OperatorCache {
  get(usergroupId: string): Promise<UsergroupMembers | undefined>;
  set(usergroupId: string, value: UsergroupMembers, ttlSeconds: number): Promise<void>;
}

/** Unlike deliveries, never decided by one process alone: every replica would post the tick once each. */
export interface TickClaims {
  claim(key: string, ttlSeconds: number): Promise<boolean>;
}
