// The reason modal after a 👎, adding to the entry's card; saying nothing is fine, the feedback was sent.
import type { types } from '@slack/bolt';
import { z } from 'zod';
import type { Locale } from '../../conversation/locale.js';
import { errorFields } from '../../logging/error-fields.js';
import { redrawBlock, tell } from '../answers/answerer.js';
import { RATING_BLOCK_ID, ratedText } from '../answers/blocks.js';
import { answerLink } from '../answers/rating-click.js';
import { type Click, type ClickArgs, clickedTarget, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import { type Submission, submissionListener } from '../handling/submission.js';
import type { ViewArgs } from '../handling/tracked.js';
import { answerWorkspace } from '../handling/workspace.js';
import { decodeAnswerValue } from '../kit/button-values.js';
import { context } from '../kit/elements.js';
import type { RoomKit } from '../kit/room-kit.js';
import { postToResponseUrl } from '../transport/response-url.js';
import {
  type RatedMessage,
  REASON_BLOCK_ID,
  REASON_TEXT_BLOCK_ID,
  type ReasonMetadata,
  readReasonForm,
  readReasonMetadata,
} from './forms.js';
import { ACTION_DISLIKE_REASON } from './ids.js';
import { t } from './messages.js';
import { renderReasonModal } from './reason-modal.js';

type ReasonDeps = Pick<RoomKit, 'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'review'>;

export function dislikeReasonClickListener(deps: ReasonDeps): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'reason click handling failed', (handling, click) =>
    openReasonModal(deps, handling, click),
  );
}

async function openReasonModal(deps: ReasonDeps, handling: Handling, click: Click): Promise<void> {
  const { payload, userId } = click;
  const { locale } = await handling.person(userId);
  const contextKey = decodeAnswerValue(click.value);
  const target = clickedTarget(payload);
  if (!contextKey || !payload.trigger_id || !target) {
    handling.logger.warn({}, 'ignored a reason click with a malformed value');
    return;
  }
  const context = await deps.review.context(contextKey).catch((error: unknown) => {
    handling.logger.error({ ...errorFields(error), contextKey }, 'answer context lookup failed');
    return 'unavailable' as const;
  });
  if (context === 'unavailable' || !context) {
    const said =
      context === 'unavailable'
        ? { kind: 'failure' as const, reason: 'store_unavailable' as const, retry: undefined, locale }
        : { kind: 'notice' as const, notice: 'context_expired' as const, locale };
    await tell(deps.responder, handling, target, userId, said);
    return;
  }
  if (context.askerUserId !== userId) {
    deps.onEvent('dislike_reason', 'not_asker');
    await deps.responder.ephemeral(handling, target, userId, {
      text: t(locale, 'reason_not_yours'),
      blocks: [],
    });
    return;
  }
  deps.onEvent('dislike_reason', 'opened');
  // An ephemeral answer cannot be linked to nor changed afterwards: only a message everyone sees is carried.
  const messageTs = payload.message?.ts ?? payload.container?.message_ts;
  const rated =
    messageTs && !payload.container?.is_ephemeral ? { channel: target.channel, ts: messageTs } : undefined;
  // A private rated line is changed through its click's response_url, as Slack allows for ephemeral messages.
  const responseUrl = payload.container?.is_ephemeral ? payload.response_url : undefined;
  // A refusal (an expired trigger) is logged by the responder: the 👎 itself was already sent.
  await deps.responder.openModal(
    handling,
    payload.trigger_id,
    renderReasonModal({
      contextKey,
      locale,
      ...(rated ? { rated } : {}),
      ...(responseUrl ? { responseUrl } : {}),
    }),
  );
}

export function dislikeReasonSubmitListener(deps: ReasonDeps): (args: ViewArgs) => Promise<void> {
  return submissionListener(
    deps,
    { name: 'reason submission', metadata: (view) => readReasonMetadata(view.private_metadata) },
    (handling, submission) => submitReason(deps, handling, submission),
  );
}

