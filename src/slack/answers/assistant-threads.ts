// The assistant panel as the answers see it: the channel's robot, Slack's status line and rating.
import type { Placement } from '../../conversation/types.js';
import type { Handling } from '../handling/handling.js';
import { isDirectMessageChannel } from '../kit/conversations.js';
import type { ReplyTarget } from '../transport/responder.js';
import type { RatingButtons } from './blocks.js';
import type { WorkingSignals } from './working-signal.js';

/** A thread of the assistant panel: the app's DM with the person, and the thread's first message. */
export interface PanelThread {
  channel: string;
  threadTs: string;
}

export interface AssistantThreads {
  /** How a question in the thread is asked: the channel beside it decides the robot, else the defaults. */
  placement(handling: Handling, thread: PanelThread): Promise<Placement>;
  /** The panel's status line ("is looking this up…") while the robot works. */
  readonly working: WorkingSignals;
  /** Names the thread after its first question, once; a failure is logged, never thrown. */
  titleOnce(handling: Handling, thread: PanelThread, question: string): Promise<void>;
}

/** The panel thread a reply goes to: every thread in the app's DM is one (Bolt's rule), so no store call. */
export function panelThreadOf(target: ReplyTarget): PanelThread | undefined {
  return isDirectMessageChannel(target.channel) &&
    target.threadTs !== undefined &&
    target.visibleTo === undefined
    ? { channel: target.channel, threadTs: target.threadTs }
    : undefined;
}

/** How a question is asked and shown where it was asked: in the panel its own way, elsewhere the place's. */
export interface AskedHow {
  placement: Placement;
  working?: WorkingSignals | undefined;
  rating?: RatingButtons | undefined;
}

export async function askedHow(
  deps: {
    channels: { at(place: { teamId: string; channelId: string }): Promise<Placement> };
    assistant: AssistantThreads;
  },
  handling: Handling,
  target: ReplyTarget,
): Promise<AskedHow> {
  const thread = panelThreadOf(target);
  if (thread === undefined) {
    return { placement: await deps.channels.at({ teamId: handling.teamId, channelId: target.channel }) };
  }
  return {
    placement: await deps.assistant.placement(handling, thread),
    working: deps.assistant.working,
    // The panel is Slack's own surface: its answers carry Slack's own rating element, whatever RATING_BUTTONS says.
    rating: 'native',
  };
}
