// What every modal submission listener shares: the payload checked, the modal's own metadata read
// (what it was opened for), a submission of any other shape acknowledged and logged, and the work
// tracked so that a stopping gateway waits for it. Each modal then only says what submitting means.
import { type ViewSubmission, viewSubmissionSchema } from '../transport/incoming.js';
import type { ListenerDeps } from './deps.js';
import type { Handling } from './handling.js';
import { trackedListener, type ViewArgs } from './tracked.js';

export interface Submission<Metadata> {
  view: ViewSubmission['view'];
  userId: string;
  /** What the modal was opened for, as its private_metadata says. */
  metadata: Metadata;
  /** Closes the modal (no argument) or answers it (errors shown inline, another view). */
  ack: ViewArgs['ack'];
}

export function submissionListener<Metadata>(
  deps: Pick<ListenerDeps, 'logger' | 'inFlight' | 'users'>,
  modal: {
    /** Names the submission in log lines: "reason submission", "tickets filter submission". */
    name: string;
    /** The modal's metadata (and whatever else it needs from the view), or undefined when malformed. */
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
