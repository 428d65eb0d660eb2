// Every channel's settings held in process and reread often: deciding on a message costs no store call.
// Stored under the channel's workspace key; one stored under its channel alone (before keys carried
// their workspace) applies in every workspace until that channel is next changed, then moves.
import type { ChannelSettings } from '../../conversation/channel-settings.js';
import { mergeChannelSettings } from '../../conversation/channel-settings.js';
import type { Locale } from '../../conversation/locale.js';
import type { Placement } from '../../conversation/types.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import type { Placements } from '../handling/placements.js';
import { workspaceKey } from '../handling/workspace.js';
import type { ChannelSettingsStore, StoredChannelSettings } from './stores.js';

/** Its settings over the environment's defaults. */
export interface ChannelPolicy {
  placement: Placement;
  answer: NonNullable<ChannelSettings['answer']>;
  askers: NonNullable<ChannelSettings['askers']>;
  escalate: NonNullable<ChannelSettings['escalate']>;
}

export const LANGUAGE_LOCALES: Record<NonNullable<ChannelSettings['lang']>, Placement['language']> = {
  auto: 'auto',
  en: 'en',
  zh: 'zh-CN' satisfies Locale,
};

/** Every replica applies a change within 5 s, leaving room for a late timer (docs/decisions/016). */
const CHANNEL_REFRESH_MS = 2_500;

export interface ChannelDirectoryOptions {
  /** For a channel without settings of its own (CS_ROBOT_FLAG, CS_SOURCE). */
  defaults: Placement;
  logger: Pick<Logger, 'warn' | 'info'>;
  refreshMs?: number;
  now?: () => number;
}

export class ChannelDirectory implements Placements {
  readonly #store: ChannelSettingsStore;
  readonly #defaults: ChannelPolicy;
  readonly #logger: Pick<Logger, 'warn' | 'info'>;
  readonly #refreshMs: number;
  readonly #now: () => number;
  #channels = new Map<string, StoredChannelSettings>();
  #policies = new Map<string, ChannelPolicy>();
  #timer: NodeJS.Timeout | undefined;
  #refreshing: Promise<void> | undefined;
  #storeDown = false;

  constructor(store: ChannelSettingsStore, options: ChannelDirectoryOptions) {
    this.#store = store;
    this.#defaults = { placement: options.defaults, answer: 'mention', askers: 'anyone', escalate: 'off' };
    this.#logger = options.logger;
    this.#refreshMs = options.refreshMs ?? CHANNEL_REFRESH_MS;
    this.#now = options.now ?? Date.now;
  }

  /** A store down at start is logged, not fatal. */
  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh(), this.#refreshMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#refreshing;
  }

  /** The last good copy stays while the store is down. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#store
      .all()
      .then((channels) => {
        this.#use(channels);
        if (this.#storeDown) this.#logger.info({}, 'channel settings readable again');
        this.#storeDown = false;
      })
      .catch((error: unknown) => {
        if (!this.#storeDown) {
          this.#logger.warn(errorFields(error), 'channel settings unreadable; keeping the last known');
        }
        this.#storeDown = true;
      })
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  /** Synchronous: no store call. */
  policyOf(workspace: string, channelId: string): ChannelPolicy {
    return (
      this.#policies.get(workspaceKey(workspace, channelId)) ??
      this.#policies.get(channelId) ??
      this.#defaults
    );
  }

  at(place: { teamId: string; channelId: string }): Promise<Placement> {
    return Promise.resolve(this.policyOf(place.teamId, place.channelId).placement);
  }

  settingsOf(workspace: string, channelId: string): StoredChannelSettings | undefined {
    return this.#channels.get(workspaceKey(workspace, channelId)) ?? this.#channels.get(channelId);
  }

  /** The workspace's channels by id. */
  list(workspace: string): ReadonlyMap<string, StoredChannelSettings> {
    const own = workspaceKey(workspace, '');
    const channels = new Map<string, StoredChannelSettings>();
    for (const [key, stored] of this.#channels) {
      if (key.startsWith(own)) channels.set(key.slice(own.length), stored);
      else if (!key.includes(':') && !this.#channels.has(`${own}${key}`)) channels.set(key, stored);
    }
    return channels;
  }

  /**
   * Drops the workspace's channels from this process's copy, once the store has none (an uninstall);
   * other replicas drop them at their next refresh.
   */
  async forget(workspace: string): Promise<void> {
    // A read begun before the store let them go would bring them back.
    await this.#refreshing;
    const own = workspaceKey(workspace, '');
    this.#use(new Map([...this.#channels].filter(([key]) => !key.startsWith(own))));
  }

  /** Read afresh from the store, not from the copy in process. */
  change(
    workspace: string,
    channelId: string,
    change: ChannelSettings,
    changedBy: string,
  ): Promise<{ before: ChannelSettings; after: ChannelSettings }> {
    return this.#write(workspace, channelId, changedBy, (before) => mergeChannelSettings(before, change));
  }

  /** One write (the edit modal: a key it cleared goes back to the default). */
  replace(
    workspace: string,
    channelId: string,
    settings: ChannelSettings,
    changedBy: string,
  ): Promise<{ before: ChannelSettings; after: ChannelSettings }> {
    return this.#write(workspace, channelId, changedBy, () => settings);
  }

  /** What it had is returned. */
  async reset(workspace: string, channelId: string): Promise<ChannelSettings> {
    return (await this.#write(workspace, channelId, '', () => ({}))).before;
  }

  /** None left deletes the row; a row under the channel alone is moved to the workspace's key. */
  async #write(
    workspace: string,
    channelId: string,
    changedBy: string,
    next: (before: ChannelSettings) => ChannelSettings,
  ): Promise<{ before: ChannelSettings; after: ChannelSettings }> {
    const key = workspaceKey(workspace, channelId);
    const own = await this.#store.get(key);
    const unmoved = own === undefined ? await this.#store.get(channelId) : undefined;
    const before = (own ?? unmoved)?.settings ?? {};
    const after = next(before);
    const channels = new Map(this.#channels);
    if (Object.keys(after).length === 0) {
      await this.#store.delete(key);
      channels.delete(key);
    } else {
      const written = { settings: after, changedBy, changedAt: this.#now() };
      await this.#store.put(key, written);
      channels.set(key, written);
    }
    // Only once the workspace's row is written: a failed write loses nothing.
    if (channels.delete(channelId) || unmoved !== undefined) await this.#store.delete(channelId);
    this.#use(channels);
    return { before, after };
  }

  #use(channels: Map<string, StoredChannelSettings>): void {
    const policies = new Map<string, ChannelPolicy>();
    for (const [channelId, { settings }] of channels) policies.set(channelId, this.#policy(settings));
    this.#channels = channels;
    this.#policies = policies;
  }

  #policy(settings: ChannelSettings): ChannelPolicy {
    const defaults = this.#defaults;
    return {
      placement: {
        ...defaults.placement,
        ...(settings.robot !== undefined && { robotFlag: settings.robot }),
        ...(settings.lang !== undefined && { language: LANGUAGE_LOCALES[settings.lang] }),
        ...(settings.reply !== undefined && { reply: settings.reply }),
      },
      answer: settings.answer ?? defaults.answer,
      askers: settings.askers ?? defaults.askers,
      escalate: settings.escalate ?? defaults.escalate,
    };
  }
}
