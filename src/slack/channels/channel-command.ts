// `/cs channel …` and `/cs channels`, for operators.
import { operatorRefusal } from '../access/operator-gate.js';
import type { SubcommandListener, SubcommandRequest } from '../handling/command.js';
import type { RoomKit } from '../kit/room-kit.js';
import { applyChannelChange } from './apply.js';
import { CHANNEL_ID, parseChannelCommand } from './command-parser.js';
import { t } from './messages.js';
import { channelMention, renderChannelList, renderChannelProblems, renderChannelSettings } from './views.js';

type ChannelCommandDeps = Pick<RoomKit, 'channels' | 'responder' | 'onEvent' | 'access'>;

export function channelSubcommands(deps: ChannelCommandDeps): [word: string, listener: SubcommandListener][] {
  return [
    ['channel', (request) => channelCommand(deps, request)],
    ['channels', (request) => channelsCommand(deps, request)],
  ];
}

async function channelCommand(deps: ChannelCommandDeps, request: SubcommandRequest): Promise<void> {
  const { handling, userId, locale, command, reply } = request;
  const say = (text: string) => reply({ text, blocks: [] });
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'command_channel');
  if (refusal) return say(refusal);
  const parsed = parseChannelCommand(request.rest);
  if (parsed.kind === 'invalid') {
    deps.onEvent('channel_settings', 'invalid');
    return reply(renderChannelProblems(locale, command, parsed.problems));
  }
  const channelId = parsed.channel ?? request.channelId;
  if (!CHANNEL_ID.test(channelId)) return say(t(locale, 'in_dm', { command }));
  if (parsed.kind === 'show') {
    const stored = deps.channels.settingsOf(handling.teamId, channelId);
    return reply(renderChannelSettings(locale, { channelId, stored, heading: 'show', command }));
  }
  const applied = await applyChannelChange(deps, handling, {
    channelId,
    userId,
    locale,
    change: parsed.kind === 'reset' ? { kind: 'reset' } : { kind: 'set', settings: parsed.change },
  });
  switch (applied.kind) {
    case 'not_member': {
      const app = request.appUserId === undefined ? '@app' : `<@${request.appUserId}>`;
      return say(t(locale, 'not_member', { channel: channelMention(channelId), app }));
    }
    case 'failed':
      return say(t(locale, 'store_failed'));
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
  if (refusal) return reply({ text: refusal, blocks: [] });
  await reply(renderChannelList(locale, command, deps.channels.list(handling.teamId)));
}
