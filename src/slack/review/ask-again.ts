// "Ask again" answers below the notice, which stays to say why the answer changed (unlike Try again).
import { askedHow } from '../answers/assistant-threads.js';
import type { AskAgainDeps } from '../answers/try-again.js';
import { askingClickListener, type ClickArgs } from '../handling/click.js';
import { decodeAskAgainValue } from '../kit/button-values.js';

export function askAgainListener(deps: AskAgainDeps): (args: ClickArgs) => Promise<void> {
  const log = {
    failed: 'ask-again handling failed',
    malformed: 'ignored an ask-again click with a malformed value',
  };
  return askingClickListener(deps, log, decodeAskAgainValue, async (handling, click, target, value) => {
    const linked = value.l === 1;
    deps.onEvent('ask_again', linked ? 'linked' : 'question');
    // Shown the panel's way, but for the robot that answered (or was linked), not the channel beside it now.
    const how = await askedHow(deps, handling, target);
    const robotFlag = linked ? value.r : (value.r ?? how.placement.robotFlag);
    await deps.answerer.answer(handling, {
      userId: click.userId,
      text: value.q,
      target,
      ...how,
      placement: { ...how.placement, robotFlag },
      suggestion: undefined,
      replaceTs: undefined,
      byLink: linked,
    });
  });
}
