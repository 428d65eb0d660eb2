// The Socket Mode client reconnects by calling its own start() and never observes that promise
// (slackapi/node-slack-sdk#2656): a reconnect that fails, or that a stop interrupts (it then rejects
// with undefined), became an unhandled rejection. This makes every reconnect attempt observed.
import type { SocketModeReceiver } from '@slack/bolt';

type SocketModeClient = SocketModeReceiver['client'];

/** A reconnect ended without a socket: `stopping` tells a stop that cut it short from a failure. */
export type ReconnectFailureHandler = (error: unknown, stopping: boolean) => void;

export function observeReconnects(
  client: SocketModeClient,
  isStopping: () => boolean,
  onFailure: ReconnectFailureHandler,
): void {
  let reconnecting = false;
  // Emitted right before the client calls start() for a reconnect, in the same turn.
  client.on('reconnecting', () => {
    reconnecting = true;
  });
  const start = client.start.bind(client);
  client.start = () => {
    const attempt = start();
    if (!reconnecting) return attempt;
    reconnecting = false;
    return attempt.catch((error: unknown) => {
      onFailure(error, isStopping());
      // The client chains nothing useful on a reconnect's result: leaving it pending ends the chain.
      return new Promise<never>(() => {});
    });
  };
}
