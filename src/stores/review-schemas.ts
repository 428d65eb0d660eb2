// The review loop's stored shapes, checked when read back: a value that does not parse is no value.
import { z } from 'zod';
import type { EntrySnapshot, QuestionLink, ReviewCard } from '../review/types.js';
import type { UsergroupMembers } from '../slack/handling/stores.js';

const location = z.object({ conversationId: z.string(), messageId: z.string() });

// JSON drops undefined properties, so every `| undefined` field comes back missing (docs/decisions/019).
export const reviewCardSchema: z.ZodType<ReviewCard> = z.compile(
  z
    .object({
      id: z.string(),
      kind: z.enum(['disliked', 'unanswered']),
      docId: z.string().optional(),
      entryTitle: z.string().optional(),
      answerHtml: z.string().optional(),
      answerType: z.number().optional(),
      question: z.string(),
      otherWordings: z.array(z.string()).optional(),
      robotFlag: z.number().int().min(0).optional(),
      linked: z
        .object({
          docId: z.string(),
          entryTitle: z.string().optional(),
          robotFlag: z.number().int().min(0).optional(),
        })
        .optional(),
      count: z.number().int().min(0),
      reasons: z.array(
        z.object({
          reason: z.enum(['wrong_answer', 'out_of_date', 'not_understood', 'other']),
          text: z.string().optional(),
          at: z.number(),
          afterChangeAt: z.number().optional(),
        }),
      ),
      latestAsker: z.object({ userId: z.string(), displayName: z.string() }).optional(),
      latestLink: z.string().optional(),
      latestConversation: z.string().optional(),
      notify: z.array(
        z.object({
          userId: z.string(),
          workspace: z.string().optional(),
          conversationId: z.string(),
          threadId: z.string().optional(),
          question: z.string(),
          robotFlag: z.number().int().min(0).optional(),
        }),
      ),
      status: z.enum(['open', 'fixed', 'dismissed', 'answered', 'linked']),
      handledBy: z.string().optional(),
      handledAt: z.number().optional(),
      changedFields: z.array(z.string()),
      posted: location.optional(),
      createdAt: z.number(),
      updatedAt: z.number(),
    })
    .transform(
      (card): ReviewCard => ({
        ...card,
        docId: card.docId,
        // Cards stored before wordings were kept have none.
        otherWordings: card.otherWordings ?? [],
        robotFlag: card.robotFlag,
        linked: card.linked && {
          docId: card.linked.docId,
          entryTitle: card.linked.entryTitle,
          robotFlag: card.linked.robotFlag,
        },
        entryTitle: card.entryTitle,
        answerHtml: card.answerHtml,
        answerType: card.answerType,
        latestAsker: card.latestAsker,
        latestLink: card.latestLink,
        latestConversation: card.latestConversation,
        reasons: card.reasons.map((note) => ({ ...note, text: note.text })),
        notify: card.notify.map((asker) => ({ ...asker, threadId: asker.threadId })),
        handledBy: card.handledBy,
        handledAt: card.handledAt,
        posted: card.posted,
      }),
    ),
);

export const entrySnapshotSchema: z.ZodType<EntrySnapshot> = z
  .object({
    docId: z.string(),
    questionTitle: z.string(),
    answerHtml: z.string(),
    answerType: z.number().optional(),
    robotFlag: z.number().optional(),
    seenAt: z.number(),
  })
  .transform((snapshot) => ({ ...snapshot, answerType: snapshot.answerType, robotFlag: snapshot.robotFlag }));

export const questionLinkSchema: z.ZodType<QuestionLink> = z
  .object({
    question: z.string(),
    docId: z.string().min(1),
    robotFlag: z.number().int().min(0).optional(),
    entryTitle: z.string().optional(),
    linkedBy: z.string(),
    linkedAt: z.number(),
  })
  .transform((link) => ({ ...link, robotFlag: link.robotFlag, entryTitle: link.entryTitle }));

export const usergroupMembersSchema: z.ZodType<UsergroupMembers> = z.object({
  members: z.array(z.string()),
  fetchedAt: z.number(),
});
