// The one check before an operator's action (a review action, the service desk's command, views and
// buttons): the user must be an operator now; anyone else is told why, and who can grant it, and
// nothing changes.
import type { Locale } from '../../conversation/locale.js';
import type { AccessDeps } from '../handling/deps.js';
import type { Handling } from '../handling/handling.js';
import { t } from './messages.js';

/** The refusal text when the user is not an operator, or undefined when they are. */
export async function operatorRefusal(
  access: AccessDeps,
  handling: Handling,
  userId: string,
  locale: Locale,
  action: string,
): Promise<string | undefined> {
  const check = await access.operators.check(handling.client, userId, handling.logger);
  if (check.kind === 'operator') return undefined;
  access.onRefusal(action);
  handling.logger.info({ userId, action, reason: check.reason }, 'operator action refused: not an operator');
  return check.reason === 'none_configured'
    ? t(locale, 'operators_none_configured')
    : t(locale, 'operators_only');
}
