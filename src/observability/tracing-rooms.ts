// With tracing on, each room's listeners name their room on the delivery's span before they run.
import type { DecidedArgs, EventReading } from '../slack/handling/pre-dispatch.js';
import type { Room } from '../slack/handling/surface.js';
import { afterValue } from '../util/maybe-promise.js';
import type { TraceHooks } from './tracing-hooks.js';

type Listener<Args> = (args: Args) => Promise<void>;
type Keyed<Key, Args> = readonly (readonly [key: Key, listener: Listener<Args>])[];

/** `answersRoom` is the room `answers`. */
export function roomName(factory: { name: string }): string {
  return factory.name.replace(/Room$/, '') || 'unnamed';
}

export function tracedRoom(name: string, room: Room, tracing: TraceHooks): Room {
  const named =
    <Args>(listener: Listener<Args>): Listener<Args> =>
    (args) => {
      tracing.surface(name);
      return listener(args);
    };
  const each = <Key, Args>(routes: Keyed<Key, Args> | undefined) =>
    routes?.map(([key, listener]) => [key, named(listener)] as const);
  const events = each(room.events);
  // A reading decides before Bolt (HTTP: before the span); the listener it gives runs within it.
  const nameDecided = (listener: Listener<DecidedArgs> | undefined) => listener && named(listener);
  const readings = room.readings?.map(([type, reading]) => {
    const namedReading: EventReading = (event, source) => afterValue(reading(event, source), nameDecided);
    return [type, namedReading] as const;
  });
  const clicks = each(room.clicks);
  const submissions = each(room.submissions);
  const messageShortcuts = each(room.messageShortcuts);
  const subcommands = each(room.subcommands);
  return {
    ...room,
    ...(events && { events }),
    ...(readings && { readings }),
    ...(clicks && { clicks }),
    ...(submissions && { submissions }),
    ...(messageShortcuts && { messageShortcuts }),
    ...(subcommands && { subcommands }),
  };
}
