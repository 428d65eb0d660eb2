// The edit modal: saved with only what changed; past Slack's 3 s a "Saving…" view without Save (no resend).

import type { AckFn, types } from '@slack/bolt';
import { z } from 'zod';
import { fitsEditor, htmlToMarkup, unsupportedMarkup } from '../../answer-html/editor-markdown.js';
import { parseAnswerHtml } from '../../answer-html/parse.js';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import { type EditPlan, planEdit } from '../../review/edit-plan.js';
import type { EditOutcome } from '../../review/review-desk.js';
import type { EditField, EntrySnapshot } from '../../review/types.js';
import { EXPIRED, within } from '../../util/deadline.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { docIdOfAnswerBlocks } from '../answers/blocks.js';
import type { BoltRequest, Handling } from '../handling/handling.js';
import { type Submission, submissionListener } from '../handling/submission.js';
import { trackedListener, type ViewArgs } from '../handling/tracked.js';
import type { RoomKit, WorkspaceReview } from '../kit/room-kit.js';
import { slackId, slackTs } from '../transport/incoming.js';
import { type EditModalInput, problemText, renderEditModal } from './edit-modal.js';
import { renderEditSaved, renderEditSaving } from './edit-saved.js';
import { EDIT_BLOCK_IDS, type EditMetadata, readEditForm, readEditMetadata } from './forms.js';
import { t } from './messages.js';

/** A message shortcut (message_action) payload, reduced to what its listener reads. */
const messageShortcutSchema = z.object({
  type: z.literal('message_action'),
  callback_id: z.string(),
  trigger_id: z.string().max(200),
  user: z.object({ id: slackId, team_id: slackId.optional() }),
  team: z.object({ id: slackId }).nullish(),
  channel: z.object({ id: slackId }),
  message: z.object({
    ts: slackTs,
    thread_ts: slackTs.optional(),
    user: slackId.optional(),
    bot_id: z.string().optional(),
    app_id: z.string().optional(),
    blocks: z.array(z.unknown()).optional(),
  }),
});

type EditDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'review' | 'access'
>;

/** How long a save waits before "Saving…": seen taken at once, yet a quick platform's result fits. */
const SUBMIT_BUDGET_MS = 500;
/** The knowledge base sent when the operator chose none and the answer did not say: the robot's own. */
const DEFAULT_ROBOT_FLAG = 1;

/** Who the modal is shown to: its words in their language, its times in their zone. */
interface Viewer {
  locale: Locale;
  timeZone: string | undefined;
}

/** Opens the edit modal for an entry of the workspace's, counted under `event`; the caller checked the operator. */
export async function openEditModal(
  deps: Pick<EditDeps, 'responder' | 'onEvent'>,
  review: WorkspaceReview,
  handling: Handling,
  input: { event: string; triggerId: string; docId: string; cardId: string | undefined } & Viewer,
): Promise<void> {
  const view = await editModalView(review, handling, input);
  // The responder logs a refusal (an expired trigger) with the method and the modal's callback id.
  const opened = await deps.responder.openModal(handling, input.triggerId, view);
  deps.onEvent(input.event, opened === undefined ? 'failed' : 'opened');
}

/** The edit modal for an entry, prefilled; also for a modal that turns into it (Link to an entry, a failed save). */
export async function editModalView(
  review: WorkspaceReview,
  handling: Handling,
  input: { docId: string; cardId: string | undefined } & Partial<Pick<EditModalInput, 'banner' | 'values'>> &
    Viewer,
): Promise<types.ModalView> {
  const snapshot = await review.desk.snapshot(input.docId).catch((error: unknown) => {
    handling.logger.warn(
      { ...errorFields(error), docId: input.docId },
      'entry snapshot unavailable; empty form',
    );
    return undefined;
  });
  // The answer's robotFlag names the entry's knowledge base only when it is one of the two the update knows.
  const flag = snapshot?.robotFlag;
  const robotFlag = flag === 0 || flag === 1 ? flag : undefined;
  return renderEditModal({ ...input, robotFlag, prefill: prefillOf(snapshot) });
}

