// Messages and mentions: the pre-dispatch reading that picks the questions for the app, and their listener.
import type { People } from '../../conversation/channel-settings.js';
import { readsAsQuestion } from '../../conversation/question-detector.js';
import { afterValue } from '../../util/maybe-promise.js';
import { beginHandling, type Handling } from '../handling/handling.js';
import type { DecidedArgs, EventSource } from '../handling/pre-dispatch.js';
import { isDirectMessageChannel } from '../kit/conversations.js';
import type { RoomKit } from '../kit/room-kit.js';
import { type IncomingMessage, incomingMessageSchema } from '../transport/incoming.js';
import type { ReplyTarget } from '../transport/responder.js';
import { askedHow, panelThreadOf } from './assistant-threads.js';
import type { AnswersPieces } from './pieces.js';
import { questionFromSlackText, unlabelledMentions } from './question-text.js';

type MessageDeps = Pick<
  RoomKit & AnswersPieces,
  | 'logger'
  | 'onEvent'
  | 'inFlight'
  | 'turns'
  | 'answerer'
  | 'users'
  | 'deliveries'
  | 'threads'
  | 'channels'
  | 'usergroups'
  | 'assistant'
>;

/** What the pre-dispatch step decided of a message that is a question for the app, or may be one. */
export interface MessageVerdict {
  message: IncomingMessage;
  userId: string;
  question: Question;
}

/** Where a question is answered, whether the app was addressed, and what only the asker's turn can tell. */
type Question =
  | { kind: 'addressed'; target: ReplyTarget }
  /** A top-level message in a channel that answers on its own; `groups`: askers to look up, in turn. */
  | { kind: 'channel'; target: ReplyTarget; groups: People | undefined }
  /** A reply in a thread; `answering` undefined: the asker's earlier question may open the thread. */
  | { kind: 'thread'; target: ReplyTarget; unaddressed: boolean; answering: true | undefined };

/** Reads a `message` or `app_mention` event once and decides if it is a question; undefined: left alone. */
export function readMessage(
  deps: Pick<MessageDeps, 'channels' | 'threads' | 'turns' | 'logger' | 'onEvent'>,
  event: Record<string, unknown>,
  source: EventSource,
): MessageVerdict | undefined | Promise<MessageVerdict | undefined> {
  const parsed = incomingMessageSchema.safeParse(event);
  if (!parsed.success) {
    deps.onEvent('message', 'malformed');
    deps.logger.warn({ issues: parsed.error.issues.length }, 'ignored a message event of unexpected shape');
    return undefined;
  }
  const message = parsed.data;
  const userId = askerOf(message, source.appUserId);
  const question = userId === undefined ? undefined : questionOf(deps, message, userId, source);
  const verdict = (found: Question | undefined): MessageVerdict | undefined => {
    if (found === undefined || userId === undefined) {
      deps.onEvent(message.type, 'ignored');
      return undefined;
    }
    return { message, userId, question: found };
  };
  return afterValue(question, verdict);
}

/** Answers a message the pre-dispatch step found to be a question. Never throws. */
export function answerMessage(
  deps: MessageDeps,
): (args: DecidedArgs, verdict: MessageVerdict) => Promise<void> {
  return ({ client, context }, verdict) => {
    const handling = beginHandling({ client, context }, deps);
    return deps.inFlight.track(
      handling,
      deps.turns.run(handling, { teamId: handling.teamId, userId: verdict.userId }, () =>
        answerInTurn(deps, handling, verdict, { botUserId: context.botUserId, retryNum: context.retryNum }),
      ),
      'message event handling failed',
    );
  };
}

async function answerInTurn(
  deps: MessageDeps,
  handling: Handling,
  { message: event, userId, question }: MessageVerdict,
  source: { botUserId: string | undefined; retryNum: number | undefined },
): Promise<void> {
  const { logger, teamId } = handling;
  const unaddressed = await unaddressedInTurn(deps, handling, question, userId);
  if (unaddressed === undefined) {
    deps.onEvent(event.type, 'ignored');
    return;
  }
  // Slack retries and has delivered one message twice under different event ids: key on the message.
  const deliveryKey = `msg:${teamId}:${event.channel}:${event.ts}`;
  if (!(await deps.deliveries.claim(deliveryKey, logger))) {
    deps.onEvent(event.type, 'duplicate');
    logger.info(
      { channel: event.channel, ts: event.ts, retryNum: source.retryNum },
      'duplicate delivery ignored',
    );
    return;
  }
  const { target } = question;
  try {
    // Independent of each other: a slow store must not add its time to the names' lookup.
    const remembered =
      target.threadTs && !isDirectMessage(event) ? deps.threads.remember(teamId, target, logger) : undefined;
    const [text, asked] = await Promise.all([
      questionText(handling, source.botUserId, event.text ?? ''),
      askedHow(deps, handling, target),
      remembered,
    ]);
    deps.onEvent(event.type, 'question');
    const panelThread = panelThreadOf(target);
    await Promise.all([
      deps.answerer.answer(handling, { userId, text, target, ...asked, unaddressed }),
      panelThread && deps.assistant.titleOnce(handling, panelThread, text),
    ]);
  } catch (error) {
    await deps.deliveries.release(deliveryKey);
    throw error;
  }
  await deps.deliveries.keep(deliveryKey, logger);
}

