// "Ask again" on the notice that an answer was updated: the question is asked again and answered as
// a new message below the notice, which stays to say why the answer changed (Try again, by contrast,
// replaces the failure it is clicked on).
import { type Click, type ClickArgs, clickedTarget, questionClickListener } from '../handling/click.js';
import type { ListenerDeps } from '../handling/deps.js';
import type { Handling } from '../handling/handling.js';
import { decodeTryAgainValue } from '../kit/button-values.js';

type AskAgainDeps = Pick<
  ListenerDeps,
  'logger' | 'onEvent' | 'inFlight' | 'turns' | 'answerer' | 'users' | 'responder' | 'placements'
>;

export function askAgainListener(deps: AskAgainDeps): (args: ClickArgs) => Promise<void> {
  return questionClickListener(deps, 'ask-again handling failed', (handling, click) =>
    askAgain(deps, handling, click),
  );
}

async function askAgain(deps: AskAgainDeps, handling: Handling, click: Click): Promise<void> {
  const target = clickedTarget(click.payload);
  const value = decodeTryAgainValue(click.value ?? '');
  if (!target || !value) {
    handling.logger.warn({}, 'ignored an ask-again click with a malformed value');
    return;
  }
  deps.onEvent('ask_again', 'question');
  await deps.answerer.answer(handling, {
    userId: click.userId,
    text: value.q,
    target,
    placement: await deps.placements.at({ teamId: handling.teamId, channelId: target.channel }),
    suggestion: undefined,
    replaceTs: undefined,
  });
}
