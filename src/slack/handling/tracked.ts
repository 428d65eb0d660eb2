// Every listener that does work gets a handling of its own, and is tracked for the drain.
import type { AckFn, ViewResponseAction } from '@slack/bolt';
import type { RoomKit } from '../kit/room-kit.js';
import { type BoltRequest, beginHandling, type Handling } from './handling.js';

export function trackedListener<Args extends BoltRequest>(
  deps: Pick<RoomKit, 'logger' | 'inFlight' | 'users'>,
  failure: string,
  handle: (handling: Handling, args: Args) => Promise<void>,
): (args: Args) => Promise<void> {
  return async (args) => {
    const handling = beginHandling(args, deps);
    await deps.inFlight.track(handling, handle(handling, args), failure);
  };
}

export interface ViewArgs extends BoltRequest {
  ack: AckFn<ViewResponseAction>;
  body: unknown;
}
