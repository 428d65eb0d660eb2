// What a surface gives the app: its listeners keyed by route, so a new surface is a folder and one line.
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
  /** Slash command words by their lower-case first word, each one surface's; `help` gets unknown words. */
  readonly subcommands?: readonly (readonly [word: string, listener: SubcommandListener])[];
  /** What its subcommands do, for `help`: mrkdwn lines naming the command as typed. */
  readonly commandHelp?: (locale: Locale, command: string) => string;
}

/** Where the desk's digest went when run now, and how it ended; no channel when its targets were not read. */
export interface DigestPosting {
  channelId?: string;
  outcome: 'posted' | 'claimed_elsewhere' | 'failed';
}

/** A room: its surface, and what runs beside it from the app's start to its stop (a schedule). */
export interface Room extends Surface {
  start?(): void;
  stop?(): Promise<void>;
  /** The desk's scheduled digest, one tick now for one workspace: only the playground calls it, in process. */
  postDigestNow?(workspace: string): Promise<DigestPosting[]>;
}

export interface AcceptedRequests {
  /** The pre-dispatch step: false for an event the app leaves alone, acknowledged without Bolt. */
  preDispatch?: (envelope: Record<string, unknown>) => boolean | Promise<boolean>;
  viewCallbackIds: readonly string[];
  messageShortcutIds: readonly string[];
  /** The slash command, when a surface has subcommands. */
  slashCommand: string | undefined;
}
