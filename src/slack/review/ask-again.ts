// "Ask again" answers below the notice, which stays to say why the answer changed (unlike Try again).
import { askedHow } from '../answers/assistant-threads.js';
import { type Click, type ClickArgs, clickedTarget, questionClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { decodeAskAgainValue } from '../kit/button-values.js';
import type { RoomKit } from '../kit/room-kit.js';

type AskAgainDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'turns' | 'answerer' | 'users' | 'responder' | 'channels' | 'assistant'
>;

export function askAgainListener(deps: AskAgainDeps): (args: ClickArgs) => Promise<void> {
  return questionClickListener(deps, 'ask-again handling failed', (handling, click) =>
    askAgain(deps, handling, click),
  );
}

async function askAgain(deps: AskAgainDeps, handling: Handling, click: Click): Promise<void> {
  const target = clickedTarget(click.payload);
  const value = decodeAskAgainValue(click.value);
  if (!target || !value) {
    handling.logger.warn({}, 'ignored an ask-again click with a malformed value');
    return;
  }
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
}
