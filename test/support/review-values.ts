// Review-loop values as the stores keep them, for the store tests: a 👎 card on one entry, and what
// the robot last answered from an entry.
import type { EntrySnapshot, QuestionLink, ReviewCard } from '../../src/review/types.js';

/** An open 👎 card on the Wi-Fi entry, counted `count` times, with what a test varies. */
export function reviewCard(id: string, count: number, fields: Partial<ReviewCard> = {}): ReviewCard {
  return {
    id,
    kind: 'disliked',
    docId: 'doc-wifi',
    entryTitle: 'Wi-Fi',
    answerHtml: '<p>Join <b>Corp</b></p>',
    answerType: 1,
    question: 'wifi?',
    otherWordings: [],
    robotFlag: 1,
    linked: undefined,
    count,
    reasons: [{ reason: 'other', text: 'too vague', at: 1 }],
    latestAsker: { userId: 'U1', displayName: 'Jane' },
    latestLink: 'direct_message',
    latestConversation: 'D1',
    notify: [{ userId: 'U1', conversationId: 'D1', threadId: undefined, question: 'wifi?' }],
    status: 'open',
    handledBy: undefined,
    handledAt: undefined,
    changedFields: [],
    posted: { conversationId: 'C1', messageId: '1.2' },
    createdAt: 1,
    updatedAt: 2,
    ...fields,
  };
}

/** What the robot last answered from `docId`. */
export function entrySnapshot(docId: string, answerHtml = '<p>x</p>'): EntrySnapshot {
  return { docId, questionTitle: 'Wi-Fi?', answerHtml, answerType: 1, robotFlag: 1, seenAt: 5 };
}

/** An operator's link of the question "guest wifi?" to `docId`, for robot 1. */
export function questionLink(docId: string): QuestionLink {
  return {
    question: 'guest wifi?',
    docId,
    robotFlag: 1,
    entryTitle: 'How do I join the Wi-Fi?',
    linkedBy: 'U0OPERATOR',
    linkedAt: 7,
  };
}
