// The Home's set-up button: the operator's right checked again (the tab may be old), then the modal.
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { RoomKit, WorkspaceSetupSources } from '../kit/room-kit.js';
import { readUsergroups } from '../kit/usergroups.js';
import { renderSetupModal } from './views.js';

type OpenDeps = Pick<RoomKit, 'logger' | 'inFlight' | 'users' | 'onEvent' | 'access' | 'responder'>;

export function setupOpenListener(
  deps: OpenDeps,
  setups: WorkspaceSetupSources,
): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'workspace set-up open failed', async (handling, click) => {
    const triggerId = click.payload.trigger_id;
    if (!triggerId) {
      handling.logger.warn({}, 'ignored a workspace set-up click without a trigger');
      return;
    }
    const { locale } = await handling.person(click.userId);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'setup_open');
    if (refusal) {
      deps.onEvent('workspace_setup', 'refused');
      const channel = await deps.responder.directMessage(handling, click.userId);
      if (channel) {
        await deps.responder.post(handling, { channel, threadTs: undefined }, { text: refusal, blocks: [] });
      }
      return;
    }
    // Unreadable reads as none: the form opens empty, and saving replaces what could not be read.
    const current = await setups.store.get(handling.teamId).catch((error: unknown) => {
      handling.logger.warn({ err: error }, 'workspace set-up not read for its form; opened empty');
      return undefined;
    });
    const usergroups = await readUsergroups(handling.client, handling.logger);
    const opened = await deps.responder.openModal(
      handling,
      triggerId,
      renderSetupModal(locale, current, {
        usergroups,
        digestScheduled: setups.digestScheduled,
        reviewDefault: setups.reviewDefault,
      }),
    );
    deps.onEvent('workspace_setup', opened ? 'opened' : 'failed');
  });
}
