// Try again after a failure: asks the same question again, replacing the failure message.

import { askingClickListener, type ClickArgs } from '../handling/click.js';
import { decodeTryAgainValue } from '../kit/button-values.js';
import type { RoomKit } from '../kit/room-kit.js';
import { tell } from './answerer.js';
import { askedHow } from './assistant-threads.js';

/** What a click needs to ask its question again (Try again here, Ask again on a review notice). */
export type AskAgainDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'turns' | 'answerer' | 'users' | 'responder' | 'channels' | 'assistant'
>;

export function tryAgainListener(deps: AskAgainDeps): (args: ClickArgs) => Promise<void> {
  const log = {
    failed: 'try-again handling failed',
    malformed: 'ignored a try-again click with a malformed value',
  };
  return askingClickListener(deps, log, decodeTryAgainValue, async (handling, click, target, value) => {
    if (value.d && !value.k) {
      // A button from before the answer that offered the suggestion travelled with it: unverifiable.
      const { locale } = await handling.person(click.userId);
      await tell(deps.responder, handling, target, click.userId, {
        kind: 'notice',
        notice: 'context_expired',
        locale,
      });
      return;
    }
    deps.onEvent('try_again', 'question');
    // An ephemeral failure can be replaced only through the click's response_url.
    const replaceUrl = target.visibleTo ? click.payload.response_url : undefined;
    await deps.answerer.answer(handling, {
      userId: click.userId,
      text: value.q,
      target: replaceUrl ? { ...target, replaceUrl } : target,
      ...(await askedHow(deps, handling, target)),
      suggestion: value.d && value.k ? { contextKey: value.k, docId: value.d, question: value.q } : undefined,
      replaceTs: click.payload.message?.ts,
    });
  });
}
