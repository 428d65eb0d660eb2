// What a surface (answers, review, desk, home, access, …) gives the app: its listeners keyed by what
// routes to them. The app registers every surface's routes behind one Bolt registration per kind of
// request, and the receiver accepts exactly the modal callback ids, shortcuts and command that some
// surface routes, so a new surface is a folder and one line in surfaces.ts, never an edit of the
// transport.
import type {
  AllMiddlewareArgs,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { Locale } from '../../conversation/locale.js';
import type { SubcommandListener } from './command.js';
import type { EventArgs, EventReading } from './pre-dispatch.js';
import type { Route } from './routes.js';

export type ClickRouteArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
type ShortcutRouteArgs = SlackShortcutMiddlewareArgs & AllMiddlewareArgs;

export interface Surface {
  /** Events by type (`app_mention`, `/^subteam_/`). */
  readonly events?: readonly Route<EventArgs>[];
  /** Events read and decided once before their listener, by type (handling/pre-dispatch.ts). */
  readonly readings?: readonly (readonly [eventType: string, reading: EventReading])[];
  /** Block Kit clicks by action id; every click is acknowledged before its listener runs. */
  readonly clicks?: readonly Route<ClickRouteArgs>[];
  /** Modal submissions by callback id (exact ids: the receiver accepts these and no others). */
  readonly submissions?: readonly (readonly [
    callbackId: string,
    listener: (args: ViewArgs) => Promise<void>,
  ])[];
  /** Message shortcuts by callback id (also declared in manifest.yml). */
  readonly messageShortcuts?: readonly (readonly [
    callbackId: string,
    listener: (args: ShortcutRouteArgs) => Promise<void>,
  ])[];
  /**
   * Words of the slash command (SLASH_COMMAND) by their first word, lower-case: `/cs channel …` is
   * the `channel` subcommand's. A word belongs to one surface; `help` also gets every unknown word.
   */
  readonly subcommands?: readonly (readonly [word: string, listener: SubcommandListener])[];
  /** What its subcommands do, for `help`: mrkdwn lines naming the command as typed. */
  readonly commandHelp?: (locale: Locale, command: string) => string;
}

/** What the receiver lets through to Bolt, taken from the surfaces' routes. */
export interface AcceptedRequests {
  /** The pre-dispatch step: false for an event the app leaves alone, acknowledged without Bolt. */
  preDispatch?: (envelope: Record<string, unknown>) => boolean | Promise<boolean>;
  viewCallbackIds: readonly string[];
  messageShortcutIds: readonly string[];
  /** The slash command, when a surface has subcommands. */
  slashCommand: string | undefined;
}
