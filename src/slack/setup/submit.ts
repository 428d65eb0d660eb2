// The set-up modal's save: the operator's right checked again, the form read, the account checked
// against the platform, then kept sealed; the Home shows it at once.

import { EXPIRED, within } from '../../util/deadline.js';
import { operatorRefusal } from '../access/operator-gate.js';
import type { Handling } from '../handling/handling.js';
import { submissionListener } from '../handling/submission.js';
import type { ViewArgs } from '../handling/tracked.js';
import type { RoomKit, WorkspaceSetupSources } from '../kit/room-kit.js';
import { t } from './messages.js';
import { readSetupForm, SETUP_FIELDS } from './views.js';

type SubmitDeps = Pick<RoomKit, 'logger' | 'inFlight' | 'users' | 'onEvent' | 'access'>;

/** Slack waits 3 s for the answer to a submission: the check gets what is left of it. */
const CHECK_WITHIN_MS = 2_000;

export function setupSubmitListener(
  deps: SubmitDeps,
  setups: WorkspaceSetupSources,
  /** Shows the saved set-up to who saved it (their Home, published again). */
  onSaved: (handling: Handling, userId: string) => Promise<void>,
): (args: ViewArgs) => Promise<void> {
  return submissionListener(
    deps,
    { name: 'workspace set-up submission', metadata: () => ({}) },
    async (handling, { userId, view, ack }) => {
      const { locale } = await handling.person(userId);
      const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'setup_submit');
      if (refusal) {
        deps.onEvent('workspace_setup', 'refused');
        await ack({ response_action: 'errors', errors: { [SETUP_FIELDS.url]: refusal } });
        return;
      }
      const workspace = handling.teamId;
      const current = await setups.store.get(workspace).catch(() => undefined);
      const form = readSetupForm(view, current);
      if (form.kind === 'invalid') {
        deps.onEvent('workspace_setup', 'invalid');
        const errors = Object.fromEntries(
          Object.entries(form.problems).map(([block, problem]) => [block, t(locale, problem)]),
        );
        await ack({ response_action: 'errors', errors });
        return;
      }
      const checked = await within(setups.check(form.setup.account), CHECK_WITHIN_MS);
      if (checked !== 'ok') {
        deps.onEvent('workspace_setup', checked === 'refused' ? 'refused_by_platform' : 'unreachable');
        handling.logger.info(
          { workspace, outcome: checked === EXPIRED ? 'timeout' : checked },
          'workspace set-up not saved: the account did not check',
        );
        const refusal =
          form.setup.account.credential.kind === 'fetched'
            ? { [SETUP_FIELDS.appKey]: t(locale, 'setup_refused') }
            : { [SETUP_FIELDS.accessToken]: t(locale, 'setup_token_refused') };
        await ack({
          response_action: 'errors',
          errors: checked === 'refused' ? refusal : { [SETUP_FIELDS.url]: t(locale, 'setup_unreachable') },
        });
        return;
      }
      try {
        await setups.store.set(workspace, {
          ...form.setup,
          setBy: userId,
          setAt: Date.now(),
        });
      } catch (error) {
        deps.onEvent('workspace_setup', 'store_failed');
        handling.logger.error({ err: error, workspace }, 'workspace set-up could not be saved');
        await ack({
          response_action: 'errors',
          errors: { [SETUP_FIELDS.url]: t(locale, 'setup_store_failed') },
        });
        return;
      }
      await ack();
      deps.onEvent('workspace_setup', 'saved');
      // Never the key: who changed which account, for the operators' own audit.
      handling.logger.info(
        { workspace, userId, sysNum: form.setup.account.sysNum, openUrl: form.setup.account.openUrl },
        'workspace set-up saved',
      );
      await onSaved(handling, userId);
    },
  );
}
