// The filter modal's submission: the right checked again, problems under their input, then the result.
import { checkFilter, type FilterResult } from '../../service-desk/tickets.js';
import { todayIn } from '../../util/time-zone.js';
import { operatorRefusal } from '../access/operator-gate.js';
import type { Handling } from '../handling/handling.js';
import { type Submission, submissionListener } from '../handling/submission.js';
import type { ViewArgs } from '../handling/tracked.js';
import { context } from '../kit/elements.js';
import { postToResponseUrl } from '../transport/response-url.js';
import { t } from './messages.js';
import type { DeskDeps } from './pieces.js';
import {
  readTicketFilterSubmission,
  TICKET_FILTER_FIELDS,
  type TicketFilterForm,
  type TicketFilterMetadata,
  ticketFilterProblemBlock,
} from './ticket-filter-view.js';
import { renderTicketProblem } from './ticket-views.js';
import { FALLBACK_TIME_ZONE, resultMessage } from './tickets.js';
import { answerWhenReady, type CommandReply, WORKING_LINE_DELAY_MS } from './working-line.js';

type Submitted = { metadata: TicketFilterMetadata; form: TicketFilterForm };

export function ticketFilterSubmitListener(
  deps: DeskDeps,
  workingLineDelayMs = WORKING_LINE_DELAY_MS,
): (args: ViewArgs) => Promise<void> {
  return submissionListener(
    deps,
    { name: 'tickets filter submission', metadata: readTicketFilterSubmission },
    (handling, submission) => submitFilter(deps, handling, submission, workingLineDelayMs),
  );
}

async function submitFilter(
  deps: DeskDeps,
  handling: Handling,
  { userId, metadata: { metadata, form }, ack }: Submission<Submitted>,
  workingLineDelayMs: number,
): Promise<void> {
  const { locale, timeZone = FALLBACK_TIME_ZONE } = await handling.person(userId);
  // The right is checked again: a modal can be submitted long after it opened.
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'tickets_submit');
  if (refusal) {
    deps.onEvent('tickets_modal', 'refused');
    await ack({ response_action: 'errors', errors: { [TICKET_FILTER_FIELDS.from.block]: refusal } });
    return;
  }
  const checked: FilterResult =
    form.statuses && form.sources
      ? checkFilter(
          { ...form, timeZone, statuses: form.statuses, sources: form.sources },
          todayIn(timeZone, new Date()),
        )
      : { kind: 'invalid', problem: 'not_understood', word: 'status/source' };
  if (checked.kind === 'invalid') {
    deps.onEvent('tickets_modal', 'invalid');
    await ack({
      response_action: 'errors',
      errors: {
        [ticketFilterProblemBlock(checked.problem)]: renderTicketProblem(locale, metadata.command, checked),
      },
    });
    return;
  }
  await ack();
  const work = resultMessage(deps, handling, locale, checked.filter, 1);
  const { responseUrl } = metadata;
  if (responseUrl) {
    // Where the command was typed: a working line first when the platform is slow, as typed filters get.
    const reply: CommandReply = async (message, options) => {
      await postToResponseUrl(responseUrl, { message, replace: options?.replace ?? false }, handling.logger);
    };
    await answerWhenReady(reply, locale, workingLineDelayMs, work);
    return;
  }
  // Asked for from the Home tab: in the operator's DM with the app.
  const message = await work;
  const channel = await deps.responder.directMessage(handling, userId);
  if (!channel) return;
  const note = t(locale, 'tickets_in_dm_note');
  await deps.responder.post(
    handling,
    { channel, threadTs: undefined },
    // The note is a block too: Slack shows the blocks, and `text` only in notifications.
    { text: `${note}\n${message.text}`, blocks: [context(note), ...message.blocks] },
  );
}
