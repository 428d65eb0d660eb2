// The Socket Mode client reconnects by calling its own start() and never observes that promise
// (slackapi/node-slack-sdk#2656): a reconnect that fails, or that a stop interrupts (it then rejects
// with undefined), became an unhandled rejection. And it gives up for good when Slack answers the new
// connection URL with an HTTP error or cannot be reached (past the Web API client's own retries).
// This observes every reconnect attempt, and keeps trying after such a failure, waiting longer each
// time, until a socket is open again or the gateway stops.
import type { SocketModeReceiver } from '@slack/bolt';

type SocketModeClient = SocketModeReceiver['client'];

const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

export interface ReconnectReport {
  /** A stop cut a reconnect short: nothing to do. */
  stopped(): void;
  /** A reconnect failed; another is tried in `retryInMs`. */
  failed(error: unknown, retryInMs: number): void;
}

/** Returns what stops the retries (call it before the client is disconnected). */
export function observeReconnects(
  client: SocketModeClient,
  isStopping: () => boolean,
  report: ReconnectReport,
): () => void {
  let reconnecting = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  // Emitted right before the client calls start() for a reconnect, in the same turn.
  client.on('reconnecting', () => {
    reconnecting = true;
  });
  client.on('connected', () => {
    failures = 0;
  });

  const failedAttempt = (error: unknown): void => {
    if (isStopping()) {
      report.stopped();
      return;
    }
    failures += 1;
    const retryInMs = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
    report.failed(error, retryInMs);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (!isStopping()) client.start().catch(failedAttempt);
    }, retryInMs);
  };

  const start = client.start.bind(client);
  client.start = () => {
    const attempt = start();
    if (!reconnecting) return attempt;
    reconnecting = false;
    return attempt.catch((error: unknown) => {
      failedAttempt(error);
      // The client chains nothing useful on a reconnect's result: leaving it pending ends the chain.
      return new Promise<never>(() => {});
    });
  };
  return () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
  };
}
