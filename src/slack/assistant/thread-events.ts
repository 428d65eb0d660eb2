import { z } from 'zod';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import { type Locale, localeOfText } from '../../conversation/locale.js';
import type { PanelThread } from '../answers/assistant-threads.js';
import { type BoltRequest, beginHandling, type Handling } from '../handling/handling.js';
import { type RenderedMessage, section } from '../kit/elements.js';
import { truncate } from '../kit/limits.js';
import type { RoomKit } from '../kit/room-kit.js';
import { slackId, slackTs } from '../transport/incoming.js';
import { t } from './messages.js';

type ThreadEventDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'deliveries' | 'assistant'
>;

type ThreadEventArgs = BoltRequest & { event: unknown };

const NAME_MAX = 100;

/**
 * An assistant panel's thread event (assistant_thread_started, assistant_thread_context_changed),
 * reduced to what its listeners read: the person, the thread, and the channel they are looking at.
 */
const assistantThreadEventSchema = z.object({
  type: z.enum(['assistant_thread_started', 'assistant_thread_context_changed']),
  assistant_thread: z.object({
    user_id: slackId,
    channel_id: slackId,
    thread_ts: slackTs,
    context: z.object({ channel_id: slackId.optional() }).optional(),
  }),
});
type AssistantThreadEvent = z.infer<typeof assistantThreadEventSchema>;

/** Never throws. */
export function threadStartedListener(deps: ThreadEventDeps): (args: ThreadEventArgs) => Promise<void> {
  return (args) =>
    handleThreadEvent(deps, args, 'assistant_thread_started', async (handling, event) => {
      const { user_id: userId, channel_id: channel, thread_ts: threadTs } = event.assistant_thread;
      const thread = { channel, threadTs };
      // Slack retries an event it thinks was lost: one greeting per thread, whichever replica gets it.
      const deliveryKey = `assistant-start:${handling.teamId}:${channel}:${threadTs}`;
      if (!(await deps.deliveries.claim(deliveryKey, handling.logger))) {
        deps.onEvent(event.type, 'duplicate');
        return;
      }
      const beside = event.assistant_thread.context?.channel_id;
      const [person] = await Promise.all([
        handling.person(userId),
        beside === undefined ? undefined : keepContext(deps, handling, thread, beside),
      ]);
      await Promise.all([
        deps.responder.post(handling, thread, greeting(person.locale, person.displayName)),
        deps.responder.call(handling, 'assistant.threads.setSuggestedPrompts', thread, {}, () =>
          handling.client.assistant.threads.setSuggestedPrompts({
            channel_id: thread.channel,
            thread_ts: thread.threadTs,
            title: t(person.locale, 'prompts_title'),
            prompts: [...deps.assistant.prompts(person.locale)],
          }),
        ),
      ]);
      await deps.deliveries.keep(deliveryKey, handling.logger);
      deps.onEvent(event.type, 'greeted');
    });
}

/** The channel the person now looks at asks with its robot. Never throws. */
export function contextChangedListener(deps: ThreadEventDeps): (args: ThreadEventArgs) => Promise<void> {
  return (args) =>
    handleThreadEvent(deps, args, 'assistant_thread_context_changed', async (handling, event) => {
      const { channel_id: channel, thread_ts: threadTs } = event.assistant_thread;
      const beside = event.assistant_thread.context?.channel_id;
      // Somewhere that is no channel (a search, a canvas): the channel last seen still stands.
      if (beside === undefined) {
        deps.onEvent(event.type, 'ignored');
        return;
      }
      await keepContext(deps, handling, { channel, threadTs }, beside);
      deps.onEvent(event.type, 'remembered');
    });
}

async function keepContext(
  deps: ThreadEventDeps,
  handling: Handling,
  thread: PanelThread,
  channelId: string,
): Promise<void> {
  if (await deps.assistant.rememberContext(handling, thread, channelId)) {
    handling.logger.info({ channelId, threadTs: thread.threadTs }, 'assistant thread beside a channel');
  }
}

function handleThreadEvent(
  deps: ThreadEventDeps,
  args: ThreadEventArgs,
  type: AssistantThreadEvent['type'],
  handle: (handling: Handling, event: AssistantThreadEvent) => Promise<void>,
): Promise<void> {
  const parsed = assistantThreadEventSchema.safeParse(args.event);
  if (!parsed.success || parsed.data.type !== type) {
    deps.onEvent(type, 'malformed');
    deps.logger.warn({ type }, 'ignored an assistant thread event of unexpected shape');
    return Promise.resolve();
  }
  const handling = beginHandling(args, deps);
  return deps.inFlight.track(handling, handle(handling, parsed.data), `${type} handling failed`);
}

function greeting(locale: Locale, displayName: string): RenderedMessage {
  const text = t(locale, 'greeting', { name: escapeMrkdwn(truncate(firstName(displayName), NAME_MAX)) });
  return { text, blocks: [section(text)] };
}

/** A Chinese name (王芳) is said whole, as people say it. */
function firstName(displayName: string): string {
  if (localeOfText(displayName) === 'zh-CN') return displayName;
  return displayName.trim().split(/\s+/)[0] || displayName;
}
