// Messages and mentions: decides which are questions for the app, and answers each once.
import type { Context, webApi } from '@slack/bolt';
import type { People } from '../../conversation/channel-settings.js';
import { readsAsQuestion } from '../../conversation/question-detector.js';
import { safeParsePlainFirst } from '../../util/plain-first.js';
import type { ListenerDeps } from '../handling/deps.js';
import { beginHandling, type Handling, workspaceOf } from '../handling/handling.js';
import type { ScreenedSource } from '../handling/surface.js';
import {
  type IncomingMessage,
  incomingMessageSchema,
  readPlainIncomingMessage,
} from '../transport/incoming.js';
import type { ReplyTarget } from '../transport/responder.js';
import { askedHow, panelThreadOf } from './assistant-threads.js';
import { questionFromSlackText, unlabelledMentions } from './question-text.js';

type MessageDeps = Pick<
  ListenerDeps,
  | 'logger'
  | 'onEvent'
  | 'inFlight'
  | 'turns'
  | 'answerer'
  | 'users'
  | 'deliveries'
  | 'threads'
  | 'placements'
  | 'channels'
  | 'usergroups'
  | 'assistant'
>;

/** The part of Bolt's `message` and `app_mention` arguments the listener reads. */
export interface MessageArgs {
  event: unknown;
  context: Pick<Context, 'teamId' | 'enterpriseId' | 'botUserId' | 'retryNum'>;
  client: webApi.WebClient;
}

/** Where an incoming event came from, as Bolt's context tells it. */
interface EventSource {
  teamId: string;
  botUserId: string | undefined;
  retryNum: number | undefined;
}

/** What the filter reads of a message: the fields of `IncomingMessage` it decides by. */
type MessageFacts = Pick<
  IncomingMessage,
  'type' | 'subtype' | 'bot_id' | 'bot_profile' | 'user' | 'text' | 'channel' | 'channel_type' | 'thread_ts'
>;

/**
 * Whether the listener would certainly leave this `message` event alone, told from the event, the
 * settings held in process and, for a reply in a thread, the thread registry, before Bolt and the
 * schema see it: the receiver acknowledges such chatter itself (a channel in `all` mode can be busy).
 * A field of an unexpected type, or anything that may be a question, is for the listener to decide,
 * so this only ever drops what it would drop.
 */
export function leavesMessageAlone(
  deps: Pick<MessageDeps, 'channels' | 'threads' | 'turns' | 'logger'>,
  event: Record<string, unknown>,
  source: ScreenedSource,
): boolean | Promise<boolean> {
  const facts = messageFacts(event);
  if (facts === undefined) return false;
  const userId = askerOf(facts, source.appUserId);
  if (userId === undefined || !mayBeQuestion(deps, facts, userId, source.appUserId)) return true;
  if (facts.thread_ts === undefined || isDirectMessage(facts)) return false;
  // A mention of the app in a thread arrives as app_mention too, and is answered from there.
  if (mentionsTheApp(facts.text, source.appUserId)) return true;
  // The listener asks the registry in the asker's turn, after their earlier questions (one of them may
  // be what opens this thread): only an asker with none queued is decided here.
  if (!deps.turns.isIdle({ teamId: source.workspace, userId })) return false;
  return deps.threads
    .isAnswering(source.workspace, facts.channel, facts.thread_ts, deps.logger)
    .then((answering) => !answering);
}

/** The filter's fields of a `message` event, or undefined when one is not what the schema takes. */
function messageFacts(event: Record<string, unknown>): MessageFacts | undefined {
  const { type, subtype, bot_id, bot_profile, user, text, channel, channel_type, thread_ts } = event;
  if (type !== 'message' || typeof channel !== 'string') return undefined;
  if (
    !isOptionalString(subtype) ||
    !isOptionalString(bot_id) ||
    !isOptionalString(user) ||
    !isOptionalString(text) ||
    !isOptionalString(channel_type) ||
    !isOptionalString(thread_ts)
  ) {
    return undefined;
  }
  return { type, subtype, bot_id, bot_profile, user, text, channel, channel_type, thread_ts };
}

