// Platform-neutral shapes the conversation core hands to an adapter (Slack today) and takes back.
import type { PlatformFailureKind } from '../platform/errors.js';
import type { Locale } from './locale.js';

export interface Asker {
  /** Stable per workspace and user; sent to the robot as `partnerId`. */
  partnerId: string;
  /** The adapter's own user id, used to check who may rate an answer. */
  userId: string;
  displayName: string;
  locale: Locale;
}

/** Where and how a question is asked, resolved once per message; the answer's context keeps it for clicks. */
export interface Placement {
  /** `robotFlag` of the question; undefined: the platform's default robot. */
  robotFlag: number | undefined;
  /** `source` of the question; undefined: not sent. */
  source: number | undefined;
  /** The app's own words there: each person's language (`auto`) or one for everybody. */
  language: 'auto' | Locale;
  /** How the answer is shown: in the question's thread, for everyone there, or to the asker only. */
  reply: 'thread' | 'ephemeral';
}

export interface SuggestionChoice {
  question: string;
  docId: string;
}

/** A click on a suggestion (or Try again after one): which answer offered it, and which entry. */
export interface SuggestionClick {
  contextKey: string;
  docId: string;
  /** The question as the button showed it; the stored suggestion's wording is what is asked. */
  question: string;
}

export interface AnswerReply {
  kind: 'answer';
  /** Key of the stored answer context; button values carry it back. */
  contextKey: string;
  /** The robot's answer: an HTML fragment in practice, often with raw newlines and bare URLs. */
  answerHtml: string;
  /** The knowledge entry the answer came from: the adapter marks the answer's messages with it. */
  docId?: string | undefined;
  /** The lead-in above the suggestions. */
  stripe: string | undefined;
  suggestions: SuggestionChoice[];
  /** False for "unknown question" answers: no rating buttons. */
  rateable: boolean;
  /** False when no knowledge entry matched the question (answerType 3): the adapter says so. */
  matched: boolean;
  /** Set when the answer came from a suggestion click: "<who> asked: <question>". */
  clickedBy: { displayName: string; question: string } | undefined;
  /** True when the platform is the built-in simulator: every answer is marked as demo content. */
  demo: boolean;
  locale: Locale;
}

/** Why the robot could not answer: the platform's failure kind as its client read it, or the gateway's. */
export type FailureReason =
  | PlatformFailureKind
  /** The whole question (Slack included) outlasted its deadline; set by the adapter. */
  | 'too_slow'
  | 'store_unavailable'
  | 'internal';

interface RetryQuestion {
  question: string;
  /** docId for a retried suggestion click, so the retry asks with questionFlag 1 again. */
  docId: string | undefined;
  /** The answer that offered that suggestion: the retry is checked against it again. */
  contextKey?: string;
}

/** The robot could not answer; with a question to ask again, the user gets a Try again button. */
export interface FailureReply {
  kind: 'failure';
  reason: FailureReason;
  /** Undefined when nothing was being asked (a click whose answer could not be read). */
  retry: RetryQuestion | undefined;
  locale: Locale;
}

/** A short reply that needs no robot call: help for an empty question, a too-long question. */
export interface NoticeReply {
  kind: 'notice';
  notice:
    | 'help'
    | 'question_too_long'
    | 'context_expired'
    | 'not_your_answer'
    | 'already_rated'
    | 'not_set_up';
  locale: Locale;
  limit?: number;
  /** `not_set_up`: the adapter's id of the person to ask (who installed the app), when known. */
  contact?: string;
}

/** Nothing to show: no answer to a message nobody addressed to the app; no message, no review card. */
interface PassReply {
  kind: 'pass';
  locale: Locale;
}

export type Reply = AnswerReply | FailureReply | NoticeReply | PassReply;

/** Rating values as the platform spells them: 1 thumbs up, 2 thumbs down. */
export type Rating = 1 | 2;

/** Everything needed later for a rating or a suggestion click on one answer. */
export interface AnswerContext {
  uid: string | undefined;
  /** The ids feedback needs; undefined when the robot gave none, and the answer cannot be rated. */
  cid: string | undefined;
  msgId: string | undefined;
  docId: string | undefined;
  /** The entry name sent as `docName` in feedback: the robot's matched question, else the user's. */
  docName: string;
  robotFlag: number;
  /** What the question was asked with; undefined for answers stored before placements were kept. */
  placement: Placement | undefined;
  partnerId: string;
  /** The adapter's user id of the person the answer was for: only they may rate it. */
  askerUserId: string;
  question: string;
  suggestions: SuggestionChoice[];
  rateable: boolean;
  /** Where the answer lives, in adapter terms (Slack: channel and thread). */
  conversationId: string;
  threadId: string | undefined;
  createdAt: number;
  /** The adapter's workspace it was asked in: rated through that workspace's account, and only from there. */
  workspace?: string | undefined;
}
