// Changing a channel's settings, typed or from the modal, one way: membership checked, written through
// the directory, an audit line, and the channel told when what people see there changed.
import type { ChannelSettings } from '../../conversation/channel-settings.js';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import type { Handling } from '../handling/handling.js';
import { placeLocale } from '../kit/i18n.js';
import type { RoomKit } from '../kit/room-kit.js';
import { slackErrorCode } from '../transport/responder.js';
import { LANGUAGE_LOCALES } from './directory.js';
import { renderChannelNotice } from './views.js';

type ApplyDeps = Pick<RoomKit, 'channels' | 'responder' | 'onEvent'>;

export type ChannelChange =
  /** Keys given are set; the others stay (the typed command). */
  | { kind: 'set'; settings: ChannelSettings }
  /** A key left out returns to its default (the modal). */
  | { kind: 'replace'; settings: ChannelSettings }
  | { kind: 'reset' };

export type Applied =
  /** `announce` is called after the operator's answer. */
  | { kind: 'applied'; announce(): Promise<void> }
  /** Asked to answer on its own where it is not a member. */
  | { kind: 'not_member' }
  /** Logged. */
  | { kind: 'failed' };

export async function applyChannelChange(
  deps: ApplyDeps,
  handling: Handling,
  input: { channelId: string; userId: string; locale: Locale; change: ChannelChange },
): Promise<Applied> {
  const { channelId, userId } = input;
  const answer = input.change.kind === 'reset' ? undefined : input.change.settings.answer;
  // Only a member gets the channel's messages: a mode it cannot serve would silently do nothing.
  if (answer === 'questions' || answer === 'all') {
    if (await notMember(deps, handling, channelId)) {
      deps.onEvent('channel_settings', 'not_member');
      return { kind: 'not_member' };
    }
  }
  let changed: { before: ChannelSettings; after: ChannelSettings };
  try {
    changed = await write(deps, handling.teamId, channelId, userId, input.change);
  } catch (error) {
    deps.onEvent('channel_settings', 'failed');
    handling.logger.error({ ...errorFields(error), channel: channelId }, 'channel settings not saved');
    return { kind: 'failed' };
  }
  const { before, after } = changed;
  deps.onEvent('channel_settings', input.change.kind);
  handling.logger.info({ channel: channelId, by: userId, before, after }, 'channel settings changed');
  // The notice is for everyone there.
  const noticeLocale = placeLocale(LANGUAGE_LOCALES[after.lang ?? 'auto']) ?? input.locale;
  const notice = renderChannelNotice(noticeLocale, {
    by: userId,
    answer: differs(before.answer ?? 'mention', after.answer ?? 'mention'),
    reply: differs(before.reply ?? 'thread', after.reply ?? 'thread'),
  });
  const announce = async () => {
    if (!notice) return;
    // A failed post is logged by the responder: the change stands.
    await deps.responder.post(handling, { channel: channelId, threadTs: undefined }, notice);
  };
  return { kind: 'applied', announce };
}

async function write(
  deps: ApplyDeps,
  workspace: string,
  channelId: string,
  userId: string,
  change: ChannelChange,
): Promise<{ before: ChannelSettings; after: ChannelSettings }> {
  switch (change.kind) {
    case 'set':
      return deps.channels.change(workspace, channelId, change.settings, userId);
    case 'reset':
      return { before: await deps.channels.reset(workspace, channelId), after: {} };
    case 'replace':
      return deps.channels.replace(workspace, channelId, change.settings, userId);
  }
}

function differs<T>(before: T, after: T): T | undefined {
  return before === after ? undefined : after;
}

/** `channel_not_found` is a private channel the app was not invited to; other refusals are unknown: false. */
async function notMember(deps: ApplyDeps, handling: Handling, channel: string): Promise<boolean> {
  try {
    const response = await handling.client.conversations.info({ channel });
    return response.channel?.is_member !== true;
  } catch (error) {
    if (slackErrorCode(error) === 'channel_not_found') return true;
    deps.responder.failed(handling, 'conversations.info', error, { channel, threadTs: undefined });
    return false;
  }
}
