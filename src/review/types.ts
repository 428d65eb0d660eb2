// The review loop in platform-neutral terms: entry snapshots, cards about an entry or a question, edits.

/** Why an asker said an answer was bad; `other` comes with their own words. */
export const DISLIKE_REASONS = ['wrong_answer', 'out_of_date', 'not_understood', 'other'] as const;
export type DislikeReason = (typeof DISLIKE_REASONS)[number];

export interface ReasonNote {
  reason: DislikeReason;
  /** The asker's words, with `other` (and optionally with the others); trimmed, at most 500 characters. */
  text?: string | undefined;
  at: number;
  /** When the entry was changed after the answer this reason is about: it judges the answer before. */
  afterChangeAt?: number | undefined;
}

/** What the gateway last saw of an entry, per docId: no platform call reads one, the robot's answers do. */
export interface EntrySnapshot {
  docId: string;
  /** The robot's matched standard question (`question` of its answer). */
  questionTitle: string;
  answerHtml: string;
  answerType: number | undefined;
  robotFlag: number | undefined;
  seenAt: number;
}

/** Someone to tell when the entry behind their card is fixed. */
export interface AskerToNotify {
  userId: string;
  /** The adapter's workspace of the conversation; absent for askers noted before it was kept. */
  workspace?: string | undefined;
  /** Where their question was answered (adapter terms: channel and thread). */
  conversationId: string;
  threadId: string | undefined;
  question: string;
  /** The robot their question was asked of (undefined: the default one), so Ask again asks it again. */
  robotFlag?: number | undefined;
}

/** An unanswered question an operator linked to the entry that answers it, for one robot. */
export interface QuestionLink {
  /** The question as its card showed it; the link's key is its normalised form (linkKeyOf). */
  question: string;
  docId: string;
  /** The robot the question was asked of; undefined: the platform's default robot. */
  robotFlag: number | undefined;
  /** The entry's standard question, as the robot gave it when the link was checked. */
  entryTitle: string | undefined;
  linkedBy: string;
  linkedAt: number;
}

/** Where something lives in the adapter (Slack: channel and message ts). */
export interface MessageLocation {
  conversationId: string;
  messageId: string;
}

type CardKind = 'disliked' | 'unanswered';
/** `answered`: its askers were answered from the card; `linked`: linked to an entry (unlinking reopens). */
type CardStatus = 'open' | 'fixed' | 'dismissed' | 'answered' | 'linked';

export interface ReviewCard {
  /** `doc:<docId>` for a disliked entry, `q:<hash of the normalised question>` for an unanswered one. */
  id: string;
  kind: CardKind;
  docId: string | undefined;
  entryTitle: string | undefined;
  /** The answer as the robot gave it (HTML), when known; the card shows it rendered and shortened. */
  answerHtml: string | undefined;
  answerType: number | undefined;
  /** The latest report's question for a disliked entry; an unanswered question's first wording. */
  question: string;
  /** Other wordings of an unanswered question, each once, the latest MAX_WORDINGS of them. */
  otherWordings: string[];
  /** The robot the latest report's question was asked of; undefined: the platform's default one. */
  robotFlag: number | undefined;
  /** The linked entry: a `linked` card's, or an open one's whose link answered nothing (the link kept). */
  linked: { docId: string; entryTitle: string | undefined; robotFlag: number | undefined } | undefined;
  /** How many 👎 (disliked) or how many askers (unanswered) this card stands for. */
  count: number;
  /** The latest reasons, newest first, at most MAX_REASONS. */
  reasons: ReasonNote[];
  /** The latest asker, as the card may show them (the adapter hides them when told to). */
  latestAsker: { userId: string; displayName: string } | undefined;
  /** A link to the latest report's message; `direct_message`, `assistant_panel`: none operators can open. */
  latestLink: string | 'direct_message' | 'assistant_panel' | undefined;
  /** The conversation the latest report came from (Slack: the channel, or the DM), when known. */
  latestConversation: string | undefined;
  /** Askers to tell when the entry is fixed, newest last, at most MAX_NOTIFY, one per user and thread. */
  notify: AskerToNotify[];
  status: CardStatus;
  handledBy: string | undefined;
  handledAt: number | undefined;
  /** The fields an edit changed (spec names: questionTitle, answerDesc, …). */
  changedFields: string[];
  posted: MessageLocation | undefined;
  createdAt: number;
  updatedAt: number;
}

/** A card an operator may still answer or link: an open unanswered one; otherwise why not. */
export function openUnansweredCard(card: ReviewCard | undefined): ReviewCard | 'no_card' | 'already_handled' {
  if (card?.kind !== 'unanswered') return 'no_card';
  return card.status === 'open' ? card : 'already_handled';
}

/** What an operator asked to change; every field is optional, and only changes are sent. */
export interface EntryEdit {
  docId: string;
  /** The owning knowledge base as the spec's update call names it: 0 public, 1 the robot's own. */
  robotFlag: 0 | 1;
  questionTitle?: string;
  answerDesc?: string;
  matchFlag?: 0 | 1 | 2;
  usedFlag?: 0 | 1;
  auditStatus?: 1 | 2;
  /** yyyy-MM-dd HH:mm:ss, with auditStatus 2. */
  effectTime?: string;
  invalidTime?: string;
}

export type EditField = 'questionTitle' | 'answerDesc' | 'effectTime' | 'invalidTime' | 'form';

/** Why an edit was refused before anything was sent. */
export type EditProblem =
  | 'empty_question'
  | 'empty_answer'
  | 'answer_too_long'
  | 'period_incomplete'
  | 'period_not_a_date'
  | 'period_ends_before_start'
  | 'nothing_changed';

/** The edit form as the operator filled it, in neutral terms; undefined: left empty or not offered. */
export interface EditForm {
  questionTitle: string | undefined;
  /** The answer in the editable markup (see src/answer-html/editor-markdown.ts). */
  answerMarkup: string | undefined;
  matchFlag: 0 | 1 | 2 | undefined;
  usedFlag: 0 | 1 | undefined;
  /** The knowledge base the entry belongs to: 0 public, 1 the robot's own. */
  robotFlag: 0 | 1 | undefined;
  validity: 'permanent' | 'period' | undefined;
  /** yyyy-MM-dd and HH:mm, as date and time pickers give them. */
  effectDate: string | undefined;
  effectClock: string | undefined;
  invalidDate: string | undefined;
  invalidClock: string | undefined;
}
