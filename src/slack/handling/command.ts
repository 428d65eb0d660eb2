// The slash command's seam: handed by its first word to a surface's subcommand; every answer goes to the
// response_url, so only the typist sees it, whether the app is in the channel or not.
import type { Context, RespondArguments, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import { wellFormed } from '../../util/well-formed.js';
import type { RenderedMessage } from '../kit/elements.js';
import type { RoomKit } from '../kit/room-kit.js';
import type { BoltRequest, Handling } from './handling.js';
import { t } from './messages.js';
import { trackedListener } from './tracked.js';

export const HELP_SUBCOMMAND = 'help';

export interface SubcommandRequest {
  handling: Handling;
  /** As typed (SLASH_COMMAND), for messages that name it. */
  command: string;
  /** Lower-cased; `help` for an empty or unknown one. */
  word: string;
  /** As Slack sent it. */
  text: string;
  /** Trimmed. */
  rest: string;
  userId: string;
  channelId: string;
  triggerId: string | undefined;
  responseUrl: string;
  /** Messages can mention the app by it. */
  appUserId: string | undefined;
  locale: Locale;
  /** `replace`: Slack lets a command's response_url change only what it posted. */
  reply(message: RenderedMessage, options?: { replace: boolean }): Promise<void>;
  /** For `help`. */
  surfaceHelp: readonly string[];
}

export type SubcommandListener = (request: SubcommandRequest) => Promise<void>;

export interface CommandArgs extends BoltRequest {
  context: Pick<Context, 'teamId' | 'enterpriseId' | 'botUserId'>;
  ack: () => Promise<void>;
  body: unknown;
  respond: RespondFn;
}

/** Longer is told, not refused with an HTTP error that Slack would show as "failed with the error". */
const COMMAND_TEXT_MAX = 4000;

const commandSchema = z.object({
  command: z.string(),
  // Bounded by the receiver's body limit; over COMMAND_TEXT_MAX is answered in Slack.
  text: z.string(),
  user_id: z.string().min(1).max(64),
  channel_id: z.string().min(1).max(64),
  team_id: z.string().max(64).optional(),
  trigger_id: z.string().max(200).optional(),
  response_url: z.string().min(1).max(2000),
});

type CommandDeps = Pick<RoomKit, 'logger' | 'onEvent' | 'inFlight' | 'users'>;

/** Without a `help` subcommand an unknown word is answered by nothing but the metric. */
export function slashCommandListener(
  deps: CommandDeps,
  subcommands: ReadonlyMap<string, SubcommandListener>,
  helps: readonly ((locale: Locale, command: string) => string)[] = [],
): (args: CommandArgs) => Promise<void> {
  return trackedListener<CommandArgs>(deps, 'slash command handling failed', async (handling, args) => {
    await args.ack();
    const parsed = commandSchema.safeParse(args.body);
    if (!parsed.success) {
      handling.logger.warn({}, 'ignored a slash command of unexpected shape');
      return;
    }
    const { command, text, user_id: userId, channel_id: channelId } = parsed.data;
    if (text.length > COMMAND_TEXT_MAX) {
      deps.onEvent('slash_command', 'too_long');
      const { locale } = await handling.person(userId);
      const words = t(locale, 'command_too_long', { command, length: text.length, limit: COMMAND_TEXT_MAX });
      await send(handling, args.respond, { text: words, blocks: [] });
      return;
    }
    const [first = ''] = text.trim().split(/\s+/);
    const asked = first.toLowerCase();
    const word = subcommands.has(asked) ? asked : HELP_SUBCOMMAND;
    deps.onEvent('slash_command', word);
    const listener = subcommands.get(word);
    if (!listener) return;
    const { locale } = await handling.person(userId);
    await listener({
      handling,
      command,
      word,
      text,
      rest: text.trim().slice(first.length).trim(),
      userId,
      channelId,
      triggerId: parsed.data.trigger_id,
      responseUrl: parsed.data.response_url,
      appUserId: args.context.botUserId,
      locale,
      reply: (message, options) => send(handling, args.respond, message, options?.replace ?? false),
      surfaceHelp: word === HELP_SUBCOMMAND ? helps.map((help) => help(locale, command)) : [],
    });
  });
}

/** What the platform sent is made well formed first, as every message is. */
async function send(
  handling: Handling,
  respond: RespondFn,
  message: RenderedMessage,
  replace = false,
): Promise<void> {
  const payload: RespondArguments = wellFormed({
    response_type: 'ephemeral',
    replace_original: replace,
    text: message.text,
    ...(message.blocks.length > 0 ? { blocks: message.blocks } : {}),
  });
  try {
    await respond(payload);
  } catch (error) {
    handling.logger.error(errorFields(error), 'slash command answer could not be sent');
  }
}
