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
  /** Installed in many workspaces: who installed it there (its first operator) and the group its set-up names. */
  workspaceOperators?:
    | ((workspace: string) => Promise<{ installer: string | undefined; usergroupId: string | undefined }>)
    | undefined;
}

export type OperatorCheck =
  | { kind: 'operator' }
  | { kind: 'refused'; reason: 'not_operator' | 'none_configured' };

const DEFAULT_REFRESH_MS = 60 * 60 * 1000;

export class OperatorDirectory {
  readonly #userIds: ReadonlySet<string>;
  readonly #usergroupId: string | undefined;
  readonly #groups: UsergroupDirectory;
  readonly #workspaceOperators: OperatorSettings['workspaceOperators'];

  constructor(settings: OperatorSettings, cache: OperatorCache, now: () => number = Date.now) {
    this.#userIds = new Set(settings.userIds);
    this.#usergroupId = settings.usergroupId;
    this.#workspaceOperators = settings.workspaceOperators;
    this.#groups = new UsergroupDirectory(cache, {
      refreshMs: settings.refreshMs ?? DEFAULT_REFRESH_MS,
      now,
      what: 'operator user group',
    });
  }

  get configured(): boolean {
    return (
      this.#userIds.size > 0 || this.#usergroupId !== undefined || this.#workspaceOperators !== undefined
    );
  }

  /** Events name a group by id. */
  watches(usergroupId: string): boolean {
    return usergroupId === this.#usergroupId;
  }

  async check(client: WebClient, workspace: string, userId: string, logger: Logger): Promise<OperatorCheck> {
    if (!this.configured) return { kind: 'refused', reason: 'none_configured' };
    if (this.#userIds.has(userId)) return { kind: 'operator' };
    const own = await this.#workspaceOperators?.(workspace);
    if (own?.installer === userId) return { kind: 'operator' };
    for (const group of [this.#usergroupId, own?.usergroupId]) {
      if (!group) continue;
      const members = await this.#groups.members(client, workspace, group, logger);
      if (members?.includes(userId)) return { kind: 'operator' };
    }
    return { kind: 'refused', reason: 'not_operator' };
  }

  /** Slack said it changed. */
  async refresh(client: WebClient, workspace: string, logger: Logger): Promise<void> {
    if (this.#usergroupId) await this.#groups.read(client, workspace, this.#usergroupId, logger);
  }
}
