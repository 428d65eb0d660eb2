// The answers' action ids, shared by renderers and routes so a button and its listener cannot drift apart.

export const ACTION_RATE_UP = 'rate_up';
export const ACTION_RATE_DOWN = 'rate_down';
/** Slack's own rating element (feedback_buttons): one action id, the clicked side's value says which. */
export const ACTION_RATE_FEEDBACK = 'rate_feedback';
/** 👍 and 👎, in either shape, have one listener. */
export const RATING_ACTION_PATTERN = /^rate_(?:up|down|feedback)$/;
export const ACTION_TRY_AGAIN = 'try_again';
/** Suggestion buttons share one actions block, where action_ids must be unique: `suggestion:<index>`. */
export const SUGGESTION_ACTION_PATTERN = /^suggestion:\d+$/;

export function suggestionActionId(index: number): string {
  return `suggestion:${index}`;
}
/** "Get a person" on an answer: calls the people the place names (escalate-click.ts). */
export const ACTION_ESCALATE = 'escalate';
