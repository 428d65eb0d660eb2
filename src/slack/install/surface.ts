// Removing the app from a workspace: `app_uninstalled` and `tokens_revoked` remove its installation,
// once and in either order; one sent before a reinstall removes nothing newer than itself. An org's
// admin adding it to a workspace of the org, or taking it back: `team_access_granted` / `_revoked`.
import { z } from 'zod';
import { errorFields } from '../../logging/error-fields.js';
import type { EventArgs } from '../handling/pre-dispatch.js';
import type { Route } from '../handling/routes.js';
import type { Room } from '../handling/surface.js';
import { workspaceOf } from '../handling/workspace.js';
import type { RoomKit } from '../kit/room-kit.js';
import type { Installations, StoredInstallation } from './installations.js';
import type { OrgWorkspaces } from './org-workspaces.js';

const removalSchema = z.object({
  event_time: z.number().int().positive(),
  event: z.union([
    z.object({ type: z.literal('app_uninstalled') }),
    z.object({
      type: z.literal('tokens_revoked'),
      tokens: z.object({ bot: z.array(z.string()).optional() }),
    }),
  ]),
});

const accessSchema = z.object({
  event_time: z.number().int().positive(),
  event: z.object({
    type: z.enum(['team_access_granted', 'team_access_revoked']),
    team_ids: z.array(z.string().min(1).max(64)).min(1).max(10_000),
  }),
});

export function installRoom(kit: RoomKit): Room {
  const { installations, orgWorkspaces } = kit.sources;
  if (!installations) return {};
  const removal = removalListener(kit, installations);
  const events: Route<EventArgs>[] = [
    ['app_uninstalled', removal],
    ['tokens_revoked', removal],
  ];
  if (orgWorkspaces) {
    const access = accessListener(kit, orgWorkspaces);
    events.push(['team_access_granted', access], ['team_access_revoked', access]);
  }
  return { events };
}

function removalListener(
  kit: Pick<RoomKit, 'logger' | 'onEvent' | 'sources'>,
  installations: Installations,
): (args: EventArgs) => Promise<void> {
  return async ({ body, context }) => {
    const parsed = removalSchema.safeParse(body);
    if (!parsed.success) {
      kit.logger.warn({}, 'ignored an uninstall or revocation of unexpected shape');
      return;
    }
    const { event, event_time: sentAt } = parsed.data;
    // A revocation of user tokens alone leaves the app installed.
    const about =
      event.type === 'tokens_revoked'
        ? (stored: StoredInstallation) =>
            stored.bot !== undefined && (event.tokens.bot ?? []).includes(stored.bot.userId)
        : undefined;
    const query = {
      teamId: context.teamId,
      enterpriseId: context.enterpriseId,
      isEnterpriseInstall: context.isEnterpriseInstall === true,
    };
    const outcome = await installations.remove(query, sentAt * 1000, about);
    kit.onEvent(event.type, outcome);
    kit.logger.info({ teamId: context.teamId, enterpriseId: context.enterpriseId, outcome }, event.type);
    // Not after a reinstall ('newer'); 'absent' too, when the bot's tokens were revoked first.
    if (event.type === 'app_uninstalled' && outcome !== 'newer') await forgetData(kit, workspaceOf(context));
  };
}

async function forgetData(kit: Pick<RoomKit, 'logger' | 'sources'>, workspace: string): Promise<void> {
  const { forgetWorkspace } = kit.sources;
  if (!forgetWorkspace) return;
  try {
    const forgotten = await forgetWorkspace(workspace);
    kit.logger.info({ workspace, forgotten }, 'workspace data removed');
  } catch (error) {
    kit.logger.warn(
      { ...errorFields(error), workspace },
      'uninstalled, but its channel settings and cached names stay until the next uninstall',
    );
  }
}

/** Records the workspaces of the org the app was added to or taken from, each at most once. */
function accessListener(
  kit: Pick<RoomKit, 'logger' | 'onEvent'>,
  orgWorkspaces: OrgWorkspaces,
): (args: EventArgs) => Promise<void> {
  return async ({ body, context }) => {
    const parsed = accessSchema.safeParse(body);
    const enterpriseId = context.enterpriseId;
    if (!parsed.success || !enterpriseId) {
      kit.logger.warn({ enterpriseId }, 'ignored a workspace access event of unexpected shape');
      return;
    }
    const { event, event_time: sentAt } = parsed.data;
    const access = event.type === 'team_access_granted' ? 'granted' : 'revoked';
    const { recorded, older } = await orgWorkspaces.record(
      enterpriseId,
      event.team_ids,
      access,
      sentAt * 1000,
    );
    kit.onEvent(event.type, recorded.length > 0 ? 'recorded' : 'older');
    kit.logger.info({ enterpriseId, teamIds: recorded, olderFor: older }, event.type);
  };
}