function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/** Handles a `message` or `app_mention` event. Never throws. */
export function messageListener(deps: MessageDeps): (args: MessageArgs) => Promise<void> {
  return ({ event, context, client }) => {
    const parsed = safeParsePlainFirst(incomingMessageSchema, event, readPlainIncomingMessage);
    if (!parsed.success) {
      deps.onEvent('message', 'malformed');
      deps.logger.warn({ issues: parsed.error.issues.length }, 'ignored a message event of unexpected shape');
      return Promise.resolve();
    }
    const message = parsed.data;
    const source: EventSource = {
      teamId: workspaceOf(context),
      botUserId: context.botUserId,
      retryNum: context.retryNum,
    };
    const userId = askerOf(message, source.botUserId);
    // Decided here, before any store or Slack call: most such messages in a busy channel are chatter
    // (in HTTP mode the receiver has already dropped most of it, with leavesMessageAlone).
    if (userId === undefined || !mayBeQuestion(deps, message, userId, source.botUserId)) {
      deps.onEvent(message.type, 'ignored');
      return Promise.resolve();
    }
    const handling = beginHandling({ client, context }, deps);
    return deps.inFlight.track(
      handling,
      deps.turns.run(handling, { teamId: source.teamId, userId }, () =>
        answerMessage(deps, handling, message, userId, source),
      ),
      'message event handling failed',
    );
  };
}

