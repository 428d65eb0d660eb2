// Each workspace's own set-up, made by its operators in the Home tab: its platform account (sealed,
// so no key is kept in clear) and its default robot; read as every answer asks, so cached a minute.
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Sealer } from '../../stores/sealing.js';
import { httpUrlSchema } from '../../util/http-url.js';
import { parseJsonWith } from '../../util/json.js';
import type { SealedValues } from './installations.js';

/** Slack's user-group ids. */
export const USERGROUP_ID = /^S[A-Z0-9]{2,30}$/;

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
  /** Who saved it last, and when (ms). */
  setBy: z.string().min(1).max(64),
  setAt: z.number(),
});

export type WorkspaceSetup = z.infer<typeof setupSchema>;

const CACHE_MS = 60_000;

/** Undefined in the cache: looked up and none stored (the environment's defaults apply). */
type Cached = { setup: WorkspaceSetup | undefined };

export class WorkspaceSetups {
  readonly #values: SealedValues;
  readonly #sealer: Sealer;
  readonly #cache = new LRUCache<string, Cached>({ max: 10_000, ttl: CACHE_MS });
  /** Tells the other replicas, whose caches then `forget` it; never rejects. */
  readonly #changed: ((workspace: string) => Promise<void>) | undefined;
  /** What this process keeps that a set-up decides (the Home's figures), told of every change seen. */
  readonly #watchers: Array<(workspace: string) => void> = [];

  constructor(
    values: SealedValues,
    sealer: Sealer,
    options: { changed?: ((workspace: string) => Promise<void>) | undefined } = {},
  ) {
    this.#values = values;
    this.#sealer = sealer;
    this.#changed = options.changed;
  }

  /** The workspace's set-up (an org-wide install's: its enterprise's); undefined when none is stored. */
  async get(workspace: string): Promise<WorkspaceSetup | undefined> {
    const cached = this.#cache.get(workspace);
    if (cached) return cached.setup;
    const sealed = await this.#values.get(workspace);
    const opened = sealed === undefined ? undefined : this.#sealer.open(sealed, binding(workspace));
    const setup = parseJsonWith(opened, setupSchema);
    this.#cache.set(workspace, { setup });
    return setup;
  }

  async set(workspace: string, setup: WorkspaceSetup): Promise<void> {
    const checked = setupSchema.parse(setup);
    await this.#values.set(workspace, this.#sealer.seal(JSON.stringify(checked), binding(workspace)));
    this.#cache.set(workspace, { setup: checked });
    this.#tellWatchers(workspace);
    await this.#changed?.(workspace);
  }

  async delete(workspace: string): Promise<void> {
    this.#cache.delete(workspace);
    await this.#values.delete(workspace);
    this.#tellWatchers(workspace);
    await this.#changed?.(workspace);
  }

  /** Another replica changed or removed it. */
  forget(workspace: string): void {
    this.#cache.delete(workspace);
    this.#tellWatchers(workspace);
  }

  /** `watcher` is told the workspace of every change, made here or told by another replica. */
  watch(watcher: (workspace: string) => void): void {
    this.#watchers.push(watcher);
  }

  #tellWatchers(workspace: string): void {
    for (const watcher of this.#watchers) watcher(workspace);
  }
}

function binding(workspace: string): string {
  return `workspace-setups:${workspace}`;
}
