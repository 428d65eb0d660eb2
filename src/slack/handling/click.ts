import type { Logger } from '../../logging/logger.js';
import { isDirectMessageChannel } from '../kit/conversations.js';
import type { RoomKit } from '../kit/room-kit.js';
import { type BlockActionPayload, blockActionSchema } from '../transport/incoming.js';
import type { ReplyTarget } from '../transport/responder.js';
import { type BoltRequest, beginHandling, type Handling } from './handling.js';

/** No `ack`: acknowledge-clicks.ts acks every click, and a second ack of the same request throws. */
export interface ClickArgs extends BoltRequest {
  body: unknown;
  action: object;
}

export interface Click {
  payload: BlockActionPayload;
  value: string | undefined;
  userId: string;
}

/** Undefined (logged) when the payload is not a block_actions of the shape we read. */
function clickOf(args: ClickArgs, logger: Logger): Click | undefined {
  const parsed = blockActionSchema.safeParse(args.body);
  if (!parsed.success) {
    const actionId = 'action_id' in args.action ? args.action.action_id : undefined;
    logger.warn({ actionId }, 'ignored a click of unexpected shape');
    return undefined;
  }
  const payload = parsed.data;
  return { payload, value: payload.actions[0]?.value, userId: payload.user.id };
}

/** Handled on its own, not in the clicker's turn; tracked so a drain waits for it. */
export function trackedClickListener(
  deps: Pick<RoomKit, 'logger' | 'inFlight' | 'users'>,
  failure: string,
  handle: (handling: Handling, click: Click) => Promise<void>,
): (args: ClickArgs) => Promise<void> {
  return async (args) => {
    const click = clickOf(args, deps.logger);
    if (!click) return;
    const handling = beginHandling(args, deps);
    await deps.inFlight.track(handling, handle(handling, click), failure);
  };
}

/** In turn with the clicker's other questions, bounded by the question deadline; tracked for the drain. */
export function questionClickListener(
  deps: Pick<RoomKit, 'logger' | 'inFlight' | 'turns' | 'users'>,
  failure: string,
  ask: (handling: Handling, click: Click) => Promise<void>,
): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, failure, (handling, click) =>
    deps.turns.run(handling, { teamId: handling.teamId, userId: click.userId }, () => ask(handling, click)),
  );
}

/** A click that asks a question, in the clicker's turn; one without a place or a readable value is ignored. */
export function askingClickListener<Value>(
  deps: Pick<RoomKit, 'logger' | 'inFlight' | 'turns' | 'users'>,
  log: { failed: string; malformed: string },
  decode: (value: string | undefined) => Value | undefined,
  ask: (handling: Handling, click: Click, target: ReplyTarget, value: Value) => Promise<void>,
): (args: ClickArgs) => Promise<void> {
  return questionClickListener(deps, log.failed, async (handling, click) => {
    const target = clickedTarget(click.payload);
    const value = decode(click.value);
    if (!target || !value) {
      handling.logger.warn({ hasPlace: Boolean(target) }, log.malformed);
      return;
    }
    await ask(handling, click, target, value);
  });
}

export function clickedTarget(payload: BlockActionPayload): ReplyTarget | undefined {
  const channel = payload.channel?.id ?? payload.container?.channel_id;
  if (!channel) return undefined;
  const message = payload.message;
  // A click in a message only the clicker sees is answered to them alone too.
  const visibleTo = payload.container?.is_ephemeral ? { visibleTo: payload.user.id } : {};
  const threadTs = message?.thread_ts ?? payload.container?.thread_ts;
  if (threadTs) return { channel, threadTs, ...visibleTo };
  if (isDirectMessageChannel(channel)) return { channel, threadTs: undefined, ...visibleTo };
  return { channel, threadTs: message?.ts ?? payload.container?.message_ts, ...visibleTo };
}
