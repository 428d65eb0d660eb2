// Where a question is asked decides how: resolved once per message or click, carried into its context.
import type { Placement } from '../../conversation/types.js';

interface QuestionPlace {
  teamId: string;
  channelId: string;
}

export interface Placements {
  at(place: QuestionPlace): Promise<Placement>;
}
