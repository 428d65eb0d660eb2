// Which workspaces of an org an org-wide install answers in: the last team_access_granted or
// team_access_revoked Slack sent for each, kept under `<enterprise>:<team>` so no two overwrite each other.
import type { InstallationQuery } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { workspaceKey } from '../handling/workspace.js';

const orgAccessBodySchema = z.object({
  event: z.object({ type: z.enum(['team_access_granted', 'team_access_revoked']) }),
});

export const workspaceAccessSchema = z.object({
  access: z.enum(['granted', 'revoked']),
  /** When Slack sent it (ms): an event sent before the one kept is older news. */
  at: z.number(),
});

type WorkspaceAccess = z.infer<typeof workspaceAccessSchema>;

/** Where each workspace's access is kept: a store namespace. */
export interface AccessValues {
  get(key: string): Promise<WorkspaceAccess | undefined>;
  set(key: string, value: WorkspaceAccess): Promise<void>;
}

const CACHE_MS = 60_000;

export class OrgWorkspaces {
  readonly #values: AccessValues;
  /** Tells the other replicas, whose caches then `forget` it; never rejects. */
  readonly #changed: ((key: string) => Promise<void>) | undefined;
  /** Whether the org's install answers in the team, as installations are cached: a minute. */
  readonly #answers = new LRUCache<string, boolean>({ max: 10_000, ttl: CACHE_MS });

  constructor(values: AccessValues, changed?: (key: string) => Promise<void>) {
    this.#values = values;
    this.#changed = changed;
  }

  /**
   * Keeps `access` for each team as sent at `sentAt` (ms), unless what is kept was sent later.
   * Idempotent: the same event twice keeps the same.
   */
  async record(
    enterpriseId: string,
    teamIds: readonly string[],
    access: WorkspaceAccess['access'],
    sentAt: number,
  ): Promise<{ recorded: string[]; older: string[] }> {
    const recorded: string[] = [];
    const older: string[] = [];
    for (const teamId of new Set(teamIds)) {
      const key = workspaceKey(enterpriseId, teamId);
      const kept = await this.#values.get(key);
      if (kept && kept.at > sentAt) {
        older.push(teamId);
        this.#answers.set(key, kept.access === 'granted');
        continue;
      }
      await this.#values.set(key, { access, at: sentAt });
      this.#answers.set(key, access === 'granted');
      await this.#changed?.(key);
      recorded.push(teamId);
    }
    return { recorded, older };
  }

  /** False once access to the team was revoked and not granted since; a team never named answers. */
  async answersIn(enterpriseId: string, teamId: string): Promise<boolean> {
    const key = workspaceKey(enterpriseId, teamId);
    const cached = this.#answers.get(key);
    if (cached !== undefined) return cached;
    const answers = (await this.#values.get(key))?.access !== 'revoked';
    this.#answers.set(key, answers);
    return answers;
  }

  /** Another replica recorded it (`<enterprise>:<team>`). */
  forget(key: string): void {
    this.#answers.delete(key);
  }
}

/**
 * The query to authorize a request with: an org's access event is the org's, even when its envelope
 * names a workspace the org's install no longer answers in (else it could never be granted back).
 */
export function queryOfRequest(
  source: InstallationQuery<boolean>,
  body: unknown,
): InstallationQuery<boolean> {
  return orgAccessBodySchema.safeParse(body).success ? { ...source, teamId: undefined } : source;
}
