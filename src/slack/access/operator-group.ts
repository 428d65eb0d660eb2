// The operators' group is read again when Slack says it changed, so a right counts from the next click.
import { z } from 'zod';
import type { BoltRequest } from '../handling/handling.js';
import { beginHandling } from '../handling/handling.js';
import type { RoomKit } from '../kit/room-kit.js';

/** subteam_members_changed names the group as subteam_id; subteam_updated carries the group. */
const usergroupEventSchema = z.union([
  z.object({ type: z.literal('subteam_members_changed'), subteam_id: z.string() }),
  z.object({ type: z.literal('subteam_updated'), subteam: z.object({ id: z.string() }) }),
]);

export function operatorGroupListener(
  deps: Pick<RoomKit, 'logger' | 'inFlight' | 'access' | 'onEvent' | 'users'>,
): (args: BoltRequest & { event: unknown }) => Promise<void> {
  return async (args) => {
    const { event } = args;
    const parsed = usergroupEventSchema.safeParse(event);
    if (!parsed.success) return;
    const usergroupId =
      parsed.data.type === 'subteam_members_changed' ? parsed.data.subteam_id : parsed.data.subteam.id;
    if (!deps.access.operators.watches(usergroupId)) return;
    const handling = beginHandling(args, deps);
    deps.onEvent(parsed.data.type, 'refresh');
    await deps.inFlight.track(
      handling,
      deps.access.operators.refresh(handling.client, handling.teamId, handling.logger),
      'operator group refresh failed',
    );
  };
}
