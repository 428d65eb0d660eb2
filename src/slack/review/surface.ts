// The review loop's surface: a 👎's reason, the cards' buttons, editing an entry, the asker's "Ask again".

import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { askAgainListener } from './ask-again.js';
import { answerAskersSubmitListener, linkEntrySubmitListener } from './card-answers.js';
import { dislikeReasonClickListener, dislikeReasonSubmitListener } from './dislike-reason.js';
import { editAnswerShortcutListener, editEntrySubmitListener } from './edit-entry.js';
import {
  ACTION_ASK_AGAIN,
  ACTION_DISLIKE_REASON,
  ACTION_REVIEW_ANSWER,
  ACTION_REVIEW_DISMISS,
  ACTION_REVIEW_EDIT,
  ACTION_REVIEW_LINK,
  ACTION_REVIEW_UNLINK,
  SHORTCUT_EDIT_ANSWER,
  VIEW_ANSWER_ASKERS,
  VIEW_DISLIKE_REASON,
  VIEW_EDIT_ENTRY,
  VIEW_LINK_ENTRY,
} from './ids.js';
import { reviewCardClickListener } from './review-card-click.js';

export function reviewRoom(deps: RoomKit): Room {
  return {
    clicks: [
      [ACTION_DISLIKE_REASON, dislikeReasonClickListener(deps)],
      [ACTION_REVIEW_EDIT, reviewCardClickListener(deps, ACTION_REVIEW_EDIT)],
      [ACTION_REVIEW_DISMISS, reviewCardClickListener(deps, ACTION_REVIEW_DISMISS)],
      [ACTION_REVIEW_ANSWER, reviewCardClickListener(deps, ACTION_REVIEW_ANSWER)],
      [ACTION_REVIEW_LINK, reviewCardClickListener(deps, ACTION_REVIEW_LINK)],
      [ACTION_REVIEW_UNLINK, reviewCardClickListener(deps, ACTION_REVIEW_UNLINK)],
      [ACTION_ASK_AGAIN, askAgainListener(deps)],
    ],
    submissions: [
      [VIEW_DISLIKE_REASON, dislikeReasonSubmitListener(deps)],
      [VIEW_EDIT_ENTRY, editEntrySubmitListener(deps)],
      [VIEW_ANSWER_ASKERS, answerAskersSubmitListener(deps)],
      [VIEW_LINK_ENTRY, linkEntrySubmitListener(deps)],
    ],
    messageShortcuts: [[SHORTCUT_EDIT_ANSWER, editAnswerShortcutListener(deps)]],
  };
}
