// The action ids of the app's buttons: the renderers put them on buttons, and the listeners are
// registered by them, so a button and the listener of its clicks cannot drift apart.

export const ACTION_RATE_UP = 'rate_up';
export const ACTION_RATE_DOWN = 'rate_down';
/** 👍 and 👎 have one listener. */
export const RATING_ACTION_PATTERN = /^rate_(?:up|down)$/;
export const ACTION_TRY_AGAIN = 'try_again';
/** Suggestion buttons share one actions block, where action_ids must be unique: `suggestion:<index>`. */
export const SUGGESTION_ACTION_PATTERN = /^suggestion:\d+$/;

export function suggestionActionId(index: number): string {
  return `suggestion:${index}`;
}

/** The Home tab's example questions share one actions block too: `home_example:<index>`. */
export const HOME_EXAMPLE_ACTION_PATTERN = /^home_example:\d+$/;

export function homeExampleActionId(index: number): string {
  return `home_example:${index}`;
}

/** The review loop: the reason button on a 👎 line, a card's buttons, the asker's "Ask again". */
export const ACTION_DISLIKE_REASON = 'dislike_reason';
export const ACTION_REVIEW_EDIT = 'review_edit';
export const ACTION_REVIEW_DISMISS = 'review_dismiss';
export const ACTION_ASK_AGAIN = 'ask_again';

/** Modals' callback ids, and the message shortcut's (also in manifest.yml). */
export const VIEW_DISLIKE_REASON = 'dislike_reason';
export const VIEW_EDIT_ENTRY = 'edit_entry';
export const SHORTCUT_EDIT_ANSWER = 'edit_answer';

/** The operators' service desk: the tickets filter modal, its result's buttons, and the Home tab's shortcuts to both views. */
export const VIEW_TICKET_FILTER = 'ticket_filter';
export const ACTION_TICKETS_PAGE = 'tickets_page';
export const ACTION_TICKETS_CSV = 'tickets_csv';
export const ACTION_TICKETS_RETRY = 'tickets_retry';
/** Previous and Next share an actions block, so each has its own id: `tickets_page:prev|next`. */
export const TICKET_RESULT_ACTION_PATTERN = /^(?:tickets_page:(?:prev|next)|tickets_retry|tickets_csv)$/;
export const ACTION_HOME_OPEN_TICKETS = 'home_open_tickets';
export const ACTION_HOME_OPEN_STATISTICS = 'home_open_statistics';
