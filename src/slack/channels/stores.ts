// Each channel's settings, kept until an operator resets them: a channel set up once stays set up.
import { z } from 'zod';
import { channelSettingsSchema } from '../../conversation/channel-settings.js';

/** Who set them last and when, for `/cs channels` and the audit. */
export const storedChannelSettingsSchema = z.strictObject({
  settings: channelSettingsSchema,
  changedBy: z.string().min(1),
  changedAt: z.number().int().nonnegative(),
});

export type StoredChannelSettings = z.infer<typeof storedChannelSettingsSchema>;

/** Few, so every replica reads them all often; a value that does not read back gets the defaults. */
export interface ChannelSettingsStore {
  all(): Promise<Map<string, StoredChannelSettings>>;
  get(channelId: string): Promise<StoredChannelSettings | undefined>;
  put(channelId: string, stored: StoredChannelSettings): Promise<void>;
  delete(channelId: string): Promise<void>;
}
