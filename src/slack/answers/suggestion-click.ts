// A click on a suggested question: asks it for the person who clicked, in the same thread.

import { askingClickListener, type ClickArgs } from '../handling/click.js';
import { decodeSuggestionValue } from '../kit/button-values.js';
import type { RoomKit } from '../kit/room-kit.js';
import { askedHow } from './assistant-threads.js';

type SuggestionDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'turns' | 'answerer' | 'channels' | 'users' | 'assistant'
>;

export function suggestionClickListener(deps: SuggestionDeps): (args: ClickArgs) => Promise<void> {
  const log = {
    failed: 'suggestion click handling failed',
    malformed: 'ignored a suggestion click with a malformed value',
  };
  return askingClickListener(deps, log, decodeSuggestionValue, async (handling, click, target, value) => {
    deps.onEvent('suggestion', 'question');
    await deps.answerer.answer(handling, {
      userId: click.userId,
      text: value.q,
      target,
      // The answer that offered the suggestion keeps its own placement, which the core prefers.
      ...(await askedHow(deps, handling, target)),
      suggestion: { contextKey: value.k, docId: value.d, question: value.q },
    });
  });
}
