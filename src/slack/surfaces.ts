// Every surface, one line each, behind one Bolt registration per kind of request (docs/decisions/005).
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import { accessSurface } from './access/surface.js';
import { answersSurface } from './answers/surface.js';
import { assistantSurface } from './assistant/surface.js';
import { channelsSurface } from './channels/surface.js';
import { deskSurface } from './desk/surface.js';
import { acknowledgeClick } from './handling/acknowledge-clicks.js';
import { type SubcommandListener, slashCommandListener } from './handling/command.js';
import type { ListenerDeps } from './handling/deps.js';
import { type EventArgs, PreDispatch } from './handling/pre-dispatch.js';
import { Routes } from './handling/routes.js';
import type { AcceptedRequests, ClickRouteArgs, Surface, ViewArgs } from './handling/surface.js';
import { homeSurface } from './home/surface.js';
import { reviewSurface } from './review/surface.js';

export interface SurfaceSettings {
  /** SLASH_COMMAND, e.g. `/cs`. */
  slashCommand: string;
  /** The app's own user id (auth.test), for what is read before Bolt's context exists. */
  appUserId?: string | undefined;
  /** WORKING_LINE_DELAY_MS; unset: the production default. */
  workingLineDelayMs?: number;
}

/** The app's surfaces. A new one is a folder exporting a `Surface` and one line here. */
export function createSurfaces(deps: ListenerDeps, settings: SurfaceSettings): readonly Surface[] {
  return [
    answersSurface(deps),
    reviewSurface(deps),
    deskSurface(deps, settings),
    homeSurface(deps, settings),
    accessSurface(deps),
    channelsSurface(deps, settings),
    assistantSurface(deps),
  ];
}

/** The pre-dispatch step over every surface's readings: one per app, shared by the receiver and Bolt. */
export function preDispatchOf(surfaces: readonly Surface[], settings: SurfaceSettings): PreDispatch {
  return new PreDispatch(
    surfaces.flatMap((surface) => surface.readings ?? []),
    settings.appUserId,
  );
}

/** What the receiver lets through: the ids and command some surface routes, less what pre-dispatch drops. */
export function acceptedRequests(
  surfaces: readonly Surface[],
  settings: SurfaceSettings,
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
  deps: ListenerDeps,
  surfaces: readonly Surface[],
  settings: SurfaceSettings,
  preDispatch: PreDispatch = preDispatchOf(surfaces, settings),
): void {
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
    app.command(settings.slashCommand, slashCommandListener(deps, subcommands, helps));
  }
}

/** Builds the surfaces and registers them: what the app and the routing tests call. */
export function registerListeners(
  app: App,
  deps: ListenerDeps,
  settings: SurfaceSettings,
): readonly Surface[] {
  const surfaces = createSurfaces(deps, settings);
  registerSurfaces(app, deps, surfaces, settings);
  return surfaces;
}
