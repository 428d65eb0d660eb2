// The review loop's action and callback ids; the message shortcut's is also in manifest.yml.

export const ACTION_DISLIKE_REASON = 'dislike_reason';
export const ACTION_REVIEW_EDIT = 'review_edit';
export const ACTION_REVIEW_DISMISS = 'review_dismiss';
/** An unanswered question's card: answer its askers, or link it to an entry and edit that. */
export const ACTION_REVIEW_ANSWER = 'review_answer';
export const ACTION_REVIEW_LINK = 'review_link';
export const ACTION_REVIEW_UNLINK = 'review_unlink';
export const ACTION_ASK_AGAIN = 'ask_again';

export const VIEW_DISLIKE_REASON = 'dislike_reason';
export const VIEW_EDIT_ENTRY = 'edit_entry';
export const VIEW_ANSWER_ASKERS = 'review_answer';
export const VIEW_LINK_ENTRY = 'review_link';
export const SHORTCUT_EDIT_ANSWER = 'edit_answer';
