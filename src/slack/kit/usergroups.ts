// User groups for the modals that name them (Slack has no user-group select), read when one opens.
import type { types, webApi } from '@slack/bolt';
import { z } from 'zod';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { EXPIRED, within } from '../../util/deadline.js';
import { BLOCK_KIT } from './block-kit-limits.js';
import { option } from './inputs.js';

export interface UsergroupChoice {
  id: string;
  handle: string;
  name: string;
}

const usergroupsSchema = z.object({
  usergroups: z
    .array(
      z.object({
        id: z.string().regex(/^S[A-Z0-9]+$/),
        handle: z.string().max(500),
        name: z.string().max(500).default(''),
      }),
    )
    .default([]),
});

/** Slack gives a trigger 3 s to open the modal. */
const LIST_TIMEOUT_MS = 1_500;

/** Undefined (logged) when Slack did not list them in time. */
export async function readUsergroups(
  client: webApi.WebClient,
  logger: Logger,
  timeoutMs = LIST_TIMEOUT_MS,
): Promise<UsergroupChoice[] | undefined> {
  try {
    const answer = await within(client.usergroups.list({ include_users: false }), timeoutMs);
    if (answer === EXPIRED) {
      logger.warn({ timeoutMs }, 'user groups not listed in time; the modal asks for ids');
      return undefined;
    }
    const { usergroups } = usergroupsSchema.parse(answer);
    return usergroups.sort((a, b) => a.handle.localeCompare(b.handle));
  } catch (error) {
    logger.warn(errorFields(error), 'user groups could not be listed; the modal asks for ids');
    return undefined;
  }
}

/**
 * The groups as a select's options, with a `current` id Slack did not list kept as its own option;
 * undefined when they could not be listed or are more than a select holds: the ids are typed then.
 */
export function usergroupOptions(
  usergroups: readonly UsergroupChoice[] | undefined,
  current: readonly string[],
): types.PlainTextOption[] | undefined {
  if (!usergroups) return undefined;
  const options = [
    ...usergroups.map((group) => option(usergroupLabel(group), group.id)),
    ...current.filter((id) => !usergroups.some((group) => group.id === id)).map((id) => option(id, id)),
  ];
  return options.length > BLOCK_KIT.staticSelect.options ? undefined : options;
}

/** The handle people type, and the name when it says more. */
function usergroupLabel(group: UsergroupChoice): string {
  return group.name === '' || group.name === group.handle
    ? `@${group.handle}`
    : `@${group.handle} (${group.name})`;
}
