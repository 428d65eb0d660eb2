// Bolt offers respond() only where Slack's own payload has the URL; a submission and a click carry it too.
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { wellFormedJson } from '../../util/well-formed.js';
import type { RenderedMessage } from '../kit/elements.js';

const RESPONSE_URL_TIMEOUT_MS = 10_000;

export interface ResponseUrlMessage {
  message: RenderedMessage;
  /** Replace the message (paging), or add an ephemeral one (a new result). */
  replace: boolean;
}

export async function postToResponseUrl(
  url: string,
  { message, replace }: ResponseUrlMessage,
  logger: Logger,
): Promise<boolean> {
  if (!/^https?:\/\//i.test(url)) {
    logger.warn({}, 'response_url is not http(s); nothing sent');
    return false;
  }
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: wellFormedJson({
        response_type: 'ephemeral',
        replace_original: replace,
        text: message.text,
        ...(message.blocks.length > 0 ? { blocks: message.blocks } : {}),
      }),
      signal: AbortSignal.timeout(RESPONSE_URL_TIMEOUT_MS),
    });
    const body = await response.text();
    if (!response.ok) {
      logger.error({ status: response.status, body: body.slice(0, 200) }, 'response_url refused the message');
      return false;
    }
    return true;
  } catch (error) {
    logger.error(errorFields(error), 'response_url could not be reached');
    return false;
  }
}
