// The scheduled digest: every replica runs the schedule; the first to claim a tick posts it.
import type { types } from '@slack/bolt';
import { Cron } from 'croner';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { type Period, type StatisticsApi, statisticsReport } from '../../service-desk/statistics.js';
import type { TicketsApi } from '../../service-desk/tickets.js';
import { addDays, todayIn } from '../../util/time-zone.js';
import type { TickClaims } from '../handling/stores.js';
import type { DigestPosting } from '../handling/surface.js';
import { context } from '../kit/elements.js';
import { renderStatistics, renderStatisticsProblem } from './command-views.js';
import { t } from './messages.js';
import { type ChartPieces, chartsToShow, chartUpload, drawPeriodCharts } from './period-charts.js';

/** A tick is claimed for a day: far longer than any replica's clock or start-up can be apart. */
const TICK_CLAIM_SECONDS = 24 * 3600;
const DIGEST_DAYS = 7;

export type DigestOutcome = DigestPosting['outcome'];

export interface DigestSettings {
  schedule: string;
  timeZone: string;
  locale: Locale;
}

/** One channel a tick posts to: one workspace's, with its platform and its token. */
export interface DigestTarget {
  /** Names the target in each tick's claim: the channel, with its workspace when installed in many. */
  key: string;
  channelId: string;
  /** Whose digest it is: its platform's figures and the gateway's own counts of that workspace. */
  workspace: string;
  /** Its platform: the figures, and the ticket list the tickets chart reads. */
  platform: StatisticsApi & TicketsApi;
  post(message: { channel: string; text: string; blocks: types.KnownBlock[] }): Promise<{ ts?: string }>;
  /** files.uploadV2 with the target's token: resolves once the file is shared. */
  upload(file: DigestFile): Promise<unknown>;
}

type DigestFile = ReturnType<typeof chartUpload> & { channel_id: string; thread_ts: string };

/** Where each tick posts, read afresh at every tick (a workspace may have named its channel since). */
export type DigestTargets = () => Promise<DigestTarget[]>;

/**
 * The occurrence firing now, the latest at or before this moment (previousRuns excludes its reference):
 * every replica names it alike, also after an occurrence skipped while a digest was still posting.
 */
function firing(cron: Cron): Date {
  return cron.previousRuns(1, new Date(Date.now() + 1))[0] ?? new Date();
}

export class StatisticsDigest {
  readonly #settings: DigestSettings;
  readonly #targets: DigestTargets;
  readonly #claims: TickClaims;
  readonly #logger: Logger;
  readonly #onOutcome: (outcome: DigestOutcome) => void;
  readonly #charts: ChartPieces;
  /** Charts on their way after their digests: the next target's digest never waits for one. */
  readonly #charting = new Set<Promise<void>>();
  #cron: Cron | undefined;
  #running: Promise<unknown> = Promise.resolve();

  constructor(dependencies: {
    settings: DigestSettings;
    targets: DigestTargets;
    claims: TickClaims;
    logger: Logger;
    charts: ChartPieces;
    onOutcome?: (outcome: DigestOutcome) => void;
  }) {
    this.#charts = dependencies.charts;
    this.#settings = dependencies.settings;
    this.#targets = dependencies.targets;
    this.#claims = dependencies.claims;
    this.#logger = dependencies.logger;
    this.#onOutcome = dependencies.onOutcome ?? (() => undefined);
  }

  start(): void {
    if (this.#cron) return;
    // `protect`: a digest still being posted is not started again by a fast schedule.
    this.#cron = new Cron(
      this.#settings.schedule,
      { timezone: this.#settings.timeZone, protect: true },
      (cron: Cron) => {
        const tick = firing(cron);
        const run = this.#settled(tick, () => true);
        this.#running = run;
        return run.then(() => undefined);
      },
    );
    this.#logger.info(
      {
        schedule: this.#settings.schedule,
        timeZone: this.#settings.timeZone,
        next: this.#cron.nextRun()?.toISOString(),
      },
      'statistics digest scheduled',
    );
  }

