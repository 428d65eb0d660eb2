// Slack limits each method per channel: a 429 holds back that method and channel alone, for its
// Retry-After, with the key's later calls queued behind it in order; other keys go at once
// (docs/decisions/021).
import { webApi } from '@slack/bolt';
import { z } from 'zod';
import { createLogger, type Logger } from '../../logging/logger.js';
import { CodedError } from '../../util/coded-error.js';
import { KeyedQueue } from '../../util/keyed-queue.js';
import { retryAfterMs } from '../../util/retry-after.js';

type RateLimitOutcome = 'waited' | 'gave_up';

export interface SlackRateLimitOptions {
  /** How long after it was made a call may still go out: QUESTION_DEADLINE_SECONDS (an answer later helps nobody). */
  giveUpAfterMs: number;
  onOutcome?: (method: string, outcome: RateLimitOutcome) => void;
  /** For calls held back below the SDK, which carry no request's logger. */
  logger?: Logger;
}

type FetchInit = Parameters<webApi.FetchFunction>[1];
type FetchResponse = Awaited<ReturnType<webApi.FetchFunction>>;

/** A call to no conversation (views.publish, files.*): held back per method and workspace's token. */
const NO_CHANNEL = '-';

/** A name lookup on the answer's path: the answer going out under the user id beats waiting for a name. */
const FAILS_AT_ONCE: ReadonlySet<string> = new Set(['users.info']);

/** A call dropped because its key's Retry-After ends past its deadline; already logged and counted. */
export class SlackRateLimitGaveUp extends CodedError<'SLACK_RATE_LIMITED'> {
  readonly code = 'SLACK_RATE_LIMITED' as const;
}

/** What the SDK rejects with when `rejectRateLimitedCalls` is set: its own retry policy never sees it. */
const rateLimitedSchema = z.object({
  code: z.literal(webApi.ErrorCode.RateLimitedError),
  retryAfter: z.number().nonnegative(),
});

export class SlackRateLimits {
  readonly #waiting = new KeyedQueue();
  /** Epoch ms before which a rate-limited key sends nothing. */
  readonly #heldUntil = new Map<string, number>();
  readonly #options: SlackRateLimitOptions;

  constructor(options: SlackRateLimitOptions) {
    this.#options = options;
  }

  /** Sends at once unless `method` in `channel` is held back; retried after each 429 until the deadline. */
  async send<T>(
    out: { logger: Logger },
    method: string,
    channel: string,
    call: () => Promise<T>,
    scope = '',
  ): Promise<T> {
    const key = `${method} ${channel} ${scope}`;
    const held = { key, method, channel, giveUpAt: Date.now() + this.#options.giveUpAfterMs };
    if (!this.#waiting.has(key) && !this.#isHeld(key)) {
      try {
        return await call();
      } catch (error) {
        this.#holdBackOrRethrow(key, error);
      }
    }
    return this.#waiting.run(key, () => this.#sendWhenOpen(out.logger, held, call));
  }

  async #sendWhenOpen<T>(
    logger: Logger,
    { key, method, channel, giveUpAt }: { key: string; method: string; channel: string; giveUpAt: number },
    call: () => Promise<T>,
  ): Promise<T> {
    for (;;) {
      const heldUntil = this.#heldUntil.get(key) ?? 0;
      // Its turn may come past the deadline too, behind calls that took long.
      if (Math.max(heldUntil, Date.now()) > giveUpAt) {
        this.#options.onOutcome?.(method, 'gave_up');
        // Method and channel only: the text and the token stay out of the log.
        logger.warn(
          {
            method,
            ...(channel !== NO_CHANNEL && { channel }),
            retryAfterMs: Math.max(0, heldUntil - Date.now()),
          },
          "Slack's rate limit outlasts the question's deadline; the call is dropped",
        );
        throw new SlackRateLimitGaveUp(`${method} in ${channel} is rate-limited past the deadline`);
      }
      await sleepUntil(heldUntil);
      try {
        const result = await call();
        this.#options.onOutcome?.(method, 'waited');
        return result;
      } catch (error) {
        this.#holdBackOrRethrow(key, error);
      }
    }
  }

