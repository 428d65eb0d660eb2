// A channel's own settings: partial overrides of the environment's defaults; an unset key is absent.
import { z } from 'zod';

/** In the order people see them. */
export const CHANNEL_SETTING_KEYS = ['robot', 'answer', 'reply', 'escalate', 'askers', 'lang'] as const;
export type ChannelSettingKey = (typeof CHANNEL_SETTING_KEYS)[number];

/** `questions`: also messages that read as one. */
export const ANSWER_MODES = ['mention', 'questions', 'all'] as const;
export const REPLY_STYLES = ['thread', 'ephemeral'] as const;
export const CHANNEL_LANGUAGES = ['auto', 'en', 'zh'] as const;

/** The platform's robotFlag is an integer: past 32 bits it is a typo. */
export const MAX_ROBOT_FLAG = 2 ** 31 - 1;

// People are U… (or W… on Enterprise Grid), user groups S….
const USER_ID = /^[UW][A-Z0-9]+$/;
const GROUP_ID = /^S[A-Z0-9]+$/;

const peopleSchema = z
  .strictObject({
    users: z.array(z.string().regex(USER_ID)),
    groups: z.array(z.string().regex(GROUP_ID)),
  })
  // Nobody is spelled `off` or `anyone`, never an empty list.
  .refine((people) => people.users.length + people.groups.length > 0, 'name at least one person or group');

export type People = z.infer<typeof peopleSchema>;

/** Strict: a value written by another version is refused rather than half understood. */
export const channelSettingsSchema = z.strictObject({
  robot: z.number().int().min(0).max(MAX_ROBOT_FLAG).optional(),
  answer: z.enum(ANSWER_MODES).optional(),
  reply: z.enum(REPLY_STYLES).optional(),
  escalate: z.union([z.literal('off'), peopleSchema]).optional(),
  askers: z.union([z.literal('anyone'), peopleSchema]).optional(),
  lang: z.enum(CHANNEL_LANGUAGES).optional(),
});

export type ChannelSettings = z.infer<typeof channelSettingsSchema>;

/** A key `change` leaves out (or undefined) stays as it is. */
export function mergeChannelSettings(current: ChannelSettings, change: ChannelSettings): ChannelSettings {
  const changed = CHANNEL_SETTING_KEYS.filter((key) => change[key] !== undefined);
  return { ...current, ...Object.fromEntries(changed.map((key) => [key, change[key]] as const)) };
}
