import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { channelSubcommands } from './channel-command.js';
import { channelEditListener } from './edit-click.js';
import { ACTION_CHANNEL_EDIT, VIEW_CHANNEL_SETTINGS } from './ids.js';
import { t } from './messages.js';
import { channelSettingsSubmitListener } from './settings-submit.js';

export function channelsRoom(deps: RoomKit): Room {
  const { settings } = deps;
  return {
    subcommands: channelSubcommands(deps),
    commandHelp: (locale, command) => t(locale, 'command_help', { command }),
    clicks: [[ACTION_CHANNEL_EDIT, channelEditListener(deps)]],
    submissions: [[VIEW_CHANNEL_SETTINGS, channelSettingsSubmitListener(deps, settings)]],
  };
}
