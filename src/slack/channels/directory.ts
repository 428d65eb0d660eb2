// Every channel's settings, held in process and read again from the shared store every few seconds,
// so deciding what to do with a message costs no store call (a channel in `all` mode can be busy)
// and a change made on one replica applies on every other within the refresh.
import type { ChannelSettings } from '../../conversation/channel-settings.js';
import { mergeChannelSettings } from '../../conversation/channel-settings.js';
import type { Locale } from '../../conversation/locale.js';
import type { Placement } from '../../conversation/types.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import type { Placements } from '../handling/placements.js';
import type { ChannelSettingsStore, StoredChannelSettings } from './stores.js';

/** What a channel does with what is said in it: its settings over the environment's defaults. */
export interface ChannelPolicy {
  placement: Placement;
  answer: NonNullable<ChannelSettings['answer']>;
  askers: NonNullable<ChannelSettings['askers']>;
  escalate: NonNullable<ChannelSettings['escalate']>;
}

const LANGUAGE_LOCALES: Record<NonNullable<ChannelSettings['lang']>, Placement['language']> = {
  auto: 'auto',
  en: 'en',
  zh: 'zh-CN' satisfies Locale,
};

/**
 * Every replica applies a change within 5 seconds: a read every 2.5 s leaves half of that
 * for a busy replica's late timer and the read itself (docs/decisions/016).
 */
const CHANNEL_REFRESH_MS = 2_500;

export interface ChannelDirectoryOptions {
  /** How a question is asked in a channel without settings of its own (CS_ROBOT_FLAG, CS_SOURCE). */
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

  /** Reads every channel's settings, then again every refresh until stop. A store down at start is logged, not fatal. */
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

  /** One read of the store at a time; the last good copy stays while the store is down. */
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

  /** What the channel does; the defaults for a channel without settings. Synchronous: no store call. */
  policyOf(channelId: string): ChannelPolicy {
    return this.#policies.get(channelId) ?? this.#defaults;
  }

  at(place: { channelId: string }): Promise<Placement> {
    return Promise.resolve(this.policyOf(place.channelId).placement);
  }

  /** The channel's own settings as last read, with who set them; undefined when it has none. */
  settingsOf(channelId: string): StoredChannelSettings | undefined {
    return this.#channels.get(channelId);
  }

  /** Every channel with settings, as last read. */
  list(): ReadonlyMap<string, StoredChannelSettings> {
    return this.#channels;
  }

  /**
   * Applies `change` over the channel's stored settings (read afresh, not from the copy in process)
   * and applies the result here at once; other replicas see it at their next refresh.
   */
  change(
    channelId: string,
    change: ChannelSettings,
    changedBy: string,
  ): Promise<{ before: ChannelSettings; after: ChannelSettings }> {
    return this.#write(channelId, changedBy, (before) => mergeChannelSettings(before, change));
  }

  /**
   * Puts `settings` in place of the channel's whole settings in one write (the edit modal: a key it
   * cleared goes back to the default); none at all returns the channel to the defaults.
   */
  replace(
    channelId: string,
    settings: ChannelSettings,
    changedBy: string,
  ): Promise<{ before: ChannelSettings; after: ChannelSettings }> {
    return this.#write(channelId, changedBy, () => settings);
  }

  /** Returns the channel to the defaults; what it had is returned (empty when it had none). */
  async reset(channelId: string): Promise<ChannelSettings> {
    return (await this.#write(channelId, '', () => ({}))).before;
  }

  /** One write of a channel's settings, from what is stored now; none left deletes the row. */
  async #write(
    channelId: string,
    changedBy: string,
    next: (before: ChannelSettings) => ChannelSettings,
  ): Promise<{ before: ChannelSettings; after: ChannelSettings }> {
    const before = (await this.#store.get(channelId))?.settings ?? {};
    const after = next(before);
    const channels = new Map(this.#channels);
    if (Object.keys(after).length === 0) {
      await this.#store.delete(channelId);
      channels.delete(channelId);
    } else {
      const stored = { settings: after, changedBy, changedAt: this.#now() };
      await this.#store.put(channelId, stored);
      channels.set(channelId, stored);
    }
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
