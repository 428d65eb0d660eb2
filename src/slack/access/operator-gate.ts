// The one check before an operator's action: anyone else is told why and who can grant it; nothing changes.
import type { Locale } from '../../conversation/locale.js';
import type { Handling } from '../handling/handling.js';
import type { AccessDeps } from '../kit/room-kit.js';
import { t } from './messages.js';

/** Undefined when the user is an operator. */
export async function operatorRefusal(
  access: AccessDeps,
  handling: Handling,
  userId: string,
  locale: Locale,
  action: string,
): Promise<string | undefined> {
  const check = await access.operators.check(handling.client, handling.teamId, userId, handling.logger);
  if (check.kind === 'operator') return undefined;
  access.onRefusal(action);
  handling.logger.info({ userId, action, reason: check.reason }, 'operator action refused: not an operator');
  const what = t(locale, 'refused_what', { subject: subjectOf(action) });
  const who = access.contact ?? t(locale, 'administrators');
  return t(locale, check.reason === 'none_configured' ? 'operators_none_configured' : 'operators_only', {
    what,
    who,
  });
}

type RefusedSubject = 'tickets' | 'statistics' | 'agents' | 'channels' | 'knowledge' | 'other';

/** Read from its metric label, so the refusal says what was refused. */
function subjectOf(action: string): RefusedSubject {
  if (/tickets/.test(action)) return 'tickets';
  if (/stat/.test(action)) return 'statistics';
  if (/agents/.test(action)) return 'agents';
  if (/^(?:command_channels?|channel_)/.test(action)) return 'channels';
  if (/^(?:edit_|card_)/.test(action)) return 'knowledge';
  return 'other';
}
