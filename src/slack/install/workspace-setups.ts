// Each workspace's own set-up, made by its operators in the Home tab: its platform account (sealed,
// so no key is kept in clear) and its default robot; read as every answer asks, so cached a minute.
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { type SealedJson, type SealedValues, type Sealer, sealedJson } from '../../stores/sealing.js';
import { httpUrlSchema } from '../../util/http-url.js';
import { takeWithin } from '../../util/take-within.js';

/** Slack's user-group ids. */
export const USERGROUP_ID = /^S[A-Z0-9]{2,30}$/;
/** A public or private channel's id: a DM cannot take the weekly figures or the review cards. */
export const CHANNEL_ID = /^[CG][A-Z0-9]{2,30}$/;

const text = (max: number) => z.string().trim().min(1).max(max);

export const platformAccountSchema = z.object({
  /** The platform's {open_url}, without a trailing slash. */
  openUrl: httpUrlSchema.pipe(z.string().max(500)),
  sysNum: text(64),
  credential: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('fetched'), appId: text(200), appKey: text(200) }),
    z.object({ kind: z.literal('static'), accessToken: text(40) }),
  ]),
});

export type WorkspacePlatformAccount = z.infer<typeof platformAccountSchema>;

const setupSchema = z.object({
  account: platformAccountSchema,
  /** The robot asked where a channel names none; undefined: the platform's default one. */
  robotFlag: z.number().int().min(0).max(999_999).exactOptional(),
  /** A user group whose members are this workspace's operators too. */
  operatorGroupId: z.string().regex(USERGROUP_ID).exactOptional(),
  /** Where this workspace's review cards are posted; undefined: REVIEW_CHANNEL_ID's, else no cards here. */
  reviewChannelId: z.string().regex(CHANNEL_ID).exactOptional(),
  /** Where DIGEST_SCHEDULE posts this workspace's figures; undefined: no digest here. */
  digestChannelId: z.string().regex(CHANNEL_ID).exactOptional(),
  /** Who saved it last, and when (ms). */
  setBy: z.string().min(1).max(64),
  setAt: z.number(),
});

export type WorkspaceSetup = z.infer<typeof setupSchema>;

const CACHE_MS = 60_000;

/** The workspaces whose set-up names a digest channel: what the digest's schedule walks. */
interface DigestWorkspaceIndex {
  get(key: string): Promise<string[] | undefined>;
  set(key: string, value: string[]): Promise<void>;
  claim(key: string, ttlSeconds?: number): Promise<boolean>;
  release(key: string): Promise<void>;
}

const INDEX_KEY = 'all';
const INDEX_LOCK = 'lock';
const INDEX_LOCK_SECONDS = 5;
/** How long a save waits for another replica's change of the index, and how often it looks. */
const INDEX_WAIT = { waitMs: 2_000, pollMs: 50 };

/** Another replica held the digest index past the wait: the set-up is not saved, to be tried again. */
class DigestIndexBusyError extends Error {}

/** Undefined in the cache: looked up and none stored (the environment's defaults apply). */
type Cached = { setup: WorkspaceSetup | undefined };

interface SetupOptions {
  /** Tells the other replicas, whose caches then `forget` it; never rejects. */
  changed?: ((workspace: string) => Promise<void>) | undefined;
  /** Where the workspaces with a digest are listed; without it none is listed. */
  digests?: DigestWorkspaceIndex | undefined;
}

export class WorkspaceSetups {
  readonly #values: SealedJson<WorkspaceSetup>;
  readonly #cache = new LRUCache<string, Cached>({ max: 10_000, ttl: CACHE_MS });
  readonly #options: SetupOptions;
  /** What this process keeps that a set-up decides (the Home's figures), told of every change seen. */
  readonly #watchers: Array<(workspace: string) => void> = [];

  constructor(values: SealedValues, sealer: Sealer, options: SetupOptions = {}) {
    this.#values = sealedJson(values, sealer, 'workspace-setups', setupSchema);
    this.#options = options;
  }

  /** The workspaces whose set-up named a digest channel (one removed since is skipped by its reader). */
  async withDigest(): Promise<string[]> {
    return (await this.#options.digests?.get(INDEX_KEY)) ?? [];
  }

  /** The workspace's set-up (an org-wide install's: its enterprise's); undefined when none is stored. */
  async get(workspace: string): Promise<WorkspaceSetup | undefined> {
    const cached = this.#cache.get(workspace);
    if (cached) return cached.setup;
    const setup = await this.#values.get(workspace);
    this.#cache.set(workspace, { setup });
    return setup;
  }

  async set(workspace: string, setup: WorkspaceSetup): Promise<void> {
    const checked = setupSchema.parse(setup);
    await this.#listDigest(workspace, checked.digestChannelId !== undefined);
    await this.#values.set(workspace, checked);
    this.#cache.set(workspace, { setup: checked });
    this.#tellWatchers(workspace);
    await this.#options.changed?.(workspace);
  }

  async delete(workspace: string): Promise<void> {
    this.#cache.delete(workspace);
    await this.#values.delete(workspace);
    // Left listed, it is skipped: the digest reads each set-up before posting.
    await this.#listDigest(workspace, false).catch(() => undefined);
    this.#tellWatchers(workspace);
    await this.#options.changed?.(workspace);
  }

  /** Another replica changed or removed it. */
  forget(workspace: string): void {
    this.#cache.delete(workspace);
    this.#tellWatchers(workspace);
  }

  /** Adds the workspace to the digest index, or takes it out, under a lock every replica honours. */
  async #listDigest(workspace: string, listed: boolean): Promise<void> {
    const index = this.#options.digests;
    if (!index) return;
    const current = await index.get(INDEX_KEY);
    if ((current ?? []).includes(workspace) === listed) return;
    const taken = await takeWithin(() => index.claim(INDEX_LOCK, INDEX_LOCK_SECONDS), INDEX_WAIT);
    if (!taken) throw new DigestIndexBusyError('the digest index is being changed elsewhere');
    try {
      const workspaces = new Set(await index.get(INDEX_KEY));
      if (listed) workspaces.add(workspace);
      else workspaces.delete(workspace);
      await index.set(INDEX_KEY, [...workspaces]);
    } finally {
      await index.release(INDEX_LOCK);
    }
  }

  /** `watcher` is told the workspace of every change, made here or told by another replica. */
  watch(watcher: (workspace: string) => void): void {
    this.#watchers.push(watcher);
  }

  #tellWatchers(workspace: string): void {
    for (const watcher of this.#watchers) watcher(workspace);
  }
}
