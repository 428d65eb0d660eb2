// Shapes of what Slack sends us, checked with zod at the boundary: anything else is ignored, not trusted.
import { z } from 'zod';

export const slackId = z.string().min(1).max(64);
/** A message timestamp, the id of a message in its channel. */
export const slackTs = z.string().regex(/^\d{1,12}\.\d{1,8}$/);

/** A message or app_mention event as the listener reads it; compiled, as every message meets it (019). */
export const incomingMessageSchema = z.compile(
  z.object({
    type: z.enum(['message', 'app_mention']),
    subtype: z.string().optional(),
    bot_id: z.string().optional(),
    app_id: z.string().optional(),
    user: slackId.optional(),
    text: z.string().max(100_000).optional(),
    channel: slackId,
    channel_type: z.string().optional(),
    ts: slackTs,
    thread_ts: slackTs.optional(),
    client_msg_id: z.string().optional(),
    // Present when a message is forwarded from another app or workspace: never relay those.
    bot_profile: z.unknown().optional(),
  }),
);
export type IncomingMessage = z.infer<typeof incomingMessageSchema>;

/** A block_actions payload, reduced to what the click listeners read. */
export const blockActionSchema = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: slackId, team_id: slackId.optional() }),
  /** Lets the click open a modal, within 3 s. */
  trigger_id: z.string().max(200).optional(),
  /** Answers the clicker alone, or replaces an ephemeral message they were shown. */
  response_url: z.string().max(2000).optional(),
  team: z.object({ id: slackId }).nullish(),
  channel: z.object({ id: slackId }).optional(),
  container: z
    .object({
      channel_id: slackId.optional(),
      message_ts: slackTs.optional(),
      thread_ts: slackTs.optional(),
      // A click in a message only the clicker sees: Slack sends no `message` with it.
      is_ephemeral: z.boolean().optional(),
    })
    .optional(),
  message: z
    .object({
      ts: slackTs,
      thread_ts: slackTs.optional(),
      text: z.string().optional(),
      blocks: z.array(z.unknown()).optional(),
    })
    .optional(),
  /** The view of a click in a modal (`modal`) or on the Home tab (`home`), which views.update can replace. */
  view: z.object({ id: slackId, type: z.string().max(20).optional() }).optional(),
  actions: z
    .array(z.object({ action_id: z.string(), block_id: z.string().optional(), value: z.string().optional() }))
    .min(1),
});
export type BlockActionPayload = z.infer<typeof blockActionSchema>;

/** A view_submission payload, reduced to what the modal listeners read. */
export const viewSubmissionSchema = z.object({
  type: z.literal('view_submission'),
  user: z.object({ id: slackId, team_id: slackId.optional() }),
  team: z.object({ id: slackId }).nullish(),
  view: z.object({
    id: slackId,
    callback_id: z.string(),
    hash: z.string().optional(),
    private_metadata: z.string().max(3000).optional(),
    state: z.unknown().optional(),
  }),
});

export type ViewSubmission = z.infer<typeof viewSubmissionSchema>;
