// Every room, one line each, behind one Bolt registration per kind of request (docs/decisions/005).
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import { traceHooks } from '../observability/tracing-hooks.js';
import { roomName, tracedRoom } from '../observability/tracing-rooms.js';
import { accessRoom } from './access/surface.js';
import { answersRoom } from './answers/surface.js';
import { assistantRoom } from './assistant/surface.js';
import { channelsRoom } from './channels/surface.js';
import { deskRoom } from './desk/surface.js';
import { acknowledgeClick } from './handling/acknowledge-clicks.js';
import { type SubcommandListener, slashCommandListener } from './handling/command.js';
import { type EventArgs, PreDispatch } from './handling/pre-dispatch.js';
import { Routes } from './handling/routes.js';
import type { AcceptedRequests, ClickRouteArgs, Room, Surface, ViewArgs } from './handling/surface.js';
import { homeRoom } from './home/surface.js';
import { installRoom } from './install/surface.js';
import type { RoomKit, RoomSettings } from './kit/room-kit.js';
import { reviewRoom } from './review/surface.js';

/** The app's rooms. A new one is a folder exporting a factory over the kit, and one line here. */
export const ROOMS: readonly ((kit: RoomKit) => Room)[] = [
  answersRoom,
  reviewRoom,
  deskRoom,
  homeRoom,
  accessRoom,
  channelsRoom,
  assistantRoom,
  installRoom,
];

export function createRooms(kit: RoomKit, rooms = ROOMS): readonly Room[] {
  const tracing = traceHooks();
  if (!tracing) return rooms.map((room) => room(kit));
  return rooms.map((room) => tracedRoom(roomName(room), room(kit), tracing));
}

/** The pre-dispatch step over every surface's readings: one per app, shared by the receiver and Bolt. */
export function preDispatchOf(surfaces: readonly Surface[], settings: RoomSettings): PreDispatch {
  return new PreDispatch(
    surfaces.flatMap((surface) => surface.readings ?? []),
    settings.appUserId,
  );
}

/** What the receiver lets through: the ids and command some surface routes, less what pre-dispatch drops. */
export function acceptedRequests(
  surfaces: readonly Surface[],
  settings: RoomSettings,
  preDispatch?: PreDispatch,
): AcceptedRequests {
  return {
    ...(preDispatch && preDispatch.eventTypes.length > 0
      ? { preDispatch: (envelope: Record<string, unknown>) => preDispatch.screen(envelope) }
      : {}),
    viewCallbackIds: surfaces.flatMap((surface) => (surface.submissions ?? []).map(([id]) => id)),
    messageShortcutIds: surfaces.flatMap((surface) => (surface.messageShortcuts ?? []).map(([id]) => id)),
    slashCommand: surfaces.some((surface) => (surface.subcommands ?? []).length > 0)
      ? settings.slashCommand
      : undefined,
  };
}

/** Every surface's subcommands by word; a word claimed twice is a mistake in the surfaces, found at start. */
export function subcommandTable(surfaces: readonly Surface[]): ReadonlyMap<string, SubcommandListener> {
  const table = new Map<string, SubcommandListener>();
  for (const [word, listener] of surfaces.flatMap((surface) => surface.subcommands ?? [])) {
    const key = word.toLowerCase();
    if (table.has(key)) throw new Error(`two surfaces handle the subcommand ${key}`);
    table.set(key, listener);
  }
  return table;
}

export function registerSurfaces(
  app: App,
  kit: RoomKit,
  surfaces: readonly Surface[],
  preDispatch: PreDispatch = preDispatchOf(surfaces, kit.settings),
): void {
  const { settings } = kit;
  const events = new Routes<EventArgs>([
    ...surfaces.flatMap((surface) => surface.events ?? []),
    ...preDispatch.eventTypes.map((type) => [type, preDispatch.listener] as const),
  ]);
  const clicks = new Routes<ClickRouteArgs>(surfaces.flatMap((surface) => surface.clicks ?? []));
  const submissions = new Routes<ViewArgs>(surfaces.flatMap((surface) => surface.submissions ?? []));

  if (events.size > 0) {
    app.event(events.pattern, async (args) => {
      await events.find(args.event.type)?.(args);
    });
  }
  // Every click is acknowledged, whichever listener handles it or none (a link button, an unknown id).
  app.action<BlockAction>(/.*/, async (args) => {
    await acknowledgeClick(args);
    await clicks.find(args.action.action_id)?.(args);
  });
  if (submissions.size > 0) {
    app.view<ViewSubmitAction>(submissions.pattern, async (args) => {
      await submissions.find(args.view.callback_id)?.(args);
    });
  }
  for (const surface of surfaces) {
    for (const [callbackId, listener] of surface.messageShortcuts ?? []) {
      app.shortcut({ type: 'message_action', callback_id: callbackId }, listener);
    }
  }
  const subcommands = subcommandTable(surfaces);
  const helps = surfaces.flatMap((surface) => (surface.commandHelp ? [surface.commandHelp] : []));
  if (subcommands.size > 0) {
    app.command(settings.slashCommand, slashCommandListener(kit, subcommands, helps));
  }
}

/** Builds the rooms and registers them: what the app and the routing tests call. */
export function registerRooms(app: App, kit: RoomKit, rooms = ROOMS): readonly Room[] {
  const built = createRooms(kit, rooms);
  registerSurfaces(app, kit, built);
  return built;
}
