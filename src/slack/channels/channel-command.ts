// `/cs channel …` and `/cs channels`, for operators.
import { operatorRefusal } from '../access/operator-gate.js';
import type { SubcommandListener, SubcommandRequest } from '../handling/command.js';
import type { RoomKit } from '../kit/room-kit.js';
import { applyChannelChange } from './apply.js';
import { parseChannelCommand } from './command-parser.js';
import { t } from './messages.js';
import { channelMention, renderChannelList, renderChannelProblems, renderChannelSettings } from './views.js';

type ChannelCommandDeps = Pick<RoomKit, 'channels' | 'responder' | 'onEvent' | 'access'>;

/** Public (C…) and private (G…): settings are for channels, not DMs. */
const CHANNEL_ID = /^[CG][A-Z0-9]+$/;

export function channelSubcommands(deps: ChannelCommandDeps): [word: string, listener: SubcommandListener][] {
  return [
    ['channel', (request) => channelCommand(deps, request)],
    ['channels', (request) => channelsCommand(deps, request)],
  ];
}

async function channelCommand(deps: ChannelCommandDeps, request: SubcommandRequest): Promise<void> {
  const { handling, userId, locale, command, reply } = request;
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'command_channel');
  if (refusal) {
    await reply({ text: refusal, blocks: [] });
    return;
  }
  const parsed = parseChannelCommand(request.rest, command);
  if (parsed.kind === 'invalid') {
    deps.onEvent('channel_settings', 'invalid');
    await reply(renderChannelProblems(locale, command, parsed.problems));
    return;
  }
  const channelId = parsed.channel ?? request.channelId;
  if (!CHANNEL_ID.test(channelId)) {
    const text = t(locale, 'in_dm', { command });
    await reply({ text, blocks: [] });
    return;
  }
  if (parsed.kind === 'show') {
    const stored = deps.channels.settingsOf(handling.teamId, channelId);
    await reply(renderChannelSettings(locale, { channelId, stored, heading: 'show', command }));
    return;
  }
  const applied = await applyChannelChange(deps, handling, {
    channelId,
    userId,
    locale,
    change: parsed.kind === 'reset' ? { kind: 'reset' } : { kind: 'set', change: parsed.change },
  });
  switch (applied.kind) {
    case 'not_member': {
      const app = request.appUserId === undefined ? '@app' : `<@${request.appUserId}>`;
      const text = t(locale, 'not_member', { channel: channelMention(channelId), app });
      await reply({ text, blocks: [] });
      return;
    }
    case 'failed': {
      const text = t(locale, 'store_failed');
      await reply({ text, blocks: [] });
      return;
    }
    case 'applied':
      await reply(
        renderChannelSettings(locale, {
          channelId,
          stored: deps.channels.settingsOf(handling.teamId, channelId),
          heading: parsed.kind === 'reset' ? 'reset' : 'saved',
          command,
        }),
      );
      await applied.announce();
  }
}

async function channelsCommand(deps: ChannelCommandDeps, request: SubcommandRequest): Promise<void> {
  const { handling, userId, locale, command, reply } = request;
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'command_channels');
  if (refusal) {
    await reply({ text: refusal, blocks: [] });
    return;
  }
  await reply(renderChannelList(locale, command, deps.channels.list(handling.teamId)));
}
