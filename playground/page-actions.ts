// The page's actions as the server accepts them: each one checked with zod before it becomes a
// signed Slack request, so a malformed one is a 400 and never reaches the gateway.
import { z } from 'zod';
import { type ElementValue, FAULT_KINDS, type StateValues } from './protocol.js';

const id = z.string().min(1).max(64);
const ts = z.string().regex(/^\d{1,12}\.\d{1,8}$/);

/** A person types in the composer: a message, or a slash command when it starts with `/`. */
export const sendMessageSchema = z.object({
  userId: id,
  channel: id,
  text: z.string().min(1).max(40_000),
  threadTs: ts.optional(),
});

/** Where a clicked element lives. */
const actionSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), channel: id, ts }),
  z.object({ kind: z.literal('ephemeral'), channel: id, ts }),
  z.object({ kind: z.literal('view'), viewId: id }),
]);

const optionSchema = z.object({ text: z.unknown(), value: z.string().max(150) });
const pickedId = z.string().max(64).nullable().optional();

const elementValueSchema: z.ZodType<ElementValue> = z.object({
  type: z.string().min(1).max(64),
  value: z.string().max(3000).nullable().optional(),
  text: z.object({ type: z.literal('plain_text'), text: z.string().max(75) }).optional(),
  selected_option: optionSchema.nullable().optional(),
  selected_options: z.array(optionSchema).max(100).optional(),
  selected_date: z.string().max(10).nullable().optional(),
  selected_time: z.string().max(5).nullable().optional(),
  selected_user: pickedId,
  selected_users: z.array(z.string().max(64)).max(100).optional(),
  selected_conversation: pickedId,
  selected_conversations: z.array(z.string().max(64)).max(100).optional(),
  selected_channel: pickedId,
  selected_channels: z.array(z.string().max(64)).max(100).optional(),
});

/** A person clicks a button (or picks an option) in a message or a view. */
export const clickSchema = z.object({
  userId: id,
  source: actionSourceSchema,
  blockId: z.string().min(1).max(255),
  actionId: z.string().min(1).max(255),
  element: elementValueSchema,
});

const stateValuesSchema: z.ZodType<StateValues> = z.record(
  z.string().max(255),
  z.record(z.string().max(255), elementValueSchema),
);

/** A person submits (or closes) a modal of theirs. */
export const submitViewSchema = z.object({ userId: id, viewId: id, values: stateValuesSchema });
export const closeViewSchema = z.object({ userId: id, viewId: id });

/** A message shortcut from a message's menu. */
export const shortcutSchema = z.object({
  userId: id,
  channel: id,
  ts,
  callbackId: z.string().min(1).max(255),
});

export const homeOpenedSchema = z.object({ userId: id });

/** A person opens the app's assistant panel beside the conversation they look at (none on Home). */
export const assistantOpenedSchema = z.object({ userId: id, channel: id.optional() });

/** A person with the panel open moves to another conversation (or Home). */
export const assistantContextSchema = z.object({ userId: id, channel: id.optional() });

export const faultSchema = z.object({ kind: z.enum(FAULT_KINDS) });
