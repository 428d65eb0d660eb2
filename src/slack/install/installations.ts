// Each workspace's installation: kept whole and sealed (no token in clear at rest), found as Bolt
// asks for it, by its enterprise for an org-wide install, else by its team; each look-up cached a minute.
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { type SealedJson, type SealedValues, type Sealer, sealedJson } from '../../stores/sealing.js';
import { CodedError } from '../../util/coded-error.js';

export class NotInstalledError extends CodedError<'NOT_INSTALLED'> {
  readonly code = 'NOT_INSTALLED' as const;
  override readonly outside = true;
}

const token = z.string().min(1).max(500);
const slackId = z.string().min(1).max(64);

const installationSchema = z.object({
  // Present and undefined where the install has none, as Bolt's type has it.
  team: z.object({ id: slackId, name: z.string().exactOptional() }).optional(),
  enterprise: z.object({ id: slackId, name: z.string().exactOptional() }).optional(),
  user: z.object({
    id: slackId,
    token: token.exactOptional(),
    refreshToken: token.exactOptional(),
    expiresAt: z.number().exactOptional(),
    scopes: z.array(z.string()).exactOptional(),
  }),
  bot: z
    .object({
      token,
      refreshToken: token.exactOptional(),
      expiresAt: z.number().exactOptional(),
      scopes: z.array(z.string()),
      id: slackId,
      userId: slackId,
    })
    .exactOptional(),
  appId: z.string().exactOptional(),
  tokenType: z.literal('bot').exactOptional(),
  enterpriseUrl: z.string().exactOptional(),
  isEnterpriseInstall: z.boolean().exactOptional(),
  authVersion: z.enum(['v1', 'v2']).exactOptional(),
  /** When it was first stored (ms): an uninstall sent before it is about an earlier install. */
  installedAt: z.number().exactOptional(),
});

export type StoredInstallation = z.infer<typeof installationSchema>;

const CACHE_MS = 60_000;

/** The one key of an installation and of every query for it: org-wide installs are their enterprise's. */
export function installationKey(of: {
  isEnterpriseInstall?: boolean | undefined;
  enterpriseId?: string | undefined;
  teamId?: string | undefined;
}): string | undefined {
  return of.isEnterpriseInstall ? of.enterpriseId : of.teamId;
}

export function notInstalled(of: Parameters<typeof installationKey>[0]): NotInstalledError {
  return new NotInstalledError(`no installation for ${installationKey(of) ?? 'an unnamed workspace'}`);
}

/** The query that finds this installation itself: an org-wide one by its enterprise, else by its team. */
export function queryFor(installation: StoredInstallation): InstallationQuery<boolean> {
  return {
    teamId: installation.team?.id,
    enterpriseId: installation.enterprise?.id,
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
  };
}

/** Whether an org-wide install still answers in a workspace of its org (team_access_revoked takes one away). */
export interface OrgAccess {
  answersIn(enterpriseId: string, teamId: string): Promise<boolean>;
}

export class Installations implements InstallationStore {
  readonly #values: SealedJson<StoredInstallation>;
  readonly #cache = new LRUCache<string, StoredInstallation>({ max: 10_000, ttl: CACHE_MS });
  /** Tells the other replicas, whose caches then `forget` it; never rejects. */
  readonly #changed: ((key: string) => Promise<void>) | undefined;
  readonly #orgAccess: OrgAccess | undefined;

  constructor(
    values: SealedValues,
    sealer: Sealer,
    options: { changed?: ((key: string) => Promise<void>) | undefined; orgAccess?: OrgAccess } = {},
  ) {
    this.#values = sealedJson(values, sealer, 'installations', installationSchema);
    this.#changed = options.changed;
    this.#orgAccess = options.orgAccess;
  }

  async storeInstallation(installation: Installation): Promise<void> {
    // As it will be read back: JSON drops the keys Bolt sets to undefined.
    await this.replace(installationSchema.parse(JSON.parse(JSON.stringify(installation))));
  }

  /** Stores an installation as read and changed (its tokens refreshed), in place of the one it was. */
  async replace(installation: StoredInstallation): Promise<void> {
    // A token refresh stores the installation it read: it keeps its first time.
    const stored = { ...installation, installedAt: installation.installedAt ?? Date.now() };
    const key = installationKey(queryFor(stored));
    if (key === undefined)
      throw new NotInstalledError('an installation names neither its team nor its enterprise');
    await this.#values.set(key, stored);
    this.#cache.set(key, stored);
    await this.#changed?.(key);
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation> {
    const found = await this.find(query);
    if (!found) throw notInstalled(query);
    // Keys Bolt's type wants present even when undefined.
    const { user } = found;
    return {
      ...found,
      team: found.team,
      enterprise: found.enterprise,
      user: { ...user, token: user.token, scopes: user.scopes },
    };
  }

  /**
   * Undefined when the workspace (or its org-wide install) is not installed, or no longer answers
   * there. `fresh` reads the store, not this process's minute-long cache: another replica may have changed it.
   */
  async find(
    query: InstallationQuery<boolean>,
    options: { fresh?: boolean } = {},
  ): Promise<StoredInstallation | undefined> {
    const fresh = options.fresh === true;
    const key = installationKey(query);
    let found = key === undefined ? undefined : await this.#read(key, fresh);
    // An org-wide install answers in its workspaces even when an event does not say it is org-wide.
    if (!found && !query.isEnterpriseInstall && query.enterpriseId) {
      const org = await this.#read(query.enterpriseId, fresh);
      found = org?.isEnterpriseInstall ? org : undefined;
    }
    const orgId = found?.isEnterpriseInstall ? found.enterprise?.id : undefined;
    if (!orgId || !query.teamId || !this.#orgAccess) return found;
    return (await this.#orgAccess.answersIn(orgId, query.teamId)) ? found : undefined;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const key = installationKey(query);
    if (key === undefined) return;
    this.#cache.delete(key);
    await this.#values.delete(key);
    await this.#changed?.(key);
  }

  /**
   * Removes the installation an uninstall or a revocation sent at `sentAt` (ms) is about, unless it
   * was installed after that (a reinstall since) or `about` says it is another one's. Idempotent.
   */
  async remove(
    query: InstallationQuery<boolean>,
    sentAt: number,
    about: (stored: StoredInstallation) => boolean = () => true,
  ): Promise<'removed' | 'newer' | 'absent'> {
    const key = installationKey(query);
    if (key === undefined) return 'absent';
    const stored = await this.#read(key, true);
    if (!stored || !about(stored)) return 'absent';
    if ((stored.installedAt ?? 0) > sentAt) return 'newer';
    await this.deleteInstallation(query);
    return 'removed';
  }

  /** Who installed the app under this key (a team, or an org for an org-wide install): its first operator. */
  async installerOf(key: string): Promise<string | undefined> {
    return (await this.#read(key))?.user.id;
  }

  /** The query that finds the installation kept under `key`; undefined when none is. */
  async queryOf(key: string): Promise<InstallationQuery<boolean> | undefined> {
    const stored = await this.#read(key);
    return stored && queryFor(stored);
  }

  /** Another replica changed or removed it. */
  forget(key: string): void {
    this.#cache.delete(key);
  }

  async #read(key: string, fresh = false): Promise<StoredInstallation | undefined> {
    const cached = fresh ? undefined : this.#cache.get(key);
    if (cached) return cached;
    const stored = await this.#values.get(key);
    if (stored) this.#cache.set(key, stored);
    else this.#cache.delete(key);
    return stored;
  }
}
