// Names and locales of Slack users, cached so one question costs no extra users.info.
import type { webApi } from '@slack/bolt';
import { z } from 'zod';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { parseJsonWith } from '../../util/json.js';
import { isTimeZone } from '../../util/time-zone.js';
import { localeFromSlack } from '../kit/i18n.js';
import type { NameCache } from './stores.js';
import { workspaceKey } from './workspace.js';

type WebClient = webApi.WebClient;

export interface SlackUser {
  displayName: string;
  locale: Locale;
  /** Undefined when unknown or not one this runtime knows. */
  timeZone?: string;
}

const cachedUserSchema = z.object({ n: z.string(), l: z.string().optional(), z: z.string().optional() });

const usersInfoSchema = z.object({
  user: z
    .object({
      name: z.string().optional(),
      real_name: z.string().optional(),
      locale: z.string().optional(),
      tz: z.string().nullish(),
      profile: z.object({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
    })
    .optional(),
});

const USER_CACHE_TTL_SECONDS = 3600;

export interface UserLookup {
  /** `logger`: the handling's, so a failed lookup is logged with the question it delayed. */
  lookup(client: WebClient, workspace: string, userId: string, logger: Logger): Promise<SlackUser>;
}

export class UserDirectory implements UserLookup {
  readonly #cache: NameCache;
  readonly #defaultLocale: Locale;

  constructor(cache: NameCache, defaultLocale: Locale) {
    this.#cache = cache;
    this.#defaultLocale = defaultLocale;
  }

  async lookup(client: WebClient, workspace: string, userId: string, logger: Logger): Promise<SlackUser> {
    const key = workspaceKey(workspace, userId);
    const cached = await this.#cache.get(key).catch((error: unknown) => {
      logger.warn(errorFields(error), 'user cache unavailable; asking Slack');
      return undefined;
    });
    const hit = cached === undefined ? undefined : parseJsonWith(cached, cachedUserSchema);
    if (hit) return this.#user(hit.n, hit.l, hit.z);

    let user: SlackUser = { displayName: userId, locale: this.#defaultLocale };
    let slackLocale: string | undefined;
    try {
      const response = usersInfoSchema.parse(await client.users.info({ user: userId, include_locale: true }));
      const info = response.user;
      const name = info?.profile?.display_name || info?.profile?.real_name || info?.real_name || info?.name;
      slackLocale = info?.locale;
      user = this.#user(name?.trim() || userId, slackLocale, info?.tz ?? undefined);
    } catch (error) {
      // A missing name is cosmetic: answer under the user id, and do not cache the miss.
      logger.warn({ ...errorFields(error), userId }, 'users.info failed; using the user id as the name');
      return user;
    }
    await this.#cache
      .set(
        key,
        JSON.stringify({
          n: user.displayName,
          ...(slackLocale ? { l: slackLocale } : {}),
          ...(user.timeZone ? { z: user.timeZone } : {}),
        }),
        USER_CACHE_TTL_SECONDS,
      )
      .catch((error: unknown) => logger.warn(errorFields(error), 'user cache unavailable; name not cached'));
    return user;
  }

  #user(displayName: string, slackLocale: string | undefined, zone: string | undefined): SlackUser {
    // Slack's `tz` is shown to people, never trusted.
    const timeZone = zone !== undefined && isTimeZone(zone) ? zone : undefined;
    return {
      displayName,
      locale: localeFromSlack(slackLocale, this.#defaultLocale),
      ...(timeZone ? { timeZone } : {}),
    };
  }
}

/** Stable for one Slack user, distinct across users and workspaces. */
export function partnerIdFor(teamId: string, userId: string): string {
  return `slack-${teamId}-${userId}`;
}
