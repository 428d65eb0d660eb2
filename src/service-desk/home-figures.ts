// The Home tab's operator figures, read at most once per few minutes per workspace, per replica.
import { LRUCache } from 'lru-cache';
import { lruClock } from '../util/lru-clock.js';
import type { DeskFailureKind } from './platform-failure.js';
import { periodOf, type StatisticsApi, type StatisticsReport, statisticsReport } from './statistics.js';

/** `at`: when the platform was read (ms). */
export type HomeFigures =
  | { kind: 'report'; report: StatisticsReport; at: number }
  | { kind: 'unavailable'; reason: DeskFailureKind; at: number };

export interface HomeFiguresSettings {
  ttlMs?: number;
  /** How long a failed read is remembered, so a platform that is down is not asked at every open. */
  failureTtlMs?: number;
  maxWorkspaces?: number;
  now?: () => number;
}

const DEFAULT_TTL_MS = 5 * 60 * 1000;
const DEFAULT_FAILURE_TTL_MS = 30 * 1000;
const DEFAULT_MAX_WORKSPACES = 1_000;

export class HomeFiguresCache {
  readonly #apiOf: (workspaceId: string) => StatisticsApi;
  readonly #cache: LRUCache<string, HomeFigures>;
  readonly #ttlMs: number;
  readonly #failureTtlMs: number;
  readonly #now: () => number;
  /** One read per workspace at a time: a burst of Home opens costs one. */
  readonly #reading = new Map<string, Promise<HomeFigures>>();

  /** `apiOf`: each workspace's platform. */
  constructor(apiOf: (workspaceId: string) => StatisticsApi, settings: HomeFiguresSettings = {}) {
    this.#apiOf = apiOf;
    this.#ttlMs = settings.ttlMs ?? DEFAULT_TTL_MS;
    this.#failureTtlMs = settings.failureTtlMs ?? DEFAULT_FAILURE_TTL_MS;
    this.#now = settings.now ?? Date.now;
    if (!(this.#ttlMs > 0) || !(this.#failureTtlMs > 0)) throw new RangeError('TTLs must be positive');
    this.#cache = new LRUCache<string, HomeFigures>({
      max: settings.maxWorkspaces ?? DEFAULT_MAX_WORKSPACES,
      ttl: this.#ttlMs,
      ...lruClock(settings.now),
    });
  }

  /** Read again next time: the workspace's account changed. */
  forget(workspaceId: string): void {
    this.#cache.delete(workspaceId);
  }

  /** The workspace's figures, from the cache while fresh. Never throws: a failure is `unavailable`. */
  figures(workspaceId: string, scope: { requestId?: string } = {}): Promise<HomeFigures> {
    const cached = this.#cache.get(workspaceId);
    if (cached) return Promise.resolve(cached);
    let reading = this.#reading.get(workspaceId);
    if (!reading) {
      reading = this.#read(workspaceId, scope).finally(() => this.#reading.delete(workspaceId));
      this.#reading.set(workspaceId, reading);
    }
    return reading;
  }

  async #read(workspaceId: string, scope: { requestId?: string }): Promise<HomeFigures> {
    const at = this.#now();
    const period = periodOf([], new Date(at));
    let figures: HomeFigures = { kind: 'unavailable', reason: 'unavailable', at };
    if (period.kind === 'ok') {
      const result = await statisticsReport(this.#apiOf(workspaceId), period.period, scope).catch(
        () => undefined,
      );
      if (result?.kind === 'report') figures = { kind: 'report', report: result.report, at };
      else if (result?.kind === 'failure') figures = { kind: 'unavailable', reason: result.reason, at };
    }
    // Nothing was asked: the figures come as soon as the workspace is set up.
    if (figures.kind === 'unavailable' && figures.reason === 'not_set_up') return figures;
    this.#cache.set(workspaceId, figures, {
      ttl: figures.kind === 'report' ? this.#ttlMs : this.#failureTtlMs,
    });
    return figures;
  }
}
