// Where the client's access_token comes from: a fixed one, or one fetched, cached and renewed before it expires.
import { createHash } from 'node:crypto';
import { type Dispatcher, getGlobalDispatcher } from 'undici';
import { z } from 'zod';
import { AccessTokenError, HttpStatusError, MalformedResponseError, PlatformCodeError } from './errors.js';
import { OPEN_SUCCESS_CODE, TOKEN_PATH } from './schemas.js';
import { JsonTransport, type TransportTimeouts } from './transport.js';

export interface AccessTokenProvider {
  /** A token believed valid now. */
  getToken(): Promise<string>;
  /** Called when the platform rejected `rejectedToken` (code 1002); returns the token to retry with. */
  renew(rejectedToken: string): Promise<string>;
}

/** A configured token that never changes: a 1002 after the one retry surfaces as PlatformCodeError. */
export class StaticTokenProvider implements AccessTokenProvider {
  readonly #token: string;

  constructor(token: string) {
    this.#token = token;
  }

  async getToken(): Promise<string> {
    return this.#token;
  }

  async renew(): Promise<string> {
    return this.#token;
  }
}

export interface CachedToken {
  token: string;
  /** Milliseconds since the epoch, on the provider's clock. */
  expiresAt: number;
}

/** Optional shared store (e.g. Redis) so several gateway processes reuse one token. Failures are ignored. */
export interface TokenCache {
  get(): Promise<CachedToken | undefined>;
  set(entry: CachedToken): Promise<void>;
  /**
   * A fleet-wide renewal lock, so one process fetches while the others wait for its token.
   * Resolves with a release function, or undefined while another process holds the lock.
   */
  lock?(ttlMs: number): Promise<(() => Promise<void>) | undefined>;
}

/** How long one process may hold the renewal lock; the others wait at most this long for its token. */
const RENEWAL_LOCK_MS = 10_000;
const RENEWAL_POLL_MS = 100;

export interface FetchedTokenProviderOptions {
  openUrl: string;
  appId: string;
  appKey: string;
  /** Requested lifetime in hours, 1..24; default 2. */
  expireHours?: number;
  /** Defaults to undici's global dispatcher, which this provider never closes. */
  dispatcher?: Dispatcher;
  timeouts?: TransportTimeouts;
  now?: () => number;
  /** How long before expiry to fetch a new token; default 5 minutes or a tenth of the lifetime if shorter. */
  renewBeforeMs?: number;
  cache?: TokenCache;
}

const TOKEN_ACTION = 'getAccessToken';
/** Stands in for the token endpoint's body wherever an error would otherwise carry it. */
const BODY_WITHHELD = '[token endpoint body withheld]';

const DEFAULT_TOKEN_TIMEOUTS: TransportTimeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000 };

const tokenResponseSchema = z
  .object({
    code: z.union([z.string(), z.number()]).transform(String),
    // Platforms send null for "no message"; that is not a reason to refuse a token.
    msg: z.string().nullish(),
    message: z.string().nullish(),
    data: z
      .object({ access_token: z.string().min(1) })
      .loose()
      .nullish(),
  })
  .loose();

/** Lowercase hex md5 of appId + appKey + createTime, as the token call is signed. */
export function signTokenRequest(appId: string, appKey: string, createTime: string): string {
  return createHash('md5').update(`${appId}${appKey}${createTime}`, 'utf8').digest('hex');
}

/**
 * Fetches POST {openUrl}/open/platform/getAccessToken.json with { appId, createTime, sign, expire }.
 * createTime is the millisecond timestamp as a decimal string; expire is the lifetime in hours.
 */
export class FetchedTokenProvider implements AccessTokenProvider {
  readonly #url: string;
  readonly #appId: string;
  readonly #appKey: string;
  readonly #expireHours: number;
  readonly #lifetimeMs: number;
  readonly #renewBeforeMs: number;
  readonly #now: () => number;
  readonly #transport: JsonTransport;
  readonly #cache: TokenCache | undefined;
  #current: CachedToken | undefined;
  #inFlight: Promise<string> | undefined;

