// Sends rendered replies to Slack. Every Web API failure is logged with context and swallowed here,
// so a Slack error can never become an unhandled rejection or an HTTP 500 that Slack retries.
import type { webApi } from '@slack/bolt';
import type { Logger } from '../logging/logger.js';
import type { RenderedMessage } from './render/blocks.js';

type WebClient = webApi.WebClient;

export interface Place {
  channel: string;
  /** The thread to answer in; undefined for a top-level DM answer. */
  threadTs: string | undefined;
}

export class Responder {
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Posts one message; returns its ts, or undefined when Slack refused it. */
  async post(client: WebClient, place: Place, message: RenderedMessage): Promise<string | undefined> {
    try {
      const response = await client.chat.postMessage({
        channel: place.channel,
        ...(place.threadTs ? { thread_ts: place.threadTs } : {}),
        text: message.text,
        blocks: message.blocks,
        unfurl_links: false,
        unfurl_media: false,
      });
      return typeof response.ts === 'string' ? response.ts : undefined;
    } catch (error) {
      this.#logFailure('chat.postMessage', error, place);
      return undefined;
    }
  }

  /** Replaces a message in place; false when Slack refused (deleted message, lost permission). */
  async update(client: WebClient, channel: string, ts: string, message: RenderedMessage): Promise<boolean> {
    try {
      await client.chat.update({ channel, ts, text: message.text, blocks: message.blocks });
      return true;
    } catch (error) {
      this.#logFailure('chat.update', error, { channel, threadTs: undefined }, { ts });
      return false;
    }
  }

  /**
   * Shows a reply: the first part replaces the placeholder when there is one (so the question never
   * gets two answers), the rest follow in the same place. Returns the ts of the last message shown.
   */
  async show(
    client: WebClient,
    place: Place,
    messages: RenderedMessage[],
    placeholderTs: string | undefined,
  ): Promise<string | undefined> {
    let lastTs: string | undefined;
    for (const [index, message] of messages.entries()) {
      if (index === 0 && placeholderTs) {
        if (await this.update(client, place.channel, placeholderTs, message)) {
          lastTs = placeholderTs;
          continue;
        }
      }
      lastTs = (await this.post(client, place, message)) ?? lastTs;
    }
    return lastTs;
  }

  async ephemeral(client: WebClient, place: Place, userId: string, message: RenderedMessage): Promise<void> {
    try {
      await client.chat.postEphemeral({
        channel: place.channel,
        user: userId,
        ...(place.threadTs ? { thread_ts: place.threadTs } : {}),
        text: message.text,
        blocks: message.blocks,
      });
    } catch (error) {
      this.#logFailure('chat.postEphemeral', error, place, { userId });
    }
  }

  #logFailure(method: string, error: unknown, place: Place, extra: Record<string, string> = {}): void {
    const slackError = slackErrorCode(error);
    this.#logger.error(
      { err: error, method, slackError, channel: place.channel, threadTs: place.threadTs, ...extra },
      'Slack Web API call failed',
    );
  }
}

/** The `error` string of a Web API platform error ("channel_not_found"), or the SDK's error code. */
export function slackErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const data = 'data' in error ? error.data : undefined;
  if (typeof data === 'object' && data !== null && 'error' in data && typeof data.error === 'string') {
    return data.error;
  }
  return 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
