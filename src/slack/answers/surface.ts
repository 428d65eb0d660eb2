// Asking and what follows an answer: mentions, DMs, follow-ups, suggestions, Try again, ratings, Get a person.
import type { ListenerDeps } from '../handling/deps.js';
import { decided } from '../handling/pre-dispatch.js';
import type { Surface } from '../handling/surface.js';
import { escalateClickListener } from './escalate-click.js';
import {
  ACTION_ESCALATE,
  ACTION_TRY_AGAIN,
  RATING_ACTION_PATTERN,
  SUGGESTION_ACTION_PATTERN,
} from './ids.js';
import { answerMessage, readMessage } from './message.js';
import { ratingClickListener } from './rating-click.js';
import { suggestionClickListener } from './suggestion-click.js';
import { tryAgainListener } from './try-again.js';

export function answersSurface(deps: ListenerDeps): Surface {
  const message = decided((event, source) => readMessage(deps, event, source), answerMessage(deps));
  return {
    readings: [
      ['message', message],
      ['app_mention', message],
    ],
    clicks: [
      [SUGGESTION_ACTION_PATTERN, suggestionClickListener(deps)],
      [ACTION_TRY_AGAIN, tryAgainListener(deps)],
      [RATING_ACTION_PATTERN, ratingClickListener(deps)],
      [ACTION_ESCALATE, escalateClickListener(deps)],
    ],
  };
}
