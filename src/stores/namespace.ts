// One store contract for every engine: a named namespace of values with a TTL, checked with zod when
// read back, and claims (docs/decisions/020). An engine only keeps strings (`KeptStrings`).
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { parseJsonWith } from '../util/json.js';
import { lruClock } from '../util/lru-clock.js';
import { positive, positiveInteger } from '../util/positive.js';

export interface Namespace<T> {
  /** Undefined when absent, expired, only claimed, or not a value of the schema (an older shape). */
  get(key: string): Promise<T | undefined>;
  /** Replaces whatever is there, a claim too; the declared TTL unless given. */
  set(key: string, value: T, ttlSeconds?: number): Promise<void>;
  /** Set-if-absent: true for the one caller, on any replica, who found the key free; rejects when the engine cannot say. */
  claim(key: string, ttlSeconds?: number): Promise<boolean>;
  /** Gives a claim back, so the next claimer wins; a value set since stays. */
  release(key: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every key starting with `prefix` (a workspace's own, `T1:`), a bounded step at a time; how many went. */
  deleteStartingWith(prefix: string): Promise<number>;
}

/** What an uninstall removes of a workspace, by the prefix of its keys. */
export type Forgettable = Pick<Namespace<never>, 'deleteStartingWith'>;

export interface NamespaceOptions<T> {
  /** What a value must be to be read back. */
  schema: z.ZodType<T>;
  /** Each key's lifetime, unless a write gives its own. */
  ttlSeconds: number;
}

/** How a layer declares its storage in one line: `stores.namespace('escalation', { schema, ttlSeconds })`. */
export type Namespaces = <T>(name: string, options: NamespaceOptions<T>) => Namespace<T>;

/** What an engine keeps for one namespace: strings, each with its expiry. */
export interface KeptStrings {
  raw(key: string): string | undefined | Promise<string | undefined>;
  /** With `onlyIfAbsent`, false when a live string was there and nothing was written. */
  setRaw(
    key: string,
    raw: string,
    ttlSeconds: number,
    options?: { onlyIfAbsent?: boolean },
  ): boolean | Promise<boolean>;
  delete(key: string): void | Promise<void>;
  /** In one step. */
  deleteIfEquals(key: string, raw: string): boolean | Promise<boolean>;
  /** Every key starting with `prefix`; how many went. */
  deleteStartingWith(prefix: string): number | Promise<number>;
}

/** Not JSON, so never read as a value, and a release never removes one. */
const CLAIMED = 'claimed';
/** A namespace is a SQLite `ns` and a Redis key segment: no separator of either. */
const NAME = /^[a-z][a-z0-9-]*$/;
/** Printable ASCII: a range of ids in SQLite, a pattern in Redis, the same keys on every engine. */
const PREFIX = /^[!-~]+$/;

/** The schema of a namespace that holds claims only. */
export const claimsOnly = z.never();

/** A namespace over what an engine keeps: the same values, claims and checks on every engine. */
export class KeptNamespace<T> implements Namespace<T> {
  readonly #strings: KeptStrings;
  readonly #schema: z.ZodType<T>;
  readonly #ttlSeconds: number;

  constructor(strings: KeptStrings, name: string, options: NamespaceOptions<T>) {
    if (!NAME.test(name))
      throw new RangeError(`namespace name must match ${NAME}, got ${JSON.stringify(name)}`);
    this.#strings = strings;
    this.#schema = options.schema;
    this.#ttlSeconds = positive('ttlSeconds', options.ttlSeconds);
  }

  async get(key: string): Promise<T | undefined> {
    const raw = await this.#strings.raw(key);
    // Unreadable reads as absent, as every store's values do (metered stores count it a miss).
    return raw === undefined || raw === CLAIMED ? undefined : parseJsonWith(raw, this.#schema);
  }

  async set(key: string, value: T, ttlSeconds = this.#ttlSeconds): Promise<void> {
    await this.#strings.setRaw(key, JSON.stringify(value), ttlSeconds);
  }

  async claim(key: string, ttlSeconds = this.#ttlSeconds): Promise<boolean> {
    return this.#strings.setRaw(key, CLAIMED, ttlSeconds, { onlyIfAbsent: true });
  }

  async release(key: string): Promise<void> {
    await this.#strings.deleteIfEquals(key, CLAIMED);
  }

  async delete(key: string): Promise<void> {
    await this.#strings.delete(key);
  }

  async deleteStartingWith(prefix: string): Promise<number> {
    // An empty prefix would empty the namespace.
    if (!PREFIX.test(prefix))
      throw new RangeError(`prefix must be printable ASCII, not empty, got ${JSON.stringify(prefix)}`);
    return this.#strings.deleteStartingWith(prefix);
  }
}

export type Clock = () => number;

/** Milliseconds a TTL in seconds lasts; refuses what Redis refuses. */
export function ttlMs(ttlSeconds: number): number {
  return positive('ttlSeconds', ttlSeconds) * 1000;
}

export interface MemoryBounds {
  maxEntries: number;
  /** Tests inject one to pass TTLs without sleeping. */
  now?: Clock;
}

/** The memory engine: one bounded LRU of strings per name, so two declarations of a name share it. */
export function memoryNamespaces(
  bounds: MemoryBounds,
): Namespaces & { strings(name: string): KeptStrings; clear(): void } {
  const byName = new Map<string, KeptStrings & { clear(): void }>();
  const strings = (name: string) => {
    let kept = byName.get(name);
    if (!kept) {
      kept = memoryStrings(bounds);
      byName.set(name, kept);
    }
    return kept;
  };
  const namespaces = <T>(name: string, declared: NamespaceOptions<T>) =>
    new KeptNamespace(strings(name), name, declared);
  return Object.assign(namespaces, {
    strings,
    clear: () => {
      for (const kept of byName.values()) kept.clear();
    },
  });
}

export function memoryStrings(bounds: MemoryBounds): KeptStrings & { clear(): void } {
  const strings = new LRUCache<string, string>({
    // `maxSize`, not `max`: with `max` lru-cache allocates every slot up front.
    maxSize: positiveInteger('maxEntries', bounds.maxEntries),
    sizeCalculation: () => 1,
    ...lruClock(bounds.now),
  });
  return {
    raw: (key) => strings.get(key),
    setRaw(key, raw, ttlSeconds, setOptions) {
      // No await between look and write: within one process the claim is atomic.
      if (setOptions?.onlyIfAbsent && strings.has(key)) return false;
      strings.set(key, raw, { ttl: ttlMs(ttlSeconds) });
      return true;
    },
    delete: (key) => void strings.delete(key),
    deleteIfEquals(key, raw) {
      if (strings.get(key) !== raw) return false;
      return strings.delete(key);
    },
    deleteStartingWith(prefix) {
      // Gathered first: the cache is not changed while it is walked.
      const doomed = [...strings.keys()].filter((key) => key.startsWith(prefix));
      for (const key of doomed) strings.delete(key);
      return doomed.length;
    },
    clear: () => strings.clear(),
  };
}
