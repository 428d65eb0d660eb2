// A click on a suggested question: asks it for the person who clicked, in the same thread.

import { type Click, type ClickArgs, clickedTarget, questionClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { decodeSuggestionValue } from '../kit/button-values.js';
import type { RoomKit } from '../kit/room-kit.js';
import { askedHow } from './assistant-threads.js';

type SuggestionDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'turns' | 'answerer' | 'channels' | 'users' | 'assistant'
>;

export function suggestionClickListener(deps: SuggestionDeps): (args: ClickArgs) => Promise<void> {
  return questionClickListener(deps, 'suggestion click handling failed', (handling, click) =>
    askSuggestion(deps, handling, click),
  );
}

async function askSuggestion(deps: SuggestionDeps, handling: Handling, click: Click): Promise<void> {
  const target = clickedTarget(click.payload);
  const value = decodeSuggestionValue(click.value);
  if (!target || !value) {
    handling.logger.warn({ hasPlace: Boolean(target) }, 'ignored a suggestion click with a malformed value');
    return;
  }
  deps.onEvent('suggestion', 'question');
  await deps.answerer.answer(handling, {
    userId: click.userId,
    text: value.q,
    target,
    // The answer that offered the suggestion keeps its own placement, which the core prefers.
    ...(await askedHow(deps, handling, target)),
    suggestion: { contextKey: value.k, docId: value.d, question: value.q },
  });
}