async function submitReason(
  deps: ReasonDeps,
  handling: Handling,
  { view, userId, metadata, ack }: Submission<ReasonMetadata>,
): Promise<void> {
  const form = readReasonForm(view);
  // "Other" says nothing by itself: the hint asks for words, and the card would show only "Other".
  if (!form.text && (!form.reason || form.reason === 'other')) {
    const { locale } = await handling.person(userId);
    const errors = form.reason
      ? { [REASON_TEXT_BLOCK_ID]: t(locale, 'reason_other_required') }
      : { [REASON_BLOCK_ID]: t(locale, 'reason_required') };
    await ack({ response_action: 'errors', errors });
    return;
  }
  // The modal closes at once; the card is updated after, however long Slack and the store take.
  await ack();
  const { contextKey, rated, responseUrl } = metadata;
  const context = await deps.review.context(contextKey).catch((error: unknown) => {
    handling.logger.error(
      { ...errorFields(error), contextKey },
      'answer context lookup failed; reason dropped',
    );
    return undefined;
  });
  // Only the asker can have opened this modal; a submission from anyone else is not theirs to give.
  if (!context?.docId || context.askerUserId !== userId) {
    handling.logger.warn(
      { contextKey, known: context !== undefined },
      'reason not noted: not the asker, or expired',
    );
    return;
  }
  const { displayName, locale } = await handling.person(userId);
  // Its card is where the 👎 put it: in the review of the workspace that gave the answer.
  const outcome = await deps.review
    .of(answerWorkspace(context, handling))
    .then((review) =>
      review.observer.reasonGiven(
        // The report behind the new card this reason opens when the entry's card was handled since.
        {
          context,
          asker: { userId, displayName },
          workspace: handling.teamId,
          link: () => answerLink(deps.responder, handling, rated?.channel, rated?.ts),
        },
        { reason: form.reason ?? 'other', text: form.text, at: Date.now() },
        { requestId: handling.requestId },
      ),
    )
    .catch((error: unknown) => {
      handling.logger.error(
        { ...errorFields(error), docId: context.docId },
        'reason did not reach its review card',
      );
      return 'failed' as const;
    });
  deps.onEvent('dislike_reason', outcome);
  if (outcome !== 'noted' && outcome !== 'reopened') return;
  if (rated) await showReasonSent(deps, handling, rated, locale);
  else if (responseUrl) await showPrivateReasonSent(handling, responseUrl, userId, locale);
}

/** A private answer's rated line, which only its own response_url can change, without its button. */
async function showPrivateReasonSent(
  handling: Handling,
  responseUrl: string,
  userId: string,
  locale: Locale,
): Promise<void> {
  // Only a 👎 offers a reason, so the line is the 👎's.
  const text = `${ratedText(locale, userId, 2)} · ${t(locale, 'reason_sent')}`;
  const line: types.ContextBlock = { ...context(text), block_id: RATING_BLOCK_ID };
  await postToResponseUrl(responseUrl, { message: { text, blocks: [line] }, replace: true }, handling.logger);
}

const threadSchema = z.object({
  messages: z
    .array(z.object({ ts: z.string(), text: z.string().optional(), blocks: z.array(z.unknown()).optional() }))
    .optional(),
});
const reasonLineSchema = z.object({
  block_id: z.literal(RATING_BLOCK_ID),
  text: z.object({ text: z.string() }),
  accessory: z.object({ action_id: z.literal(ACTION_DISLIKE_REASON) }),
});

/** The rated line's button becomes "reason sent"; the message is read back, as a modal does not carry it. */
async function showReasonSent(
  deps: ReasonDeps,
  handling: Handling,
  rated: RatedMessage,
  locale: Locale,
): Promise<void> {
  const thread = await handling.client.conversations
    .replies({
      channel: rated.channel,
      ts: rated.ts,
      oldest: rated.ts,
      latest: rated.ts,
      inclusive: true,
      limit: 2,
    })
    .then((replies) => threadSchema.parse(replies))
    .catch((error: unknown) => {
      handling.logger.warn({ ...errorFields(error), channel: rated.channel }, 'rated answer not read back');
      return undefined;
    });
  const message = thread?.messages?.find((candidate) => candidate.ts === rated.ts);
  const line = message?.blocks
    ?.map((block) => reasonLineSchema.safeParse(block))
    .find((parsed) => parsed.success)?.data;
  if (!line) return;
  const sent: types.ContextBlock = {
    ...context(`${line.text.text} · ${t(locale, 'reason_sent')}`),
    block_id: RATING_BLOCK_ID,
  };
  await redrawBlock(deps.responder, handling, rated.channel, message, RATING_BLOCK_ID, sent);
}
