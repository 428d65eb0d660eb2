// Where a question is asked decides how it is asked (the robot, the source, the app's language, how
// the answer is shown): resolved once per incoming message or click, then carried by the question
// through the core into the answer's context. Today every place has the environment's defaults;
// per-channel settings implement this port with a lookup of the channel's own.
import type { Placement } from '../../conversation/types.js';

/** A place in Slack where someone asks. */
interface QuestionPlace {
  teamId: string;
  channelId: string;
}

export interface Placements {
  /** How a question asked at `place` is asked. */
  at(place: QuestionPlace): Promise<Placement>;
}

/** Every place asks with the same placement: the environment's defaults. */
export function uniformPlacements(defaults: Placement): Placements {
  const resolved = Promise.resolve(defaults);
  return { at: () => resolved };
}
