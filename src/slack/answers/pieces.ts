// What only the answers room holds beside the shared kit; its factory in surface.ts builds it.
import type { DailyCountStore, RatingField } from '../../service-desk/daily-counts.js';
import type { UsergroupDirectory } from '../access/usergroups.js';
import type { EscalationClaims } from './escalation.js';

/** What only this room holds: the members of the user groups a channel names, and "Get a person"'s claim. */
export interface AnswersPieces {
  usergroups: Pick<UsergroupDirectory, 'members'>;
  escalationClaims: EscalationClaims;
  /** Where each 👍/👎 is counted for the statistics, by the day in `timeZone` (DIGEST_TIME_ZONE). */
  ratingTally: { store: Pick<DailyCountStore<RatingField>, 'add'>; timeZone: string };
}
