// USER_QUESTION_LIMIT and CHANNEL_QUESTION_LIMIT: counted in this process, or on a Redis every replica
// shares; a Redis that does not answer lets questions through, since an outage must not silence the robot.
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { QuestionLimit } from '../../config/env.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { EXPIRED, within } from '../../util/deadline.js';
import type { OperatorDirectory } from '../access/operators.js';
import type { Handling } from './handling.js';
import { workspaceKey } from './workspace.js';

export type LimitScope = 'user' | 'channel';

export type Admission =
  | { kind: 'admitted' }
  | {
      kind: 'throttled';
      scope: LimitScope;
      /** Until the window ends and the asker may ask again. */
      retryAfterMs: number;
      /** The first question dropped in this window: the one that is logged. */
      firstInWindow: boolean;
      /** Whether this asker is told, once a window. */
      tell: boolean;
    };

const ADMITTED: Admission = { kind: 'admitted' };

const SKIP_AFTER_FAILURE_MS = 1_000;

/** What rate-limiter-flexible calls on a node-redis client or Sentinel (`useRedisPackage`). */
interface LimiterClient {
  readonly isReady: boolean;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Where the counts live: this process, or a node-redis client on the Redis the replicas share. */
export type LimitStore = { kind: 'memory' } | { kind: 'redis'; client: LimiterClient; keyPrefix: string };

interface Limiters {
  counts: RateLimiterAbstract;
  points: number;
  /** For the channel only: each person over it is told once, not only the first. */
  notices: RateLimiterAbstract | undefined;
}

type Consumed = { over: false } | { over: true; result: RateLimiterRes } | 'unavailable';

export class QuestionLimits {
  readonly #user: Limiters | undefined;
  readonly #channel: Limiters | undefined;
  readonly #timeoutMs: number | undefined;
  readonly #logger: Logger;
  /** So that an outage is logged once, and its end once. */
  #unavailable = false;
  /** After a failure Redis is left alone a moment: a frozen server costs one timeout a second, not one a question. */
  #skipUntil = 0;

  constructor(settings: {
    user: QuestionLimit | 'off';
    channel: QuestionLimit | 'off';
    store: LimitStore;
    /** A frozen Redis costs a question this long, then lets it through; memory needs none. */
    timeoutMs?: number | undefined;
    logger: Logger;
  }) {
    const { store } = settings;
    this.#user = limiters(store, 'user', settings.user, false);
    this.#channel = limiters(store, 'channel', settings.channel, true);
    this.#timeoutMs = settings.timeoutMs;
    this.#logger = settings.logger;
  }

  /** Counts one question against its asker and, outside a DM (`channel` undefined), its channel. */
  async admit(asked: { workspace: string; userId: string; channel: string | undefined }): Promise<Admission> {
    const { workspace, userId, channel } = asked;
    const channelKey = channel === undefined ? undefined : workspaceKey(workspace, channel);
    // Both counted at once, so on Redis they share one round trip.
    const [byUser, byChannel] = await Promise.all([
      this.#user && this.#consume(this.#user.counts, workspaceKey(workspace, userId)),
      this.#channel && channelKey !== undefined && this.#consume(this.#channel.counts, channelKey),
    ]);
    if (this.#user && isOver(byUser)) {
      // A question the asker's own limit drops is no question of the channel's.
      if (this.#channel && channelKey !== undefined && typeof byChannel === 'object') {
        this.#channel.counts.reward(channelKey).catch(() => undefined);
      }
      const first = byUser.result.consumedPoints === this.#user.points + 1;
      return throttled('user', byUser.result, first, first);
    }
    if (this.#channel && channel !== undefined && isOver(byChannel)) {
      const first = byChannel.result.consumedPoints === this.#channel.points + 1;
      const notices = this.#channel.notices;
      const told = notices
        ? await this.#consume(notices, workspaceKey(workspace, channel, userId))
        : 'unavailable';
      return throttled('channel', byChannel.result, first, told !== 'unavailable' && !told.over);
    }
    return ADMITTED;
  }

