// A working line once a slow command's answer is late, so a slow `/cs stats` is not taken for dead.
import type { Locale } from '../../conversation/locale.js';
import type { RenderedMessage } from '../kit/elements.js';
import { t } from './messages.js';

/** WORKING_LINE_DELAY_MS's default: under a second, as a person waits for a sign of life. */
export const WORKING_LINE_DELAY_MS = 700;

/** Posts to the command's response_url: a new ephemeral message, or in place of the last one. */
export type CommandReply = (message: RenderedMessage, options?: { replace: boolean }) => Promise<void>;

const LATE = Symbol('late');

/** Answers with `work`'s message; a late one replaces "Working on it…", posted after it so never overtaken. */
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
