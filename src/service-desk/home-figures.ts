// The Home tab's operator figures, read at most once per few minutes per workspace, per replica.
import { LRUCache } from 'lru-cache';
import { lruClock } from '../util/lru-clock.js';
import { positive } from '../util/positive.js';
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
  readonly #cache: LRUCache<string, HomeFigures, { requestId?: string }>;

  /** `apiOf`: each workspace's platform. */
  constructor(apiOf: (workspaceId: string) => StatisticsApi, settings: HomeFiguresSettings = {}) {
    const ttlMs = positive('ttlMs', settings.ttlMs ?? DEFAULT_TTL_MS);
    const failureTtlMs = positive('failureTtlMs', settings.failureTtlMs ?? DEFAULT_FAILURE_TTL_MS);
    const now = settings.now ?? Date.now;
    // fetch reads once per workspace at a time: a burst of Home opens costs one.
    this.#cache = new LRUCache<string, HomeFigures, { requestId?: string }>({
      max: settings.maxWorkspaces ?? DEFAULT_MAX_WORKSPACES,
      ttl: ttlMs,
      // A read that `forget` overtook still answers its askers, but is not kept.
      ignoreFetchAbort: true,
      ...lruClock(settings.now),
      fetchMethod: async (workspaceId, _stale, { options, context }) => {
        const figures = await readFigures(apiOf(workspaceId), now(), context);
        if (figures.kind === 'unavailable') options.ttl = failureTtlMs;
        return figures;
      },
    });
  }

  /** Read again next time: the workspace's account changed. */
  forget(workspaceId: string): void {
    this.#cache.delete(workspaceId);
  }

  /** The workspace's figures, from the cache while fresh. Never throws: a failure is `unavailable`. */
  async figures(workspaceId: string, scope: { requestId?: string } = {}): Promise<HomeFigures> {
    // fetchMethod always resolves figures, and an abort is ignored: fetch never gives undefined.
    const figures = (await this.#cache.fetch(workspaceId, { context: scope })) as HomeFigures;
    // Nothing was asked: the figures come as soon as the workspace is set up.
    if (figures.kind === 'unavailable' && figures.reason === 'not_set_up') this.#cache.delete(workspaceId);
    return figures;
  }
}

async function readFigures(
  api: StatisticsApi,
  at: number,
  scope: { requestId?: string },
): Promise<HomeFigures> {
  const period = periodOf([], new Date(at));
  if (period.kind !== 'ok') return { kind: 'unavailable', reason: 'unavailable', at };
  const result = await statisticsReport(api, period.period, scope).catch(() => undefined);
  if (result?.kind === 'report') return { kind: 'report', report: result.report, at };
  return { kind: 'unavailable', reason: result?.reason ?? 'unavailable', at };
}