  async #consume(limiter: RateLimiterAbstract, key: string): Promise<Consumed> {
    if (this.#unavailable && Date.now() < this.#skipUntil) return 'unavailable';
    let consumed: Consumed;
    try {
      const counting = limiter.consume(key);
      const outcome =
        this.#timeoutMs === undefined ? await counting : await within(counting, this.#timeoutMs);
      if (outcome === EXPIRED) throw new Error(`no answer within ${this.#timeoutMs} ms`);
      consumed = { over: false };
    } catch (error) {
      // The limiter rejects with its result when over the limit, and with an error when its store failed.
      if (error instanceof RateLimiterRes) {
        consumed = { over: true, result: error };
      } else {
        this.#skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS;
        if (!this.#unavailable) {
          this.#unavailable = true;
          this.#logger.warn(errorFields(error), 'question limits unavailable; questions are let through');
        }
        return 'unavailable';
      }
    }
    if (this.#unavailable) {
      this.#unavailable = false;
      this.#logger.info({}, 'question limits counted again');
    }
    return consumed;
  }
}

function isOver(consumed: Consumed | false | undefined): consumed is { over: true; result: RateLimiterRes } {
  return typeof consumed === 'object' && consumed.over;
}

function limiters(
  store: LimitStore,
  scope: LimitScope,
  limit: QuestionLimit | 'off',
  noticePerPerson: boolean,
): Limiters | undefined {
  if (limit === 'off') return undefined;
  const make = (name: string, points: number): RateLimiterAbstract =>
    store.kind === 'memory'
      ? new RateLimiterMemory({ points, duration: limit.seconds, keyPrefix: name })
      : new RateLimiterRedis({
          storeClient: store.client,
          useRedisPackage: true,
          // Fails at once while disconnected, rather than waiting for a command timeout.
          rejectIfRedisNotReady: true,
          points,
          duration: limit.seconds,
          keyPrefix: `${store.keyPrefix}limits:${name}`,
        });
  return {
    counts: make(scope, limit.points),
    points: limit.points,
    notices: noticePerPerson ? make(`${scope}-notice`, 1) : undefined,
  };
}

function throttled(
  scope: LimitScope,
  result: RateLimiterRes,
  firstInWindow: boolean,
  tell: boolean,
): Admission {
  return { kind: 'throttled', scope, retryAfterMs: result.msBeforeNext, firstInWindow, tell };
}

/** Decides if a question is asked: within the limits, or from an operator. `channel` undefined: a DM. */
export type QuestionGate = (
  handling: Handling,
  asked: { userId: string; channel: string | undefined },
) => Promise<Admission>;

export function questionGate(
  limits: Pick<QuestionLimits, 'admit'>,
  deps: { operators: Pick<OperatorDirectory, 'check'>; onThrottled(scope: LimitScope): void },
): QuestionGate {
  return async (handling, { userId, channel }) => {
    const admission = await limits.admit({ workspace: handling.teamId, userId, channel });
    if (admission.kind === 'admitted') return admission;
    // Asked only over a limit: most questions are within it, and most askers are no operators.
    if (await isOperator(deps.operators, handling, userId)) return ADMITTED;
    deps.onThrottled(admission.scope);
    if (admission.firstInWindow) {
      handling.logger.warn(
        { scope: admission.scope, userId, channel, retryAfterMs: admission.retryAfterMs },
        'question limit reached; questions dropped until the window ends',
      );
    }
    return admission;
  };
}

async function isOperator(
  operators: Pick<OperatorDirectory, 'check'>,
  handling: Handling,
  userId: string,
): Promise<boolean> {
  try {
    const check = await operators.check(handling.client, handling.teamId, userId, handling.logger);
    return check.kind === 'operator';
  } catch {
    return false;
  }
}
