// A channel's own settings: partial overrides of the environment's defaults. A key a
// channel has not set is absent, and the default applies there.
import { z } from 'zod';

/** The keys in the order people see them: `/cs channel robot:2 answer:questions …`. */
export const CHANNEL_SETTING_KEYS = ['robot', 'answer', 'reply', 'escalate', 'askers', 'lang'] as const;
export type ChannelSettingKey = (typeof CHANNEL_SETTING_KEYS)[number];

/** `mention`: only when the app is mentioned; `questions`: also messages that read as one; `all`. */
export const ANSWER_MODES = ['mention', 'questions', 'all'] as const;
/** `ephemeral`: the answer is shown to the asker only. */
export const REPLY_STYLES = ['thread', 'ephemeral'] as const;
/** `auto`: each person's own language. */
export const CHANNEL_LANGUAGES = ['auto', 'en', 'zh'] as const;

/** The largest robot number taken: the platform's robotFlag is an integer, and past 32 bits it is a typo. */
export const MAX_ROBOT_FLAG = 2 ** 31 - 1;

// Slack's id shapes: people are U… (or W… on Enterprise Grid), user groups S….
const USER_ID = /^[UW][A-Z0-9]+$/;
const GROUP_ID = /^S[A-Z0-9]+$/;

const peopleSchema = z
  .strictObject({
    users: z.array(z.string().regex(USER_ID)),
    groups: z.array(z.string().regex(GROUP_ID)),
  })
  // Nobody to call or to listen to is spelled `off` or `anyone`, never an empty list.
  .refine((people) => people.users.length + people.groups.length > 0, 'name at least one person or group');

/** People and user groups, by Slack id. */
export type People = z.infer<typeof peopleSchema>;

/** Strict: a stored value written by another version is refused rather than half understood. */
export const channelSettingsSchema = z.strictObject({
  robot: z.number().int().min(0).max(MAX_ROBOT_FLAG).optional(),
  answer: z.enum(ANSWER_MODES).optional(),
  reply: z.enum(REPLY_STYLES).optional(),
  escalate: z.union([z.literal('off'), peopleSchema]).optional(),
  askers: z.union([z.literal('anyone'), peopleSchema]).optional(),
  lang: z.enum(CHANNEL_LANGUAGES).optional(),
});

export type ChannelSettings = z.infer<typeof channelSettingsSchema>;

/** `change` applied over `current`: a key `change` leaves out (or leaves undefined) stays as it is. */
export function mergeChannelSettings(current: ChannelSettings, change: ChannelSettings): ChannelSettings {
  return {
    ...current,
    ...(change.robot !== undefined && { robot: change.robot }),
    ...(change.answer !== undefined && { answer: change.answer }),
    ...(change.reply !== undefined && { reply: change.reply }),
    ...(change.escalate !== undefined && { escalate: change.escalate }),
    ...(change.askers !== undefined && { askers: change.askers }),
    ...(change.lang !== undefined && { lang: change.lang }),
  };
}
