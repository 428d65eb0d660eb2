// The Socket Mode client never observes its reconnect's start() (slackapi/node-slack-sdk#2656) and gives
// up on an HTTP error: observe every attempt and keep trying, longer each time, until a socket is open.
import type { SocketModeReceiver } from '@slack/bolt';

type SocketModeClient = SocketModeReceiver['client'];

const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

export interface ReconnectReport {
  stopped(): void;
  failed(error: unknown, retryInMs: number): void;
}

/** Call the returned stop before the client is disconnected. */
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
      // Leaving it pending ends the chain: the client chains nothing useful on it.
      return new Promise<never>(() => {});
    });
  };
  return () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
  };
}