  /**
   * The SDK's fetch, where a call to no conversation waits out its 429 as the Responder's calls do; a
   * call to a conversation gets its 429 back, for the Responder's gate above the SDK's queue.
   */
  fetch(inner: webApi.FetchFunction): webApi.FetchFunction {
    const out = { logger: this.#options.logger ?? SILENT };
    return async (url, init) => {
      let first: FetchResponse | undefined;
      // No key is held almost always: then nothing is read of the call unless Slack answers 429.
      if (this.#heldUntil.size === 0 && !this.#waiting.busy) {
        first = await inner(url, init);
        if (first.status !== 429) return first;
      }
      const method = methodOf(String(url));
      if (FAILS_AT_ONCE.has(method) || namesChannel(init)) return first ?? inner(url, init);
      const attempt = async (): Promise<FetchResponse> => {
        const response = first ?? (await inner(url, init));
        first = undefined;
        if (response.status !== 429) return response;
        throw new RateLimitedResponse(retryAfterSeconds(response.headers.get('retry-after'), Date.now()));
      };
      // Slack limits these per workspace, and the token tells the workspace.
      const scope = init?.headers?.Authorization ?? '';
      return this.send(out, method, NO_CHANNEL, attempt, scope);
    };
  }

  #isHeld(key: string): boolean {
    return (this.#heldUntil.get(key) ?? 0) > Date.now();
  }

  /** Holds `key` back for a 429's Retry-After; any other failure is rethrown. */
  #holdBackOrRethrow(key: string, error: unknown): void {
    const limited = rateLimitedSchema.safeParse(error);
    if (!limited.success) throw error;
    const now = Date.now();
    // Forget windows that have passed, so the map holds only keys limited now.
    for (const [heldKey, until] of this.#heldUntil) if (until <= now) this.#heldUntil.delete(heldKey);
    this.#heldUntil.set(key, Math.max(this.#heldUntil.get(key) ?? 0, now + limited.data.retryAfter * 1000));
  }
}

/** The Web API method a call's URL names. */
export function methodOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

/** A 429 met below the SDK, in the shape the SDK rejects with above it. */
class RateLimitedResponse extends Error {
  readonly code = webApi.ErrorCode.RateLimitedError;
  readonly retryAfter: number;

  constructor(retryAfter: number) {
    super('rate limited');
    this.retryAfter = retryAfter;
  }
}

/** Whether the body the SDK serialized names a conversation; read only after a 429, or while one holds. */
function namesChannel(init: FetchInit | undefined): boolean {
  const body = init?.body;
  if (typeof body !== 'string') return false;
  if (body.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(body);
      return typeof parsed === 'object' && parsed !== null && 'channel' in parsed;
    } catch {
      return false;
    }
  }
  return new URLSearchParams(body).has('channel');
}

const SILENT = createLogger({ level: 'silent' });

function sleepUntil(epochMs: number): Promise<void> {
  const ms = epochMs - Date.now();
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Slack's pace for posts, about one a second per channel: the wait when a 429 names none we can read. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** Whole seconds to wait from a Retry-After header, else the default. */
export function retryAfterSeconds(header: string | null, nowMs: number): number {
  const ms = retryAfterMs(header, nowMs);
  return ms === undefined ? DEFAULT_RETRY_AFTER_SECONDS : Math.ceil(ms / 1000);
}

/**
 * Every 429 given a Retry-After the SDK can read: without one the SDK fails the call with a bare error
 * the gate cannot tell from any other.
 */
export function withReadableRetryAfter(fetch: webApi.FetchFunction): webApi.FetchFunction {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.status !== 429) return response;
    const raw = response.headers.get('retry-after');
    const seconds = String(retryAfterSeconds(raw, Date.now()));
    if (raw === seconds) return response;
    return {
      ok: response.ok,
      status: response.status,
      statusText: response.statusText,
      url: response.url,
      headers: {
        get: (name) => (name.toLowerCase() === 'retry-after' ? seconds : response.headers.get(name)),
        entries: () => response.headers.entries(),
      },
      arrayBuffer: () => response.arrayBuffer(),
      json: () => response.json(),
      text: () => response.text(),
    };
  };
}
