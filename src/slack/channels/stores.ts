// What the channels room keeps: each channel's settings, shared by every replica and kept until an
// operator resets them (no lifetime: a channel set up once stays set up).
import { z } from 'zod';
import { type ChannelSettings, channelSettingsSchema } from '../../conversation/channel-settings.js';

/** A channel's settings as stored: with who set them last and when (`/cs channels`, the audit). */
export interface StoredChannelSettings {
  settings: ChannelSettings;
  /** Slack user id of the operator who changed them last. */
  changedBy: string;
  /** Milliseconds since the epoch. */
  changedAt: number;
}

export const storedChannelSettingsSchema = z.strictObject({
  settings: channelSettingsSchema,
  changedBy: z.string().min(1),
  changedAt: z.number().int().nonnegative(),
});

/**
 * Settings by channel id. Few (channels an operator set up), so every replica reads them all at once
 * and often; a stored value that does not read back is left out, and that channel has the defaults.
 */
export interface ChannelSettingsStore {
  all(): Promise<Map<string, StoredChannelSettings>>;
  get(channelId: string): Promise<StoredChannelSettings | undefined>;
  put(channelId: string, stored: StoredChannelSettings): Promise<void>;
  delete(channelId: string): Promise<void>;
}
