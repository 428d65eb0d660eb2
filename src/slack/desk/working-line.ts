// An operator command's answer when the platform is slow: a working line once the answer is late,
// which the answer then replaces, so a slow `/cs stats` is not mistaken for one that did nothing.
import type { Locale } from '../../conversation/locale.js';
import type { RenderedMessage } from '../kit/elements.js';
import { t } from './messages.js';

/** WORKING_LINE_DELAY_MS's default: under a second, as a person waits for a sign of life. */
export const WORKING_LINE_DELAY_MS = 700;

/** Posts to the command's response_url: a new ephemeral message, or in place of the last one. */
export type CommandReply = (message: RenderedMessage, options?: { replace: boolean }) => Promise<void>;

const LATE = Symbol('late');

/**
 * Answers with `work`'s message. When it is not ready within `delayMs`, "Working on it…" is posted
 * first and the answer replaces it, posted only after the working line so it cannot be overtaken.
 */
export async function answerWhenReady(
  reply: CommandReply,
  locale: Locale,
  delayMs: number,
  work: Promise<RenderedMessage>,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), delayMs);
  });
  const first = await Promise.race([work, late]).finally(() => clearTimeout(timer));
  if (first !== LATE) {
    await reply(first);
    return;
  }
  await reply({ text: t(locale, 'desk_working'), blocks: [] });
  await reply(await work, { replace: true });
}