  async stop(): Promise<void> {
    this.#cron?.stop();
    this.#cron = undefined;
    await this.#running;
    await Promise.all(this.#charting);
  }

  /** Posts the digest for the occurrence `tick` to each target whose tick no other replica claimed. */
  async post(tick: Date): Promise<DigestOutcome[]> {
    const postings = await this.#tick(tick, () => true);
    return postings.map(({ outcome }) => outcome);
  }

  /**
   * One tick now, to `workspace`'s channel alone, off the schedule: the playground's control. Its
   * charts are still on their way when it resolves; `stop` waits for them.
   */
  postNow(workspace: string): Promise<DigestPosting[]> {
    const run = this.#settled(new Date(), (target) => target.workspace === workspace);
    this.#running = Promise.all([this.#running, run]).then(() => undefined);
    return run;
  }

  /** A tick that never rejects: what went wrong is logged, and the tick counts as failed. */
  #settled(tick: Date, wanted: (target: DigestTarget) => boolean): Promise<DigestPosting[]> {
    return this.#tick(tick, wanted).catch((error: unknown): DigestPosting[] => [
      { outcome: this.#failed(error, { tick: tick.toISOString() }, 'digest failed') },
    ]);
  }

  async #tick(tick: Date, wanted: (target: DigestTarget) => boolean): Promise<DigestPosting[]> {
    let targets: DigestTarget[];
    try {
      targets = await this.#targets();
    } catch (error) {
      this.#onOutcome('failed');
      return [{ outcome: this.#failed(error, { tick: tick.toISOString() }, 'digest targets not read') }];
    }
    const postings: DigestPosting[] = [];
    // One after another: a tick for many workspaces must not burst their platforms and Slack at once.
    for (const target of targets.filter(wanted)) {
      const outcome = await this.#postTo(target, tick);
      this.#onOutcome(outcome);
      postings.push({ channelId: target.channelId, outcome });
    }
    return postings;
  }

  /** What went wrong, logged with where: the posting it stopped counts as failed. */
  #failed(error: unknown, scope: Record<string, string>, message: string): 'failed' {
    this.#logger.error({ ...errorFields(error), ...scope }, message);
    return 'failed';
  }

  async #postTo(target: DigestTarget, tick: Date): Promise<DigestOutcome> {
    const key = `digest:${target.key}:${tick.toISOString()}`;
    const scope = { tick: tick.toISOString(), channel: target.channelId, workspace: target.workspace };
    let claimed: boolean;
    try {
      claimed = await this.#claims.claim(key, TICK_CLAIM_SECONDS);
    } catch (error) {
      // The tick is skipped: TickClaims refuses while Redis is down rather than let each replica post it.
      return this.#failed(error, scope, 'digest not posted: the store is unavailable');
    }
    if (!claimed) {
      this.#logger.info(scope, 'digest already posted by another replica');
      return 'claimed_elsewhere';
    }
    const { locale, timeZone } = this.#settings;
    // The last full days where the digest is read: yesterday and the six before it.
    const to = addDays(todayIn(timeZone, tick), -1);
    const period = { from: addDays(to, -(DIGEST_DAYS - 1)), to };
    const result = await statisticsReport(target.platform, period);
    const body =
      result.kind === 'report'
        ? renderStatistics(locale, result.report)
        : renderStatisticsProblem(locale, '', { kind: 'failure', reason: result.reason });
    const title = t(locale, 'digest_title');
    let posted: { ts?: string };
    try {
      posted = await target.post({
        channel: target.channelId,
        text: `${title.replace(/\*/g, '')}: ${body.text}`,
        blocks: [context(title), ...body.blocks],
      });
    } catch (error) {
      // The tick stays claimed: a second replica posting it too would make two digests.
      return this.#failed(error, scope, 'digest could not be posted');
    }
    this.#logger.info({ ...scope, period, figures: result.kind === 'report' }, 'digest posted');
    if (result.kind === 'report' && posted.ts) {
      const charting = this.#sendChart(target, period, posted.ts, scope);
      this.#charting.add(charting);
      void charting.finally(() => this.#charting.delete(charting));
    }
    return 'posted';
  }

  /** The week's charts in the digest's thread, in one message; a failure leaves the digest as it is, logged. */
  async #sendChart(
    target: DigestTarget,
    period: Period,
    threadTs: string,
    scope: Record<string, string>,
  ): Promise<void> {
    const logger = this.#logger.child(scope);
    // No operator reads it: its tickets fall on the days the digest counts, in its own zone.
    const { locale, timeZone } = this.#settings;
    const request = { workspace: target.workspace, locale, period, timeZone };
    const charts = chartsToShow(await drawPeriodCharts(this.#charts, target.platform, request, logger));
    if (charts.kind !== 'drawn') return;
    try {
      await target.upload({
        channel_id: target.channelId,
        thread_ts: threadTs,
        ...chartUpload(charts.drawn),
      });
      logger.info({ period, charts: charts.drawn.length }, 'digest chart shared');
    } catch (error) {
      logger.error({ ...errorFields(error), period }, 'digest chart could not be uploaded');
    }
  }
}
