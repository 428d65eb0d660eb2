// Every listener of the app, one line each in a table per kind of request (events, clicks, modal
// submissions), behind one Bolt registration per kind: Bolt runs every registration's matchers on
// every request, so the tables (routes.ts) keep that cost where it was with five listeners.
import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { operatorGroupListener } from './access/operator-group.js';
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
} from './action-ids.js';
import { messageListener } from './answers/message.js';
import { ratingClickListener } from './answers/rating-click.js';
import { suggestionClickListener } from './answers/suggestion-click.js';
import { tryAgainListener } from './answers/try-again.js';
import { slashCommandListener } from './desk/slash-command.js';
import {
  homeStatisticsListener,
  homeTicketsListener,
  ticketFilterSubmitListener,
  ticketResultListener,
} from './desk/tickets.js';
import { acknowledgeClick } from './handling/acknowledge-clicks.js';
import type { ListenerDeps } from './handling/deps.js';
import { Routes } from './handling/routes.js';
import { appHomeListener, homeExampleClickListener } from './home/app-home.js';
import { dislikeReasonClickListener, dislikeReasonSubmitListener } from './review/dislike-reason.js';
import { editAnswerShortcutListener, editEntrySubmitListener } from './review/edit-entry.js';
import { reviewCardClickListener } from './review/review-card-click.js';

type EventArgs = SlackEventMiddlewareArgs & AllMiddlewareArgs;
type ClickArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

export function registerListeners(app: App, deps: ListenerDeps, settings: { slashCommand: string }): void {
  const events = new Routes<EventArgs>([
    [/^(?:app_mention|message)$/, messageListener(deps)],
    [/^subteam_(?:members_changed|updated)$/, operatorGroupListener(deps)],
    ['app_home_opened', appHomeListener(deps)],
  ]);
  const tryAgain = tryAgainListener(deps);
  const clicks = new Routes<ClickArgs>([
    [SUGGESTION_ACTION_PATTERN, suggestionClickListener(deps)],
    [HOME_EXAMPLE_ACTION_PATTERN, homeExampleClickListener(deps)],
    // "Ask again" after a fix asks the question as typed, as Try again does.
    [ACTION_TRY_AGAIN, tryAgain],
    [ACTION_ASK_AGAIN, tryAgain],
    [RATING_ACTION_PATTERN, ratingClickListener(deps)],
    [ACTION_DISLIKE_REASON, dislikeReasonClickListener(deps)],
    [ACTION_REVIEW_EDIT, reviewCardClickListener(deps, 'edit')],
    [ACTION_REVIEW_DISMISS, reviewCardClickListener(deps, 'dismiss')],
    [TICKET_RESULT_ACTION_PATTERN, ticketResultListener(deps)],
    [ACTION_HOME_OPEN_TICKETS, homeTicketsListener(deps, settings.slashCommand)],
    [ACTION_HOME_OPEN_STATISTICS, homeStatisticsListener(deps)],
  ]);
  const submissions = new Routes<ViewArgs>([
    [VIEW_DISLIKE_REASON, dislikeReasonSubmitListener(deps)],
    [VIEW_EDIT_ENTRY, editEntrySubmitListener(deps)],
    [VIEW_TICKET_FILTER, ticketFilterSubmitListener(deps)],
  ]);

  app.event(events.pattern, async (args) => {
    await events.find(args.event.type)?.(args);
  });
  // Every click is acknowledged, whichever listener handles it or none (a link button, an unknown id).
  app.action<BlockAction>(/.*/, async (args) => {
    await acknowledgeClick(args);
    await clicks.find(args.action.action_id)?.(args);
  });
  app.view<ViewSubmitAction>(submissions.pattern, async (args) => {
    await submissions.find(args.view.callback_id)?.(args);
  });
  app.shortcut(
    { type: 'message_action', callback_id: SHORTCUT_EDIT_ANSWER },
    editAnswerShortcutListener(deps),
  );
  app.command(settings.slashCommand, slashCommandListener(deps));
}
