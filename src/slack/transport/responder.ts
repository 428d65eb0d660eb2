// Every Web API failure is logged and swallowed here, so it never becomes an unhandled rejection or a 500.
import type { webApi } from '@slack/bolt';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import type { RenderedMessage } from '../kit/elements.js';
import { SlackRateLimitGaveUp, type SlackRateLimits } from './rate-limits.js';
import { postToResponseUrl } from './response-url.js';

type WebClient = webApi.WebClient;

type Refused = { ok: false; error: string | undefined };
export type Sent = { ok: true; ts: string } | Refused;
/** An ephemeral message has no ts: it cannot be updated or threaded on. */
type Shown = { ok: true } | Refused;

/** As opposed to the channel or the token. */
const BLOCK_REFUSALS = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'invalid_attachments',
]);

function isBlocksRefusal(error: string | undefined): boolean {
  return error !== undefined && BLOCK_REFUSALS.has(error);
}

export interface Outbox {
  client: WebClient;
  logger: Logger;
}

export interface ReplyTarget {
  channel: string;
  /** Undefined for a top-level DM answer. */
  threadTs: string | undefined;
  /** Ephemeral when set. */
  visibleTo?: string | undefined;
  /** A response_url: Slack lets no other call change an ephemeral message. */
  replaceUrl?: string | undefined;
}

export class Responder {
  readonly #onApiError: ((method: string, error: string | undefined) => void) | undefined;
  /** Undefined sends every call at once, a 429 failing it (tests that never meet one). */
  readonly #rateLimits: SlackRateLimits | undefined;

  constructor(
    onApiError?: (method: string, error: string | undefined) => void,
    rateLimits?: SlackRateLimits,
  ) {
    this.#onApiError = onApiError;
    this.#rateLimits = rateLimits;
  }