async function answerMessage(
  deps: MessageDeps,
  handling: Handling,
  event: IncomingMessage,
  userId: string,
  source: EventSource,
): Promise<void> {
  const { logger } = handling;
  const question = await questionTarget(deps, handling, event, userId, source);
  if (!question) {
    deps.onEvent(event.type, 'ignored');
    return;
  }
  // Slack retries and has delivered one message twice under different event ids: key on the message.
  const deliveryKey = `msg:${source.teamId}:${event.channel}:${event.ts}`;
  if (!(await deps.deliveries.claim(deliveryKey, logger))) {
    deps.onEvent(event.type, 'duplicate');
    logger.info(
      { channel: event.channel, ts: event.ts, retryNum: source.retryNum },
      'duplicate delivery ignored',
    );
    return;
  }
  const { target, unaddressed } = question;
  try {
    // Independent of each other: a slow store must not add its time to the names' lookup.
    const remembered =
      target.threadTs && !isDirectMessage(event)
        ? deps.threads.remember(source.teamId, target, logger)
        : undefined;
    const [text, asked] = await Promise.all([
      questionText(handling, source, event.text ?? ''),
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

/** The message text as the robot should read it, with mentioned users' names looked up. */
async function questionText(handling: Handling, source: EventSource, text: string): Promise<string> {
  const mentioned = unlabelledMentions(text, source.botUserId);
  if (mentioned.length === 0) return questionFromSlackText(text, { botUserId: source.botUserId });
  const users = await Promise.all(mentioned.map((id) => handling.person(id)));
  const names = new Map(mentioned.map((id, index) => [id, users[index]?.displayName]));
  return questionFromSlackText(text, { botUserId: source.botUserId, resolveUser: (id) => names.get(id) });
}

/**
 * Where to answer, and whether the app was addressed (a mention, a DM, a thread of a channel that
 * answers only mentions), or undefined when the message is not a question for the app.
 */
async function questionTarget(
  deps: MessageDeps,
  handling: Handling,
  event: IncomingMessage,
  userId: string,
  source: EventSource,
): Promise<{ target: ReplyTarget; unaddressed: boolean } | undefined> {
  if (event.type === 'app_mention') {
    return { target: { channel: event.channel, threadTs: event.thread_ts ?? event.ts }, unaddressed: false };
  }
  if (isDirectMessage(event))
    return { target: { channel: event.channel, threadTs: event.thread_ts }, unaddressed: false };
  if (!event.thread_ts) {
    // A top-level message without the app's mention that passed mayBeQuestion: the channel answers
    // on its own, if the asker is one it answers.
    const { askers } = deps.channels.policyOf(event.channel);
    const answered = askers === 'anyone' || (await isAmong(deps, handling, askers, userId));
    return answered
      ? { target: { channel: event.channel, threadTs: event.ts }, unaddressed: true }
      : undefined;
  }
  // In a thread, a plain message is a question only inside a thread the app is answering; a
  // message that mentions the app arrives as app_mention too, and the delivery key makes it one.
  if (mentionsTheApp(event.text, source.botUserId)) return undefined;
  const known = await deps.threads.isAnswering(
    source.teamId,
    event.channel,
    event.thread_ts,
    handling.logger,
  );
  if (!known) return undefined;
  const unaddressed = deps.channels.policyOf(event.channel).answer !== 'mention';
  return { target: { channel: event.channel, threadTs: event.thread_ts }, unaddressed };
}

/** Is the user one of these people, by id or by a user group's members? */
async function isAmong(
  deps: MessageDeps,
  handling: Handling,
  people: People,
  userId: string,
): Promise<boolean> {
  if (people.users.includes(userId)) return true;
  for (const group of people.groups) {
    const members = await deps.usergroups.members(handling.client, group, handling.logger);
    if (members?.includes(userId)) return true;
  }
  return false;
}

/** Mentions of people, user groups or everyone (`<@U…>`, `<!subteam^S…>`, `<!here>`): talking to them. */
const MENTION = /<(?:@[UW]|!subteam\^|!here|!channel|!everyone)/;

/**
 * Whether a message can be a question for the app, from the event alone and the channel's settings
 * held in process. Mentions, DMs and thread replies go on to be decided with the stores; a top-level
 * channel message is answered on the app's own only where the channel's answer mode says so.
 */
function mayBeQuestion(
  deps: Pick<MessageDeps, 'channels'>,
  event: MessageFacts,
  /** The asker, as askerOf read it. */
  userId: string,
  botUserId: string | undefined,
): boolean {
  if (event.type === 'app_mention' || isDirectMessage(event)) return true;
  const policy = deps.channels.policyOf(event.channel);
  const text = event.text ?? '';
  // A follow-up in a thread the app answers; where the channel answers on its own, only a question
  // ("ok thanks" is talk between people, and nobody addressed it to the app).
  if (event.thread_ts !== undefined) return policy.answer === 'mention' || readsAsQuestion(text);
  if (policy.answer === 'mention') return false;
  // One that mentions the app arrives as app_mention too and is answered from there.
  if (mentionsTheApp(text, botUserId)) return false;
  if (MENTION.test(text)) return false;
  if (policy.askers !== 'anyone' && policy.askers.groups.length === 0) {
    if (!policy.askers.users.includes(userId)) return false;
  }
  return policy.answer === 'all' ? text.trim() !== '' : readsAsQuestion(text);
}

/** Whether the text mentions the app: such a message arrives as app_mention too, and is answered from there. */
function mentionsTheApp(text: string | undefined, appUserId: string | undefined): boolean {
  return appUserId !== undefined && appUserId !== '' && (text ?? '').includes(`<@${appUserId}>`);
}

/**
 * The user asking, when the message can be a question: edits, deletions, joins, bot posts and the
 * app's own chat.update echoes never are.
 */
function askerOf(event: MessageFacts, botUserId: string | undefined): string | undefined {
  if (event.subtype !== undefined || event.bot_id || event.bot_profile || !event.user) return undefined;
  if (botUserId && event.user === botUserId) return undefined;
  return event.user;
}

function isDirectMessage(event: MessageFacts): boolean {
  return event.channel_type === 'im' || (event.type === 'message' && event.channel.startsWith('D'));
}
