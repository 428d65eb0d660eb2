// Every listener of the app, one registration line each; Bolt routes events and clicks to them.
// Bolt runs every registration's matchers on every request, about 7 µs each (some 3% of an answer's
// CPU for all of them): one listener gets one registration, however many event types it takes.
import type { App, BlockAction } from '@slack/bolt';
import { ACTION_TRY_AGAIN, RATING_ACTION_PATTERN, SUGGESTION_ACTION_PATTERN } from '../action-ids.js';
import { acknowledgeClick } from './acknowledge-clicks.js';
import type { ListenerDeps } from './deps.js';
import { messageListener } from './message.js';
import { ratingClickListener } from './rating-click.js';
import { suggestionClickListener } from './suggestion-click.js';
import { tryAgainListener } from './try-again.js';

export function registerListeners(app: App, deps: ListenerDeps): void {
  app.event(/^(?:app_mention|message)$/, messageListener(deps));
  app.action<BlockAction>(/.*/, acknowledgeClick);
  app.action(SUGGESTION_ACTION_PATTERN, suggestionClickListener(deps));
  app.action(ACTION_TRY_AGAIN, tryAgainListener(deps));
  app.action(RATING_ACTION_PATTERN, ratingClickListener(deps));
}