  constructor(options: FetchedTokenProviderOptions) {
    const expireHours = options.expireHours ?? 2;
    if (!Number.isInteger(expireHours) || expireHours < 1 || expireHours > 24) {
      throw new RangeError(`expireHours must be a whole number from 1 to 24, got ${expireHours}`);
    }
    this.#url = `${options.openUrl.replace(/\/+$/, '')}${TOKEN_PATH}`;
    this.#appId = options.appId;
    this.#appKey = options.appKey;
    this.#expireHours = expireHours;
    this.#lifetimeMs = expireHours * 3_600_000;
    this.#renewBeforeMs = options.renewBeforeMs ?? Math.min(5 * 60_000, this.#lifetimeMs / 10);
    this.#now = options.now ?? Date.now;
    this.#cache = options.cache;
    this.#transport = new JsonTransport({
      dispatcher: options.dispatcher ?? getGlobalDispatcher(),
      timeouts: options.timeouts ?? DEFAULT_TOKEN_TIMEOUTS,
    });
  }

  async getToken(): Promise<string> {
    const current = this.#current;
    if (current && this.#now() < current.expiresAt - this.#renewBeforeMs) return current.token;
    try {
      return await this.#refresh(undefined);
    } catch (error) {
      // An early renewal that failed is no reason to drop a token that is still valid.
      if (current && this.#now() < current.expiresAt) return current.token;
      throw error;
    }
  }

  async renew(rejectedToken: string): Promise<string> {
    const current = this.#current;
    // Someone already replaced the rejected token: ten concurrent 1002s cause one renewal.
    if (current && current.token !== rejectedToken && this.#now() < current.expiresAt) return current.token;
    return this.#refresh(rejectedToken);
  }

  /** Joins the renewal in flight, or starts one. */
  #refresh(rejectedToken: string | undefined): Promise<string> {
    if (!this.#inFlight) {
      this.#inFlight = this.#obtain(rejectedToken).finally(() => {
        this.#inFlight = undefined;
      });
    }
    return this.#inFlight;
  }

  async #obtain(rejectedToken: string | undefined): Promise<string> {
    const shared = await this.#usableShared(rejectedToken);
    if (shared) return shared;
    const release = await this.#lockRenewal();
    if (release === 'held elsewhere') {
      const renewedElsewhere = await this.#waitForShared(rejectedToken);
      if (renewedElsewhere) return renewedElsewhere;
    }
    try {
      // Another process may have finished renewing between our first look and taking the lock.
      const sharedNow = release === 'held elsewhere' ? undefined : await this.#usableShared(rejectedToken);
      if (sharedNow) return sharedNow;
      const fresh = await this.#fetch();
      this.#current = fresh;
      await this.#cache?.set(fresh).catch(() => undefined);
      return fresh.token;
    } finally {
      if (typeof release === 'function') await release().catch(() => undefined);
    }
  }

  async #usableShared(rejectedToken: string | undefined): Promise<string | undefined> {
    const shared = await this.#readCache();
    if (shared && shared.token !== rejectedToken && this.#now() < shared.expiresAt - this.#renewBeforeMs) {
      this.#current = shared;
      return shared.token;
    }
    return undefined;
  }

  /** The release function, 'held elsewhere', or 'no lock' when there is no shared lock (or it failed). */
  async #lockRenewal(): Promise<(() => Promise<void>) | 'held elsewhere' | 'no lock'> {
    if (!this.#cache?.lock) return 'no lock';
    try {
      return (await this.#cache.lock(RENEWAL_LOCK_MS)) ?? 'held elsewhere';
    } catch {
      // A broken shared lock must not stop this process from fetching its own token.
      return 'no lock';
    }
  }

  /** Waits for the lock holder's token; undefined if it never comes, and this process fetches its own. */
  async #waitForShared(rejectedToken: string | undefined): Promise<string | undefined> {
    for (let waited = 0; waited < RENEWAL_LOCK_MS; waited += RENEWAL_POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, RENEWAL_POLL_MS));
      const shared = await this.#usableShared(rejectedToken);
      if (shared) return shared;
    }
    return undefined;
  }

  async #readCache(): Promise<CachedToken | undefined> {
    if (!this.#cache) return undefined;
    try {
      return await this.#cache.get();
    } catch {
      // A broken shared cache must not stop this process from fetching its own token.
      return undefined;
    }
  }

  async #fetch(): Promise<CachedToken> {
    const issuedAt = this.#now();
    const createTime = String(issuedAt);
    const body = {
      appId: this.#appId,
      createTime,
      sign: signTokenRequest(this.#appId, this.#appKey, createTime),
      expire: this.#expireHours,
    };
    let response: Awaited<ReturnType<JsonTransport['postJson']>>;
    try {
      response = await this.#transport.postJson(TOKEN_ACTION, this.#url, body);
    } catch (error) {
      const safe = withoutBody(error);
      throw new AccessTokenError(`could not fetch an access token: ${describe(safe)}`, { cause: safe });
    }
    const parsed = tokenResponseSchema.safeParse(response.body);
    if (!parsed.success) {
      // The body may hold a token, so neither it nor the ZodError (which can quote it) goes into the error.
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
      const detail = `${where}: ${issue?.code ?? 'unexpected shape'}`;
      throw new AccessTokenError(`token answer is malformed (${detail})`, {
        cause: new MalformedResponseError(TOKEN_ACTION, detail, BODY_WITHHELD),
      });
    }
    const answer = parsed.data;
    if (answer.code !== OPEN_SUCCESS_CODE || !answer.data) {
      const cause = new PlatformCodeError(
        TOKEN_ACTION,
        answer.code,
        answer.msg ?? answer.message ?? undefined,
      );
      throw new AccessTokenError(`token call refused: ${cause.message}`, { cause });
    }
    return { token: answer.data.access_token, expiresAt: issuedAt + this.#lifetimeMs };
  }
}

/**
 * The token endpoint's body may hold a token: an error about it keeps its kind, status and detail but
 * not the body, nor a cause (JSON.parse's SyntaxError quotes the text). A TransportError carries no body.
 */
function withoutBody(error: unknown): unknown {
  if (error instanceof HttpStatusError) {
    return new HttpStatusError(error.action, error.status, BODY_WITHHELD, {
      retryAfterMs: error.retryAfterMs,
    });
  }
  if (error instanceof MalformedResponseError) {
    return new MalformedResponseError(error.action, error.detail, BODY_WITHHELD);
  }
  return error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
