// The settings modal's Save: the operator's right checked again, as a modal can be submitted long after.
import { operatorRefusal } from '../access/operator-gate.js';
import { submissionListener } from '../handling/submission.js';
import type { ViewArgs } from '../handling/tracked.js';
import type { RoomKit } from '../kit/room-kit.js';
import { postToResponseUrl } from '../transport/response-url.js';
import { applyChannelChange } from './apply.js';
import { t } from './messages.js';
import {
  CHANNEL_FIELDS,
  channelFormProblemText,
  readChannelForm,
  readChannelModalMetadata,
} from './settings-modal.js';
import { renderChannelSettings } from './views.js';

type SubmitDeps = Pick<
  RoomKit,
  'logger' | 'inFlight' | 'users' | 'onEvent' | 'access' | 'channels' | 'responder'
>;

export function channelSettingsSubmitListener(
  deps: SubmitDeps,
  settings: { slashCommand: string },
): (args: ViewArgs) => Promise<void> {
  return submissionListener(
    deps,
    { name: 'channel settings submission', metadata: readChannelModalMetadata },
    async (handling, { userId, metadata, view, ack }) => {
      const { locale } = await handling.person(userId);
      const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'channel_submit');
      if (refusal) {
        deps.onEvent('channel_modal', 'refused');
        await ack({ response_action: 'errors', errors: { [CHANNEL_FIELDS.robot]: refusal } });
        return;
      }
      const form = readChannelForm(view);
      if (form.kind === 'invalid') {
        deps.onEvent('channel_modal', 'invalid');
        const errors = Object.fromEntries(
          form.problems.map((problem) => [problem.block, channelFormProblemText(locale, problem)]),
        );
        await ack({ response_action: 'errors', errors });
        return;
      }
      const { channelId } = metadata;
      const applied = await applyChannelChange(deps, handling, {
        channelId,
        userId,
        locale,
        change: { kind: 'replace', settings: form.settings },
      });
      if (applied.kind !== 'applied') {
        const errors =
          applied.kind === 'not_member'
            ? { [CHANNEL_FIELDS.answer]: t(locale, 'modal_not_member') }
            : { [CHANNEL_FIELDS.robot]: t(locale, 'modal_store_failed') };
        await ack({ response_action: 'errors', errors });
        return;
      }
      await ack();
      deps.onEvent('channel_modal', 'saved');
      if (metadata.responseUrl) {
        const message = renderChannelSettings(locale, {
          channelId,
          stored: deps.channels.settingsOf(handling.teamId, channelId),
          heading: 'saved',
          command: settings.slashCommand,
        });
        await postToResponseUrl(metadata.responseUrl, { message, replace: true }, handling.logger);
      }
      await applied.announce();
    },
  );
}