  /** A call to a conversation: a 429 holds back only its method in that channel. */
  #toChannel<T>(out: Outbox, method: string, channel: string, call: () => Promise<T>): Promise<T> {
    return this.#rateLimits ? this.#rateLimits.send(out, method, channel, call) : call();
  }

  /** The Slack error when Slack refused. */
  async post(out: Outbox, target: ReplyTarget, message: RenderedMessage): Promise<Sent> {
    try {
      const response = await this.#toChannel(out, 'chat.postMessage', target.channel, () =>
        out.client.apiCall('chat.postMessage', {
          channel: target.channel,
          ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
          text: message.text,
          blocks: message.blocks,
          unfurl_links: false,
          unfurl_media: false,
        }),
      );
      const ts = 'ts' in response ? response.ts : undefined;
      return typeof ts === 'string' ? { ok: true, ts } : { ok: false, error: 'no_ts' };
    } catch (error) {
      this.failed(out, 'chat.postMessage', error, target);
      return { ok: false, error: slackErrorCode(error) };
    }
  }

  async update(out: Outbox, channel: string, ts: string, message: RenderedMessage): Promise<Sent> {
    try {
      await this.#toChannel(out, 'chat.update', channel, () =>
        out.client.apiCall('chat.update', { channel, ts, text: message.text, blocks: message.blocks }),
      );
      return { ok: true, ts };
    } catch (error) {
      this.failed(out, 'chat.update', error, { channel, threadTs: undefined }, { ts });
      return { ok: false, error: slackErrorCode(error) };
    }
  }

  /**
   * The first part replaces the placeholder, so the question never gets two answers. When Slack refuses
   * a part's blocks (an image it cannot fetch), that part and the rest come from `plainer`.
   */
  async show(
    out: Outbox,
    target: ReplyTarget,
    messages: RenderedMessage[],
    placeholderTs: string | undefined,
    plainer?: () => RenderedMessage[],
  ): Promise<void> {
    let parts = messages;
    let fellBack = false;
    for (let index = 0; index < parts.length; index += 1) {
      const message = parts[index];
      if (!message) break;
      let sent: Shown = { ok: false, error: undefined };
      const visibleTo = target.visibleTo;
      if (visibleTo !== undefined) {
        sent =
          index === 0 && target.replaceUrl
            ? await this.#replaceEphemeral(out, target.replaceUrl, message)
            : await this.ephemeral(out, target, visibleTo, message);
      } else {
        if (index === 0 && placeholderTs)
          sent = await this.update(out, target.channel, placeholderTs, message);
        if (!sent.ok && !isBlocksRefusal(sent.error)) sent = await this.post(out, target, message);
      }
      if (!sent.ok && isBlocksRefusal(sent.error) && plainer && !fellBack) {
        fellBack = true;
        parts = plainer();
        out.logger.warn(
          { part: index, slackError: sent.error },
          'Slack refused the blocks; showing the plain rendering',
        );
        index -= 1;
      }
    }
  }

  async ephemeral(
    out: Outbox,
    target: ReplyTarget,
    userId: string,
    message: RenderedMessage,
  ): Promise<Shown> {
    try {
      await this.#toChannel(out, 'chat.postEphemeral', target.channel, () =>
        out.client.chat.postEphemeral({
          channel: target.channel,
          user: userId,
          ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
          text: message.text,
          blocks: message.blocks,
        }),
      );
      return { ok: true };
    } catch (error) {
      this.failed(out, 'chat.postEphemeral', error, target, { userId });
      return { ok: false, error: slackErrorCode(error) };
    }
  }

  async #replaceEphemeral(out: Outbox, url: string, message: RenderedMessage): Promise<Shown> {
    const replaced = await postToResponseUrl(url, { message, replace: true }, out.logger);
    if (!replaced) this.#onApiError?.('response_url', undefined);
    return replaced ? { ok: true } : { ok: false, error: undefined };
  }

  /** Undefined (logged) when Slack refused (an expired trigger). */
  async openModal(out: Outbox, triggerId: string, view: webApi.ModalView): Promise<string | undefined> {
    try {
      const opened = await out.client.views.open({ trigger_id: triggerId, view });
      return opened.view?.id ?? undefined;
    } catch (error) {
      this.failed(out, 'views.open', error, undefined, { callbackId: view.callback_id ?? '' });
      return undefined;
    }
  }

  updateModal(out: Outbox, viewId: string, view: webApi.ModalView): Promise<boolean> {
    return this.call(out, 'views.update', undefined, { viewId }, () =>
      out.client.views.update({ view_id: viewId, view }),
    );
  }

  /** Needs im:write; undefined (logged) when Slack refuses. */
  async directMessage(out: Outbox, userId: string): Promise<string | undefined> {
    try {
      const opened = await out.client.conversations.open({ users: userId });
      const channel = opened.channel?.id;
      if (typeof channel === 'string' && channel !== '') return channel;
      this.failed(out, 'conversations.open', new Error('no channel in the answer'), undefined, {
        userId,
      });
    } catch (error) {
      this.failed(out, 'conversations.open', error, undefined, { userId });
    }
    return undefined;
  }

  /** A warning on refusal: links are a convenience. */
  async permalink(out: Outbox, channel: string, messageTs: string): Promise<string | undefined> {
    try {
      const response = await out.client.chat.getPermalink({ channel, message_ts: messageTs });
      return typeof response.permalink === 'string' ? response.permalink : undefined;
    } catch (error) {
      const slackError = slackErrorCode(error);
      this.#onApiError?.('chat.getPermalink', slackError);
      out.logger.warn(
        { ...errorFields(error), method: 'chat.getPermalink', slackError, channel },
        'no permalink for a message',
      );
      return undefined;
    }
  }

  /** A room's own Web API call: false when Slack refused it (logged and counted). */
  async call(
    out: Outbox,
    method: string,
    target: ReplyTarget | undefined,
    extra: Record<string, string>,
    call: () => Promise<unknown>,
  ): Promise<boolean> {
    try {
      await (target ? this.#toChannel(out, method, target.channel, call) : call());
      return true;
    } catch (error) {
      this.failed(out, method, error, target, extra);
      return false;
    }
  }

  /** Logs and counts a refused Web API call. */
  failed(
    out: Outbox,
    method: string,
    error: unknown,
    /** Undefined for calls that post to no conversation (views, DMs). */
    target: ReplyTarget | undefined,
    extra: Record<string, string> = {},
  ): void {
    // The rate-limit gate logged and counted it, with the same method and channel.
    if (error instanceof SlackRateLimitGaveUp) return;
    const slackError = slackErrorCode(error);
    this.#onApiError?.(method, slackError);
    out.logger.error(
      {
        ...errorFields(error),
        method,
        slackError,
        ...(target ? { channel: target.channel, threadTs: target.threadTs } : {}),
        ...extra,
      },
      'Slack Web API call failed',
    );
  }
}

export function slackErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const data = 'data' in error ? error.data : undefined;
  if (typeof data === 'object' && data !== null && 'error' in data && typeof data.error === 'string') {
    return data.error;
  }
  return 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
