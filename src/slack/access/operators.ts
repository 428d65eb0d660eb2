// Who may edit knowledge entries and handle review cards: OPERATOR_USER_IDS and OPERATOR_USERGROUP_ID's
// members, read again when Slack says the group changed or the copy is older than an hour.
import type { webApi } from '@slack/bolt';
import type { Logger } from '../../logging/logger.js';
import type { OperatorCache } from '../handling/stores.js';
import { UsergroupDirectory } from './usergroups.js';

type WebClient = webApi.WebClient;

export interface OperatorSettings {
  userIds: readonly string[];
  usergroupId: string | undefined;
  refreshMs?: number;
  /** Installed in many workspaces: who installed it in a workspace is that workspace's first operator. */
  installerOf?: ((workspace: string) => Promise<string | undefined>) | undefined;
}

export type OperatorCheck =
  | { kind: 'operator' }
  | { kind: 'refused'; reason: 'not_operator' | 'none_configured' };

const DEFAULT_REFRESH_MS = 60 * 60 * 1000;

export class OperatorDirectory {
  readonly #userIds: ReadonlySet<string>;
  readonly #usergroupId: string | undefined;
  readonly #groups: UsergroupDirectory;
  readonly #installerOf: OperatorSettings['installerOf'];

  constructor(settings: OperatorSettings, cache: OperatorCache, now: () => number = Date.now) {
    this.#userIds = new Set(settings.userIds);
    this.#usergroupId = settings.usergroupId;
    this.#installerOf = settings.installerOf;
    this.#groups = new UsergroupDirectory(cache, {
      refreshMs: settings.refreshMs ?? DEFAULT_REFRESH_MS,
      now,
      what: 'operator user group',
    });
  }

  get configured(): boolean {
    return this.#userIds.size > 0 || this.#usergroupId !== undefined || this.#installerOf !== undefined;
  }

  /** Events name a group by id. */
  watches(usergroupId: string): boolean {
    return usergroupId === this.#usergroupId;
  }

  async check(client: WebClient, workspace: string, userId: string, logger: Logger): Promise<OperatorCheck> {
    if (!this.configured) return { kind: 'refused', reason: 'none_configured' };
    if (this.#userIds.has(userId)) return { kind: 'operator' };
    if (this.#installerOf && (await this.#installerOf(workspace)) === userId) return { kind: 'operator' };
    if (!this.#usergroupId) return { kind: 'refused', reason: 'not_operator' };
    const members = await this.#groups.members(client, workspace, this.#usergroupId, logger);
    return members?.includes(userId) ? { kind: 'operator' } : { kind: 'refused', reason: 'not_operator' };
  }

  /** Slack said it changed. */
  async refresh(client: WebClient, workspace: string, logger: Logger): Promise<void> {
    if (this.#usergroupId) await this.#groups.read(client, workspace, this.#usergroupId, logger);
  }
}
