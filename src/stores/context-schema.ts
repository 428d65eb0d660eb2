// A module of its own, so the SQLite stores (the default) do not load the Redis client to read a context.
import { z } from 'zod';
import { LOCALES } from '../conversation/locale.js';
import type { AnswerContext } from '../conversation/types.js';

const suggestionSchema = z.object({ question: z.string(), docId: z.string() });

// Older contexts may lack these ids or hold '' for none; both read as undefined.
const storedId = z
  .string()
  .optional()
  .transform((id) => id || undefined);

const placementSchema = z.object({
  robotFlag: z.number().optional(),
  source: z.number().optional(),
  language: z.enum(['auto', ...LOCALES]),
  reply: z.enum(['thread', 'ephemeral']),
});

// JSON drops undefined properties, so the `| undefined` fields come back missing.
const storedContextSchema = z.object({
  uid: z.string().optional(),
  cid: storedId,
  msgId: storedId,
  docId: storedId,
  docName: z.string(),
  robotFlag: z.number(),
  partnerId: z.string(),
  askerUserId: z.string(),
  question: z.string(),
  suggestions: z.array(suggestionSchema),
  rateable: z.boolean(),
  conversationId: z.string(),
  threadId: z.string().optional(),
  createdAt: z.number(),
  placement: placementSchema.optional(),
  workspace: z.string().optional(),
});

export const contextSchema: z.ZodType<AnswerContext> = storedContextSchema.transform(
  (stored): AnswerContext => ({
    ...stored,
    uid: stored.uid,
    cid: stored.cid,
    msgId: stored.msgId,
    docId: stored.docId,
    threadId: stored.threadId,
    placement: stored.placement && {
      robotFlag: stored.placement.robotFlag,
      source: stored.placement.source,
      language: stored.placement.language,
      reply: stored.placement.reply,
    },
  }),
);
