// Who may edit knowledge entries and handle review cards: the users named in OPERATOR_USER_IDS and
// the members of the user group OPERATOR_USERGROUP_ID. The group's members are read with
// usergroups.users.list, kept in the store for every replica, and read again when Slack says the group
// changed or the copy is older than an hour.
import type { webApi } from '@slack/bolt';
import { z } from 'zod';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import type { OperatorCache, UsergroupMembers } from '../handling/stores.js';

type WebClient = webApi.WebClient;

export interface OperatorSettings {
  userIds: readonly string[];
  usergroupId: string | undefined;
  /** How old the group's copy may be before it is read again. */
  refreshMs?: number;
}

/** Whether the user may operate, or why not. */
export type OperatorCheck =
  | { kind: 'operator' }
  | { kind: 'refused'; reason: 'not_operator' | 'none_configured' };

const DEFAULT_REFRESH_MS = 60 * 60 * 1000;
/** Kept well past the refresh, so a Slack outage falls back to the last known members. */
const CACHE_TTL_SECONDS = 7 * 24 * 3600;

const usergroupUsersSchema = z.object({ users: z.array(z.string()).default([]) });

export class OperatorDirectory {
  readonly #userIds: ReadonlySet<string>;
  readonly #usergroupId: string | undefined;
  readonly #cache: OperatorCache;
  readonly #refreshMs: number;
  readonly #now: () => number;
  /** One read of the group at a time per process: a burst of clicks costs one call. */
  #reading: Promise<UsergroupMembers | undefined> | undefined;

  constructor(settings: OperatorSettings, cache: OperatorCache, now: () => number = Date.now) {
    this.#userIds = new Set(settings.userIds);
    this.#usergroupId = settings.usergroupId;
    this.#cache = cache;
    this.#refreshMs = settings.refreshMs ?? DEFAULT_REFRESH_MS;
    this.#now = now;
  }

  get configured(): boolean {
    return this.#userIds.size > 0 || this.#usergroupId !== undefined;
  }

  /** Is the operator group this one (events name a group by id)? */
  watches(usergroupId: string): boolean {
    return usergroupId === this.#usergroupId;
  }

  async check(client: WebClient, userId: string, logger: Logger): Promise<OperatorCheck> {
    if (!this.configured) return { kind: 'refused', reason: 'none_configured' };
    if (this.#userIds.has(userId)) return { kind: 'operator' };
    const members = await this.#members(client, logger);
    return members?.includes(userId) ? { kind: 'operator' } : { kind: 'refused', reason: 'not_operator' };
  }

  /** Reads the group again now (Slack said it changed). */
  async refresh(client: WebClient, logger: Logger): Promise<void> {
    await this.#read(client, logger);
  }

  async #members(client: WebClient, logger: Logger): Promise<string[] | undefined> {
    if (!this.#usergroupId) return undefined;
    const cached = await this.#cache.get(this.#usergroupId).catch((error: unknown) => {
      logger.warn(errorFields(error), 'operator cache unavailable; asking Slack');
      return undefined;
    });
    if (cached && this.#now() - cached.fetchedAt < this.#refreshMs) return cached.members;
    const fresh = await this.#read(client, logger);
    // Slack unreachable: the last known members, however old, rather than nobody.
    return (fresh ?? cached)?.members;
  }

  #read(client: WebClient, logger: Logger): Promise<UsergroupMembers | undefined> {
    this.#reading ??= this.#readOnce(client, logger).finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  async #readOnce(client: WebClient, logger: Logger): Promise<UsergroupMembers | undefined> {
    const usergroupId = this.#usergroupId;
    if (!usergroupId) return undefined;
    let members: UsergroupMembers;
    try {
      const response = usergroupUsersSchema.parse(
        await client.usergroups.users.list({ usergroup: usergroupId }),
      );
      members = { members: response.users, fetchedAt: this.#now() };
    } catch (error) {
      logger.error({ ...errorFields(error), usergroupId }, 'operator user group could not be read');
      return undefined;
    }
    await this.#cache.set(usergroupId, members, CACHE_TTL_SECONDS).catch((error: unknown) => {
      logger.warn({ ...errorFields(error), usergroupId }, 'operator cache unavailable; members not kept');
    });
    logger.info({ usergroupId, members: members.members.length }, 'operator user group read');
    return members;
  }
}
