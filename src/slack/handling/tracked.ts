// What every listener that does work starts with: a handling of its own (the client, a request id on
// every log line), and the work tracked so that a stopping gateway waits for it.
import type { AckFn, ViewResponseAction } from '@slack/bolt';
import type { ListenerDeps } from './deps.js';
import { type BoltRequest, beginHandling, type Handling } from './handling.js';

/** `failure` names the listener in the log line if its work throws. */
export function trackedListener<Args extends BoltRequest>(
  deps: Pick<ListenerDeps, 'logger' | 'inFlight' | 'users'>,
  failure: string,
  handle: (handling: Handling, args: Args) => Promise<void>,
): (args: Args) => Promise<void> {
  return async (args) => {
    const handling = beginHandling(args, deps);
    await deps.inFlight.track(handling, handle(handling, args), failure);
  };
}

/** The part of Bolt's view_submission arguments the modal listeners read. */
export interface ViewArgs extends BoltRequest {
  ack: AckFn<ViewResponseAction>;
  body: unknown;
}
