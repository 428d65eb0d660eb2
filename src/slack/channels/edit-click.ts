// Edit under a channel's settings: the operator's right checked again, as the message can be old.
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { RoomKit } from '../kit/room-kit.js';
import { readUsergroups } from '../kit/usergroups.js';
import { postToResponseUrl } from '../transport/response-url.js';
import { CHANNEL_ID } from './command-parser.js';
import { renderChannelSettingsModal } from './settings-modal.js';

type EditDeps = Pick<
  RoomKit,
  'logger' | 'inFlight' | 'users' | 'onEvent' | 'access' | 'channels' | 'responder'
>;

export function channelEditListener(deps: EditDeps): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'channel settings edit failed', async (handling, click) => {
    const channelId = click.value;
    const triggerId = click.payload.trigger_id;
    if (channelId === undefined || !CHANNEL_ID.test(channelId) || !triggerId) {
      handling.logger.warn({}, 'ignored a channel settings edit without a channel or trigger');
      return;
    }
    const { locale } = await handling.person(click.userId);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'channel_edit');
    const responseUrl = click.payload.response_url;
    if (refusal) {
      deps.onEvent('channel_modal', 'refused');
      if (responseUrl) {
        await postToResponseUrl(
          responseUrl,
          { message: { text: refusal, blocks: [] }, replace: false },
          handling.logger,
        );
      }
      return;
    }
    const view = renderChannelSettingsModal(
      locale,
      { channelId, responseUrl },
      deps.channels.settingsOf(handling.teamId, channelId)?.settings ?? {},
      await readUsergroups(handling.client, handling.logger),
    );
    const opened = await deps.responder.openModal(handling, triggerId, view);
    deps.onEvent('channel_modal', opened ? 'opened' : 'failed');
  });
}
