// Where a question is asked decides how it is asked (the robot, the source, the app's language, how
// the answer is shown): resolved once per incoming message or click, then carried by the question
// through the core into the answer's context. The channel directory (channels/directory.ts)
// implements it: a channel's own settings over the environment's defaults.
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
