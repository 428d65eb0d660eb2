// What every modal submission shares: payload checked, metadata read, other shapes logged, work tracked.

import type { RoomKit } from '../kit/room-kit.js';
import { type ViewSubmission, viewSubmissionSchema } from '../transport/incoming.js';
import type { Handling } from './handling.js';
import { trackedListener, type ViewArgs } from './tracked.js';

export interface Submission<Metadata> {
  view: ViewSubmission['view'];
  userId: string;
  /** As its private_metadata says. */
  metadata: Metadata;
  /** No argument closes the modal. */
  ack: ViewArgs['ack'];
}

export function submissionListener<Metadata>(
  deps: Pick<RoomKit, 'logger' | 'inFlight' | 'users'>,
  modal: {
    /** For log lines: "reason submission". */
    name: string;
    /** Undefined when malformed. */
    metadata(view: ViewSubmission['view']): Metadata | undefined;
  },
  submit: (handling: Handling, submission: Submission<Metadata>) => Promise<void>,
): (args: ViewArgs) => Promise<void> {
  return trackedListener<ViewArgs>(deps, `${modal.name} failed`, async (handling, { ack, body }) => {
    const parsed = viewSubmissionSchema.safeParse(body);
    const metadata = parsed.success ? modal.metadata(parsed.data.view) : undefined;
    if (!parsed.success || metadata === undefined) {
      handling.logger.warn({}, `ignored a ${modal.name} of unexpected shape`);
      await ack();
      return;
    }
    await submit(handling, { view: parsed.data.view, userId: parsed.data.user.id, metadata, ack });
  });
}
