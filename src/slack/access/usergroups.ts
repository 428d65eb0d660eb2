// Members of Slack user groups, kept in the shared store for every replica and read again when stale.
import type { webApi } from '@slack/bolt';
import { z } from 'zod';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { OneAtATime } from '../../util/one-at-a-time.js';
import type { OperatorCache, UsergroupMembers } from '../handling/stores.js';
import { workspaceKey } from '../handling/workspace.js';

/** Well past the refresh, so a Slack outage falls back to the last known members. */
const CACHE_TTL_SECONDS = 7 * 24 * 3600;

const usergroupUsersSchema = z.object({ users: z.array(z.string()).default([]) });

export class UsergroupDirectory {
  readonly #cache: OperatorCache;
  readonly #refreshMs: number;
  readonly #now: () => number;
  /** For the logs ("operator user group"). */
  readonly #what: string;
  /** Per process: a burst of messages or clicks costs one call. */
  readonly #reading = new OneAtATime<UsergroupMembers | undefined>();

  constructor(cache: OperatorCache, options: { refreshMs: number; now?: () => number; what: string }) {
    this.#cache = cache;
    this.#refreshMs = options.refreshMs;
    this.#now = options.now ?? Date.now;
    this.#what = options.what;
  }

  /** Undefined when they could never be read (Slack down and nothing cached). */
  async members(
    client: webApi.WebClient,
    workspace: string,
    usergroupId: string,
    logger: Logger,
  ): Promise<string[] | undefined> {
    const cached = await this.#cache.get(workspaceKey(workspace, usergroupId)).catch((error: unknown) => {
      logger.warn({ ...errorFields(error), usergroupId }, `${this.#what} cache unavailable; asking Slack`);
      return undefined;
    });
    if (cached && this.#now() - cached.fetchedAt < this.#refreshMs) return cached.members;
    const fresh = await this.read(client, workspace, usergroupId, logger);
    // Slack unreachable: the last known members, however old, rather than nobody.
    return (fresh ?? cached)?.members;
  }

  read(
    client: webApi.WebClient,
    workspace: string,
    usergroupId: string,
    logger: Logger,
  ): Promise<UsergroupMembers | undefined> {
    const key = workspaceKey(workspace, usergroupId);
    return this.#reading.run(key, () => this.#readOnce(client, key, usergroupId, logger));
  }

  async #readOnce(
    client: webApi.WebClient,
    key: string,
    usergroupId: string,
    logger: Logger,
  ): Promise<UsergroupMembers | undefined> {
    let members: UsergroupMembers;
    try {
      const response = usergroupUsersSchema.parse(
        await client.usergroups.users.list({ usergroup: usergroupId }),
      );
      members = { members: response.users, fetchedAt: this.#now() };
    } catch (error) {
      logger.error({ ...errorFields(error), usergroupId }, `${this.#what} could not be read`);
      return undefined;
    }
    await this.#cache.set(key, members, CACHE_TTL_SECONDS).catch((error: unknown) => {
      logger.warn(
        { ...errorFields(error), usergroupId },
        `${this.#what} cache unavailable; members not kept`,
      );
    });
    logger.info({ usergroupId, members: members.members.length }, `${this.#what} read`);
    return members;
  }
}
