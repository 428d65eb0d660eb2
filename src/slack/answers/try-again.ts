// Try again after a failure: asks the same question again, replacing the failure message.

import { type Click, type ClickArgs, clickedTarget, questionClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { decodeTryAgainValue } from '../kit/button-values.js';
import type { RoomKit } from '../kit/room-kit.js';
import { tell } from './answerer.js';
import { askedHow } from './assistant-threads.js';

type TryAgainDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'turns' | 'answerer' | 'users' | 'responder' | 'channels' | 'assistant'
>;

export function tryAgainListener(deps: TryAgainDeps): (args: ClickArgs) => Promise<void> {
  return questionClickListener(deps, 'try-again handling failed', (handling, click) =>
    askAgain(deps, handling, click),
  );
}

async function askAgain(deps: TryAgainDeps, handling: Handling, click: Click): Promise<void> {
  const target = clickedTarget(click.payload);
  const value = decodeTryAgainValue(click.value);
  if (!target || !value) {
    handling.logger.warn({}, 'ignored a try-again click with a malformed value');
    return;
  }
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
}