function prefillOf(snapshot: EntrySnapshot | undefined): EditModalInput['prefill'] {
  if (!snapshot) {
    return {
      questionTitle: undefined,
      answerMarkup: undefined,
      answerLength: undefined,
      seenAt: undefined,
      unsupportedMarkup: [],
    };
  }
  // Parsed once for both the markup and what an edit would lose.
  const answer = parseAnswerHtml(snapshot.answerHtml);
  let markup: string | undefined;
  try {
    markup = htmlToMarkup(answer);
  } catch {
    // HTML nested thousands deep overflows the converter's recursion: not editable here, like a long one.
  }
  const fits = markup !== undefined && fitsEditor(markup);
  return {
    questionTitle: snapshot.questionTitle,
    answerMarkup: fits ? markup : undefined,
    // Too long for Slack's input: said so, never cut (a cut copy saved back would lose the rest).
    answerLength: fits ? undefined : (markup ?? snapshot.answerHtml).length,
    seenAt: snapshot.seenAt,
    unsupportedMarkup: unsupportedMarkup(answer),
  };
}

interface ShortcutArgs extends BoltRequest {
  ack: AckFn<void>;
  body: unknown;
  context: BoltRequest['context'] & { botId?: string | undefined; botUserId?: string | undefined };
}

/** "Edit this answer", a message shortcut on any of the app's answers: its workspace's entry, through its account. */
export function editAnswerShortcutListener(deps: EditDeps): (args: ShortcutArgs) => Promise<void> {
  return trackedListener<ShortcutArgs>(deps, 'edit shortcut handling failed', async (handling, args) => {
    await args.ack();
    await editFromShortcut(deps, handling, args.body, args.context);
  });
}

async function editFromShortcut(
  deps: EditDeps,
  handling: Handling,
  body: unknown,
  context: ShortcutArgs['context'],
): Promise<void> {
  const parsed = messageShortcutSchema.safeParse(body);
  if (!parsed.success) {
    handling.logger.warn({}, 'ignored a shortcut of unexpected shape');
    return;
  }
  const shortcut = parsed.data;
  const userId = shortcut.user.id;
  const { locale, timeZone } = await handling.person(userId);
  const target = { channel: shortcut.channel.id, threadTs: shortcut.message.thread_ts };
  const refuse = async (outcome: string, text: string) => {
    deps.onEvent('edit_shortcut', outcome);
    await deps.responder.ephemeral(handling, target, userId, { text, blocks: [] });
  };
  const ours =
    (shortcut.message.bot_id !== undefined && shortcut.message.bot_id === context.botId) ||
    (shortcut.message.user !== undefined && shortcut.message.user === context.botUserId);
  const docId = ours ? docIdOfAnswerBlocks(shortcut.message.blocks) : undefined;
  if (!docId) return refuse('not_an_answer', t(locale, 'edit_not_an_answer'));
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'edit_shortcut');
  if (refusal) return refuse('refused', refusal);
  const review = await deps.review.of(handling.teamId);
  await openEditModal(deps, review, handling, {
    event: 'edit_shortcut',
    triggerId: shortcut.trigger_id,
    docId,
    cardId: undefined,
    locale,
    timeZone,
  });
}

export function editEntrySubmitListener(deps: EditDeps): (args: ViewArgs) => Promise<void> {
  return submissionListener(
    deps,
    {
      name: 'knowledge-base edit submission',
      metadata: (view) => readEditMetadata(view.private_metadata),
    },
    (handling, submission) => submitEdit(deps, handling, submission, Date.now()),
  );
}

