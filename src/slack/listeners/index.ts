// Every listener of the app, one registration line each; Bolt routes events and clicks to them.
// Bolt runs every registration's matchers on every request, about 7 µs each (some 3% of an answer's
// CPU for all of them): one listener gets one registration, however many event types it takes.
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import {
  ACTION_ASK_AGAIN,
  ACTION_DISLIKE_REASON,
  ACTION_HOME_OPEN_STATISTICS,
  ACTION_HOME_OPEN_TICKETS,
  ACTION_REVIEW_DISMISS,
  ACTION_REVIEW_EDIT,
  ACTION_TRY_AGAIN,
  HOME_EXAMPLE_ACTION_PATTERN,
  RATING_ACTION_PATTERN,
  SHORTCUT_EDIT_ANSWER,
  SUGGESTION_ACTION_PATTERN,
  TICKET_RESULT_ACTION_PATTERN,
  VIEW_DISLIKE_REASON,
  VIEW_EDIT_ENTRY,
  VIEW_TICKET_FILTER,
} from '../action-ids.js';
import { acknowledgeClick } from './acknowledge-clicks.js';
import { appHomeListener, homeExampleClickListener } from './app-home.js';
import type { ListenerDeps } from './deps.js';
import { dislikeReasonClickListener, dislikeReasonSubmitListener } from './dislike-reason.js';
import { editAnswerShortcutListener, editEntrySubmitListener } from './edit-entry.js';
import { messageListener } from './message.js';
import { operatorGroupListener } from './operator-group.js';
import { ratingClickListener } from './rating-click.js';
import { reviewCardClickListener } from './review-card-click.js';
import { slashCommandListener } from './slash-command.js';
import { suggestionClickListener } from './suggestion-click.js';
import {
  homeStatisticsListener,
  homeTicketsListener,
  ticketFilterSubmitListener,
  ticketResultListener,
} from './tickets.js';
import { tryAgainListener } from './try-again.js';

export function registerListeners(app: App, deps: ListenerDeps, settings: { slashCommand: string }): void {
  app.event(/^(?:app_mention|message)$/, messageListener(deps));
  app.event(/^subteam_(?:members_changed|updated)$/, operatorGroupListener(deps));
  app.event('app_home_opened', appHomeListener(deps));
  app.action<BlockAction>(/.*/, acknowledgeClick);
  app.action(SUGGESTION_ACTION_PATTERN, suggestionClickListener(deps));
  app.action(HOME_EXAMPLE_ACTION_PATTERN, homeExampleClickListener(deps));
  // "Ask again" after a fix asks the question as typed, as Try again does.
  app.action(new RegExp(`^(?:${ACTION_TRY_AGAIN}|${ACTION_ASK_AGAIN})$`), tryAgainListener(deps));
  app.action(RATING_ACTION_PATTERN, ratingClickListener(deps));
  app.action(ACTION_DISLIKE_REASON, dislikeReasonClickListener(deps));
  app.action(ACTION_REVIEW_EDIT, reviewCardClickListener(deps, 'edit'));
  app.action(ACTION_REVIEW_DISMISS, reviewCardClickListener(deps, 'dismiss'));
  app.view<ViewSubmitAction>(VIEW_DISLIKE_REASON, dislikeReasonSubmitListener(deps));
  app.view<ViewSubmitAction>(VIEW_EDIT_ENTRY, editEntrySubmitListener(deps));
  app.shortcut(
    { type: 'message_action', callback_id: SHORTCUT_EDIT_ANSWER },
    editAnswerShortcutListener(deps),
  );
  app.command(settings.slashCommand, slashCommandListener(deps));
  app.view<ViewSubmitAction>(VIEW_TICKET_FILTER, ticketFilterSubmitListener(deps));
  app.action(TICKET_RESULT_ACTION_PATTERN, ticketResultListener(deps));
  app.action(ACTION_HOME_OPEN_TICKETS, homeTicketsListener(deps, settings.slashCommand));
  app.action(ACTION_HOME_OPEN_STATISTICS, homeStatisticsListener(deps));
}
