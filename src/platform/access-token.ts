// Where the client's access_token comes from: a fixed one, or one fetched, cached and renewed before expiry.
import { createHash } from 'node:crypto';
import { type Dispatcher, getGlobalDispatcher } from 'undici';
import { z } from 'zod';
import { AccessTokenError, HttpStatusError, MalformedResponseError, PlatformCodeError } from './errors.js';
import { OPEN_SUCCESS_CODE, TOKEN_PATH } from './schemas.js';
import { JsonTransport, type TransportTimeouts } from './transport.js';

export interface AccessTokenProvider {
  getToken(): Promise<string>;
  /** Returns the token to retry with after the platform rejected `rejectedToken` (code 1002). */
  renew(rejectedToken: string): Promise<string>;
}

/** A 1002 after the one retry surfaces as PlatformCodeError. */
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
  /** On the provider's clock. */
  expiresAt: number;
}

/** Shared (e.g. Redis) so several gateway processes reuse one token. Failures are ignored. */
export interface TokenCache {
  get(): Promise<CachedToken | undefined>;
  set(entry: CachedToken): Promise<void>;
  /** Fleet-wide, so one process fetches while the others wait; undefined while another holds it. */
  lock?(ttlMs: number): Promise<(() => Promise<void>) | undefined>;
}

/** The others wait at most this long for the holder's token. */
const RENEWAL_LOCK_MS = 10_000;
const RENEWAL_POLL_MS = 100;

export interface FetchedTokenProviderOptions {
  openUrl: string;
  appId: string;
  appKey: string;
  /** 1..24; default 2. */
  expireHours?: number;
  /** Never closed by this provider. */
  dispatcher?: Dispatcher;
  timeouts?: TransportTimeouts;
  now?: () => number;
  /** Default 5 minutes, or a tenth of the lifetime if shorter. */
  renewBeforeMs?: number;
  cache?: TokenCache;
}

const TOKEN_ACTION = 'getAccessToken';
const BODY_WITHHELD = '[token endpoint body withheld]';

const DEFAULT_TOKEN_TIMEOUTS: TransportTimeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000 };

const tokenResponseSchema = z
  .object({
    code: z.union([z.string(), z.number()]).transform(String),
    // Platforms send null for "no message".
    msg: z.string().nullish(),
    message: z.string().nullish(),
    data: z
      .object({ access_token: z.string().min(1) })
      .loose()
      .nullish(),
  })
  .loose();

export function signTokenRequest(appId: string, appKey: string, createTime: string): string {
  return createHash('md5').update(`${appId}${appKey}${createTime}`, 'utf8').digest('hex');
}

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

  /** 'no lock' when there is no shared lock, or it failed. */
  async #lockRenewal(): Promise<(() => Promise<void>) | 'held elsewhere' | 'no lock'> {
    if (!this.#cache?.lock) return 'no lock';
    try {
      return (await this.#cache.lock(RENEWAL_LOCK_MS)) ?? 'held elsewhere';
    } catch {
      // A broken shared lock must not stop this process from fetching its own token.
      return 'no lock';
    }
  }

  /** Undefined if it never comes, and this process fetches its own. */
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
      const reason = safe instanceof Error ? safe.message : String(safe);
      throw new AccessTokenError(`could not fetch an access token: ${reason}`, { cause: safe });
    }
    const parsed = tokenResponseSchema.safeParse(response.body);
    if (!parsed.success) {
      // The body may hold a token, and a ZodError can quote it: neither goes into the error.
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

/** The body may hold a token: keep kind, status and detail, drop the body and the cause (which quotes it). */
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