async function submitEdit(
  deps: EditDeps,
  handling: Handling,
  { view, userId, metadata, ack }: Submission<EditMetadata>,
  startedAt: number,
): Promise<void> {
  const { locale, timeZone } = await handling.person(userId);

  // The right is checked again: a modal can be submitted long after it opened.
  const refusal = await operatorRefusal(deps.access, handling, userId, locale, 'edit_submit');
  if (refusal) {
    deps.onEvent('edit_submit', 'refused');
    await ack({ response_action: 'errors', errors: { [EDIT_BLOCK_IDS.questionTitle]: refusal } });
    return;
  }

  const form = readEditForm(view);
  const plan = planEdit(form, {
    docId: metadata.d,
    titleHash: metadata.t,
    answerHash: metadata.a,
    robotFlag: DEFAULT_ROBOT_FLAG,
  });
  if (plan.kind === 'invalid') {
    deps.onEvent('edit_submit', 'invalid');
    await ack({ response_action: 'errors', errors: inlineErrors(plan, locale) });
    return;
  }

  const scope = { requestId: handling.requestId };
  // The entry is changed through the account of the workspace whose operator saves it.
  const review = await deps.review.of(handling.teamId);
  const saving = review.desk.applyEdit(plan.edit, plan.changedFields, userId, scope);
  const early = await within(saving, SUBMIT_BUDGET_MS - (Date.now() - startedAt));
  // The form is rendered again only after a failure, with what was typed; a success reads no snapshot.
  const resultView = async (outcome: EditOutcome) => {
    if (outcome.kind === 'updated') {
      return renderEditSaved({ locale, docId: metadata.d, changedFields: plan.changedFields });
    }
    return editModalView(review, handling, {
      docId: metadata.d,
      cardId: metadata.c,
      locale,
      timeZone,
      values: form,
      banner: { kind: 'failed', text: failureText(locale, outcome) },
    });
  };

  let outcome: EditOutcome;
  if (early === EXPIRED) {
    await ack({ response_action: 'update', view: renderEditSaving({ locale, docId: metadata.d }) });
    outcome = await saving;
    // A refusal (the operator closed the modal meanwhile) is logged by the responder; the edit stands.
    await deps.responder.updateModal(handling, view.id, await resultView(outcome));
  } else {
    outcome = early;
    await ack({ response_action: 'update', view: await resultView(outcome) });
  }
  deps.onEvent('edit_submit', outcome.kind);
  if (outcome.kind === 'updated') {
    await review.desk.markFixed(plan.edit, plan.changedFields, userId, { cardId: metadata.c }, scope);
  }
}

/** The plan's problems on the blocks they concern; a problem of the whole form goes on the question. */
function inlineErrors(plan: Extract<EditPlan, { kind: 'invalid' }>, locale: Locale): Record<string, string> {
  const blockOf: Record<EditField, string> = {
    questionTitle: EDIT_BLOCK_IDS.questionTitle,
    answerDesc: EDIT_BLOCK_IDS.answerDesc,
    effectTime: EDIT_BLOCK_IDS.effectDate,
    invalidTime: EDIT_BLOCK_IDS.invalidDate,
    form: EDIT_BLOCK_IDS.questionTitle,
  };
  const errors: Record<string, string> = {};
  for (const field of Object.keys(plan.problems) as EditField[]) {
    const problem = plan.problems[field];
    if (problem) errors[blockOf[field]] = problemText(locale, problem);
  }
  return errors;
}

function failureText(locale: Locale, outcome: Exclude<EditOutcome, { kind: 'updated' }>): string {
  if (outcome.kind === 'refused') {
    const message = outcome.message?.trim();
    return t(locale, 'edit_refused', {
      code: outcome.platformCode,
      message: message ? `: ${message}.` : '.',
    });
  }
  // A timeout may still have reached the platform: the operator is told to check before saving again.
  return outcome.reason === 'timeout' ? t(locale, 'edit_timeout') : t(locale, 'edit_unavailable');
}