/** What only the asker's turn can tell: whether nobody addressed the app, or undefined for no question. */
async function unaddressedInTurn(
  deps: MessageDeps,
  handling: Handling,
  question: Question,
  userId: string,
): Promise<boolean | undefined> {
  switch (question.kind) {
    case 'addressed':
      return false;
    case 'channel':
      return question.groups === undefined || (await isAmong(deps, handling, question.groups, userId))
        ? true
        : undefined;
    case 'thread': {
      const { channel, threadTs } = question.target;
      const answering =
        question.answering ??
        (threadTs !== undefined &&
          (await deps.threads.isAnswering(handling.teamId, channel, threadTs, handling.logger)));
      return answering ? question.unaddressed : undefined;
    }
  }
}

async function questionText(
  handling: Handling,
  botUserId: string | undefined,
  text: string,
): Promise<string> {
  const mentioned = unlabelledMentions(text, botUserId);
  if (mentioned.length === 0) return questionFromSlackText(text, { botUserId });
  const users = await Promise.all(mentioned.map((id) => handling.person(id)));
  const names = new Map(mentioned.map((id, index) => [id, users[index]?.displayName]));
  return questionFromSlackText(text, { botUserId, resolveUser: (id) => names.get(id) });
}

async function isAmong(
  deps: MessageDeps,
  handling: Handling,
  people: People,
  userId: string,
): Promise<boolean> {
  if (people.users.includes(userId)) return true;
  for (const group of people.groups) {
    const members = await deps.usergroups.members(handling.client, handling.teamId, group, handling.logger);
    if (members?.includes(userId)) return true;
  }
  return false;
}

/** Mentions of people, user groups or everyone (`<@U…>`, `<!subteam^S…>`, `<!here>`): talking to them. */
const MENTION = /<(?:@[UW]|!subteam\^|!here|!channel|!everyone)/;

/** A question for the app, as far as the event, the settings held in process and the thread registry tell. */
function questionOf(
  deps: Pick<MessageDeps, 'channels' | 'threads' | 'turns' | 'logger'>,
  event: IncomingMessage,
  userId: string,
  source: EventSource,
): Question | undefined | Promise<Question | undefined> {
  const { channel } = event;
  if (event.type === 'app_mention') {
    return { kind: 'addressed', target: { channel, threadTs: event.thread_ts ?? event.ts } };
  }
  if (isDirectMessage(event)) return { kind: 'addressed', target: { channel, threadTs: event.thread_ts } };
  const policy = deps.channels.policyOf(source.workspace, channel);
  const text = event.text ?? '';
  const threadTs = event.thread_ts;
  if (threadTs !== undefined) {
    // Where the channel answers on its own, only a question: "ok thanks" is talk between people.
    if (policy.answer !== 'mention' && !readsAsQuestion(text)) return undefined;
    // One that mentions the app arrives as app_mention too, and is answered from there.
    if (mentionsTheApp(text, source.appUserId)) return undefined;
    const thread = {
      kind: 'thread',
      target: { channel, threadTs },
      unaddressed: policy.answer !== 'mention',
    } as const;
    if (!deps.turns.isIdle({ teamId: source.workspace, userId })) return { ...thread, answering: undefined };
    return deps.threads
      .isAnswering(source.workspace, channel, threadTs, deps.logger)
      .then((answering) => (answering ? { ...thread, answering: true } : undefined));
  }
  if (policy.answer === 'mention' || mentionsTheApp(text, source.appUserId) || MENTION.test(text)) {
    return undefined;
  }
  const { askers } = policy;
  const listed = askers === 'anyone' || askers.users.includes(userId);
  if (!listed && askers.groups.length === 0) return undefined;
  if (policy.answer === 'all' ? text.trim() === '' : !readsAsQuestion(text)) return undefined;
  return { kind: 'channel', target: { channel, threadTs: event.ts }, groups: listed ? undefined : askers };
}

function mentionsTheApp(text: string | undefined, appUserId: string | undefined): boolean {
  return appUserId !== undefined && appUserId !== '' && (text ?? '').includes(`<@${appUserId}>`);
}

/** The asker, when the message can be a question: edits, joins, bot posts and our own echoes never are. */
function askerOf(event: IncomingMessage, botUserId: string | undefined): string | undefined {
  if (event.subtype !== undefined || event.bot_id || event.bot_profile || !event.user) return undefined;
  if (botUserId && event.user === botUserId) return undefined;
  return event.user;
}

function isDirectMessage(event: IncomingMessage): boolean {
  return event.channel_type === 'im' || (event.type === 'message' && isDirectMessageChannel(event.channel));
}
