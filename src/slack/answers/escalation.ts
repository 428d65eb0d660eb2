// Calling a person about an answer: who and where, the claim that calls once across replicas, the messages.
import type { types } from '@slack/bolt';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import type { People } from '../../conversation/channel-settings.js';
import type { Locale } from '../../conversation/locale.js';
import { isDirectMessageChannel } from '../kit/conversations.js';
import { context, type RenderedMessage, section } from '../kit/elements.js';
import { FALLBACK_TEXT_MAX, SECTION_TEXT_MAX, truncateCharacters, truncateMrkdwn } from '../kit/limits.js';
import { peopleMentions } from '../kit/text.js';
import { sharedTime } from '../kit/times.js';
import { ESCALATE_BLOCK_ID, mention } from './blocks.js';
import { t } from './messages.js';

export interface EscalationRoute {
  targets: People;
  /** A channel of its own (a DM's call: ESCALATION_CHANNEL_ID); undefined: the question's own thread. */
  channelId: string | undefined;
}

/** The route for answers given in a workspace's conversation; undefined where nobody is to be called. */
export type EscalationRoutes = (workspace: string, conversationId: string) => EscalationRoute | undefined;

export function escalationRoutes(
  channels: { policyOf(workspace: string, channelId: string): { escalate: People | 'off' } },
  direct: { targets: People; channelId: string } | undefined,
): EscalationRoutes {
  return (workspace, conversationId) => {
    // A DM (D…) is no channel's and nobody else can see it: the environment names who is called, and where.
    if (isDirectMessageChannel(conversationId)) {
      return direct;
    }
    const { escalate } = channels.policyOf(workspace, conversationId);
    return escalate === 'off' ? undefined : { targets: escalate, channelId: undefined };
  };
}

/** One call per answer, whoever clicks and on whichever replica. */
export interface EscalationClaims {
  /** True for the first click on the answer; rejects when the shared store cannot say. */
  claim(contextKey: string): Promise<boolean>;
  /** The call reached nobody: the answer may call again. */
  release(contextKey: string): Promise<void>;
}

/** A question is at most MAX_QUESTION_LENGTH (≤ 1800) characters; the answer quoted in a DM's call is cut. */
const QUOTED_QUESTION_MAX = 2_000;
const QUOTED_ANSWER_MAX = 2_000;

export interface Call {
  locale: Locale;
  targets: People;
  askerUserId: string;
  clickerUserId: string;
  question: string;
  /** Set for a DM's call, posted away from the DM: the answer the asker was given, as plain text, if any. */
  awayFromDm?: { answerText: string | undefined };
}

export function renderCall(call: Call): RenderedMessage {
  const { locale } = call;
  // Groups first: one on-call group reaches more people than any one person, and is kept if a list is cut.
  const targets = peopleMentions(call.targets, ' ', 'groups');
  const asker = mention(call.askerUserId);
  const said =
    call.awayFromDm === undefined
      ? t(locale, 'escalation_call', {
          clicked: call.clickerUserId === call.askerUserId ? 'asker' : 'other',
          asker,
          clicker: mention(call.clickerUserId),
        })
      : t(locale, 'escalation_call_direct', { asker });
  // The people first, then who asks: a long list is cut (never inside a mention), who asked never is.
  const leadText = `${truncateMrkdwn(targets, SECTION_TEXT_MAX - said.length - 1)}\n${said}`;
  const question = quote(call.question, QUOTED_QUESTION_MAX);
  const blocks: types.KnownBlock[] = [section(leadText), section(question)];
  const plain = [leadText, question];
  const answerText = call.awayFromDm?.answerText;
  if (answerText !== undefined && answerText.trim() !== '') {
    const answered = t(locale, 'escalation_answer');
    const answer = quote(answerText, QUOTED_ANSWER_MAX);
    blocks.push(section(answered), section(answer));
    plain.push(answered, answer);
  }
  return { text: truncateMrkdwn(plain.join('\n'), FALLBACK_TEXT_MAX), blocks };
}

/** Room a context element leaves for the people called, after who called and when. */
const CALLED_MAX = 2_500;

/** The line in place of the button: who clicked, whom that called, and when, in each reader's time zone. */
export function renderEscalatedLine(
  locale: Locale,
  userId: string,
  at: Date,
  called: People,
): types.ContextBlock {
  const when = sharedTime(at.getTime(), locale);
  const people = truncateMrkdwn(peopleMentions(called, ', ', 'groups'), CALLED_MAX);
  return {
    ...context(t(locale, 'escalated', { user: mention(userId), called: people, when })),
    block_id: ESCALATE_BLOCK_ID,
  };
}

/** User text as a mrkdwn quote: escaped, spaces tidied, every line marked, cut to `max` characters. */
function quote(text: string, max: number): string {
  const lines = truncateCharacters(text.trim(), max)
    .split(/\r?\n/)
    .map((line) => `>${escapeMrkdwn(line.replace(/\s+/g, ' ').trim())}`);
  return truncateMrkdwn(lines.join('\n'), SECTION_TEXT_MAX);
}
