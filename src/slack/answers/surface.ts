// Asking and what follows an answer: mentions, DMs, follow-ups, suggestions, Try again, ratings, Get a person.
import { UsergroupDirectory } from '../access/usergroups.js';
import { decided } from '../handling/pre-dispatch.js';
import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { escalateClickListener } from './escalate-click.js';
import {
  ACTION_ESCALATE,
  ACTION_TRY_AGAIN,
  RATING_ACTION_PATTERN,
  SUGGESTION_ACTION_PATTERN,
} from './ids.js';
import { answerMessage, readMessage } from './message.js';
import type { AnswersPieces } from './pieces.js';
import { ratingClickListener } from './rating-click.js';
import { suggestionClickListener } from './suggestion-click.js';
import { tryAgainListener } from './try-again.js';

const USERGROUP_REFRESH_MS = 60 * 60 * 1000;

export function answersRoom(kit: RoomKit): Room {
  const { stores } = kit.sources;
  const deps: RoomKit & AnswersPieces = {
    ...kit,
    usergroups: new UsergroupDirectory(stores.operators, {
      refreshMs: USERGROUP_REFRESH_MS,
      what: 'user group',
    }),
    escalationClaims: stores.escalations,
    ratingTally: { store: stores.dailyRatings, timeZone: kit.sources.env.DIGEST_TIME_ZONE },
  };
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
