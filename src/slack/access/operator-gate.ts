// The one check before a review action (open the edit modal, dismiss a card, save an edit): the
// user must be an operator now; anyone else is told why, and who can grant it, and nothing changes.
import type { Locale } from '../../conversation/locale.js';
import type { ReviewDeps } from '../handling/deps.js';
import type { Handling } from '../handling/handling.js';
import { t } from './messages.js';

/** The refusal text when the user is not an operator, or undefined when they are. */
export async function operatorRefusal(
  review: Pick<ReviewDeps, 'operators' | 'onRefusal'>,
  handling: Handling,
  userId: string,
  locale: Locale,
  action: string,
): Promise<string | undefined> {
  const check = await review.operators.check(handling.client, userId, handling.logger);
  if (check.kind === 'operator') return undefined;
  review.onRefusal(action);
  handling.logger.info({ userId, action, reason: check.reason }, 'review action refused: not an operator');
  return check.reason === 'none_configured'
    ? t(locale, 'operators_none_configured')
    : t(locale, 'operators_only');
}
