// Token rotation (`token_rotation_enabled`): a token that expires within two hours is refreshed before
// it is used, once per installation across every replica (a claim in the shared store, then a fresh read).
import { setTimeout as delay } from 'node:timers/promises';
import type { InstallationQuery, webApi } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { OneAtATime } from '../../util/one-at-a-time.js';
import { type Installations, installationKey, queryFor, type StoredInstallation } from './installations.js';

/** Slack's window, and InstallProvider's: a token is refreshed once it expires within two hours. */
const REFRESH_WITHIN_SECONDS = 7_200;
/** Far longer than one oauth.v2.access; a replica that died holding the lock frees it by then. */
export const ROTATION_LOCK_SECONDS = 30;
/** Within Slack's 3 s for an acknowledgement, what a replica waits for another's refresh. */
const WAIT_FOR_OTHER_MS = 2_000;
const POLL_MS = 100;
/** After a failed refresh, this replica uses the old token for a minute rather than ask per request. */
const BACKOFF_MS = 60_000;

/** Where the one refresh of an installation is claimed, on every replica. */
export interface RotationLocks {
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  release(key: string): Promise<void>;
}

const token = z.string().min(1).max(500);
const refreshedSchema = z.object({
  access_token: token,
  refresh_token: token,
  expires_in: z.number().int().positive(),
});

interface Renewed {
  token: string;
  refreshToken: string;
  expiresAt: number;
}

type Expiring = Partial<Renewed>;

interface RotationDependencies {
  installations: Installations;
  locks: RotationLocks;
  /** Without a token, on the app's Web API connection: oauth.v2.access goes where every call goes. */
  client: webApi.WebClient;
  clientId: string;
  clientSecret: string;
  logger: Logger;
  /** Counts a token due for a refresh that was not refreshed. */
  onRefreshFailed(): void;
}

export class TokenRotation {
  readonly #deps: RotationDependencies;
  /** One rotation at a time per installation in this process; the others wait for it. */
  readonly #rotating = new OneAtATime<StoredInstallation | undefined>();
  readonly #failedLately = new LRUCache<string, true>({ max: 10_000, ttl: BACKOFF_MS });

  constructor(dependencies: RotationDependencies) {
    this.#deps = dependencies;
  }

  /** The installation with its tokens fit to use: refreshed first when one expires within two hours. */
  async current(query: InstallationQuery<boolean>): Promise<StoredInstallation | undefined> {
    const found = await this.#deps.installations.find(query);
    if (!found || !dueForRefresh(found)) return found;
    const own = queryFor(found);
    const key = installationKey(own);
    if (key === undefined || this.#failedLately.has(key)) return found;
    return this.#rotating.run(key, () => this.#rotate(key, own, found));
  }

  async #rotate(
    key: string,
    query: InstallationQuery<boolean>,
    found: StoredInstallation,
  ): Promise<StoredInstallation | undefined> {
    try {
      const deadline = Date.now() + WAIT_FOR_OTHER_MS;
      for (;;) {
        if (await this.#deps.locks.claim(key, ROTATION_LOCK_SECONDS))
          return await this.#refreshHolding(key, query);
        const stored = await this.#deps.installations.find(query, { fresh: true });
        // Another replica refreshed it or it was removed; past the wait, the token stored is used.
        if (!stored || !dueForRefresh(stored) || Date.now() >= deadline) return stored;
        await delay(POLL_MS);
      }
    } catch (error) {
      this.#failed(key, error, 'could not rotate an expiring token');
      return found;
    }
  }

  /** Holding the lock: read again (another replica may have refreshed it), refresh what is still due. */
  async #refreshHolding(
    key: string,
    query: InstallationQuery<boolean>,
  ): Promise<StoredInstallation | undefined> {
    try {
      const stored = await this.#deps.installations.find(query, { fresh: true });
      if (!stored || !dueForRefresh(stored)) return stored;
      const [bot, user] = await Promise.all([
        this.#renewed(key, 'bot', stored.bot),
        this.#renewed(key, 'user', stored.user),
      ]);
      if (!bot && !user) return stored;
      const refreshed: StoredInstallation = {
        ...stored,
        ...(bot && stored.bot ? { bot: { ...stored.bot, ...bot } } : {}),
        ...(user ? { user: { ...stored.user, ...user } } : {}),
      };
      // Slack has taken the old refresh token: a new one not stored is lost, so this one is used anyway.
      await this.#deps.installations.replace(refreshed).catch((error: unknown) => {
        this.#deps.logger.error(
          { ...errorFields(error), workspace: key },
          'refreshed a token but could not store it; the workspace may have to install the app again',
        );
      });
      this.#deps.logger.info(
        { workspace: key, bot: bot !== undefined, user: user !== undefined },
        'token refreshed',
      );
      return refreshed;
    } finally {
      // It expires by itself too: a release that fails only delays the next rotation.
      await this.#deps.locks.release(key).catch(() => undefined);
    }
  }

  /** Undefined when the token is not due or its refresh failed (logged and counted). */
  async #renewed(
    key: string,
    kind: 'bot' | 'user',
    holder: Expiring | undefined,
  ): Promise<Renewed | undefined> {
    if (!holder || !tokenDue(holder)) return undefined;
    const { refreshToken } = holder;
    if (refreshToken === undefined) return undefined;
    try {
      const answer = refreshedSchema.parse(
        await this.#deps.client.oauth.v2.access({
          client_id: this.#deps.clientId,
          client_secret: this.#deps.clientSecret,
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
        }),
      );
      return {
        token: answer.access_token,
        refreshToken: answer.refresh_token,
        expiresAt: nowSeconds() + answer.expires_in,
      };
    } catch (error) {
      this.#failed(key, error, `could not refresh the ${kind} token`);
      return undefined;
    }
  }

  #failed(key: string, error: unknown, what: string): void {
    this.#failedLately.set(key, true);
    this.#deps.onRefreshFailed();
    this.#deps.logger.warn(
      { ...errorFields(error), workspace: key },
      `${what}; the current one is used until it expires`,
    );
  }
}

function dueForRefresh(installation: StoredInstallation): boolean {
  return (installation.bot !== undefined && tokenDue(installation.bot)) || tokenDue(installation.user);
}

/** Only a rotating token (one with a refresh token and an expiry) is ever due. */
function tokenDue(holder: Expiring): boolean {
  return (
    holder.refreshToken !== undefined &&
    holder.expiresAt !== undefined &&
    holder.expiresAt - nowSeconds() <= REFRESH_WITHIN_SECONDS
  );
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
