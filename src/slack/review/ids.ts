// The review loop's ids: the reason button on a 👎 line, a card's buttons, the asker's "Ask again",
// its modals' callback ids and the message shortcut's (also in manifest.yml).

export const ACTION_DISLIKE_REASON = 'dislike_reason';
export const ACTION_REVIEW_EDIT = 'review_edit';
export const ACTION_REVIEW_DISMISS = 'review_dismiss';
export const ACTION_ASK_AGAIN = 'ask_again';

export const VIEW_DISLIKE_REASON = 'dislike_reason';
export const VIEW_EDIT_ENTRY = 'edit_entry';
export const SHORTCUT_EDIT_ANSWER = 'edit_answer';
