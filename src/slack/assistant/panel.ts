// Slack's assistant panel behind the answers' port (answers/assistant-threads.ts).
import type { Locale } from '../../conversation/locale.js';
import type { Placement } from '../../conversation/types.js';
import { errorFields } from '../../logging/error-fields.js';
import type { AssistantThreads, PanelThread } from '../answers/assistant-threads.js';
import type { WorkingSignals } from '../answers/working-signal.js';
import type { Handling } from '../handling/handling.js';
import type { Placements } from '../handling/placements.js';
import { workspaceKey } from '../handling/workspace.js';
import { homeExamples } from '../home/views.js';
import { truncate } from '../kit/limits.js';
import type { Responder } from '../transport/responder.js';
import { t } from './messages.js';
import { type AssistantContextStore, PANEL_TITLE_KEY } from './stores.js';

/** assistant.threads.setSuggestedPrompts refuses more. */
const PROMPTS_MAX = 4;
/** A chip in the panel: the message it sends is the whole question. */
const PROMPT_TITLE_MAX = 75;
/** A line in the person's history, not the whole question. */
const TITLE_MAX = 100;

interface SuggestedPrompt {
  title: string;
  message: string;
}

export interface AssistantPanel extends AssistantThreads {
  /** False (logged) when the store failed. */
  rememberContext(handling: Handling, thread: PanelThread, channelId: string): Promise<boolean>;
  /** In the person's language unless configured. */
  prompts(locale: Locale): readonly SuggestedPrompt[];
}

export function assistantPanel(deps: {
  contexts: AssistantContextStore;
  /** Once, on whichever replica its first question arrives (the stores' `panelTitles`). */
  titles: { claim(key: string, ttlSeconds: number): Promise<boolean> };
  placements: Placements;
  responder: Responder;
  settings: {
    /** As long as its answers' contexts. */
    ttlSeconds: number;
    /** Undefined: the built-in examples. */
    prompts: readonly string[] | undefined;
  };
}): AssistantPanel {
  const { contexts, titles, placements, responder, settings } = deps;
  return {
    working: statusLine(responder),

    async placement(handling, thread): Promise<Placement> {
      const [here, beside] = await Promise.all([
        placements.at({ teamId: handling.teamId, channelId: thread.channel }),
        contexts.get(contextKey(handling.teamId, thread)).catch((error: unknown) => {
          handling.logger.warn(
            errorFields(error),
            'assistant thread context unavailable; default robot used',
          );
          return undefined;
        }),
      ]);
      if (beside === undefined) return here;
      const there = await placements.at({ teamId: handling.teamId, channelId: beside });
      // The robot is the channel's; the words and the way of answering stay the panel's own (a DM).
      return { ...here, robotFlag: there.robotFlag, source: there.source };
    },

    async titleOnce(handling, thread, question) {
      const title = truncate(question.replace(/\s+/g, ' ').trim(), TITLE_MAX);
      // A message with no words (a file) leaves the title to the next question.
      if (title === '') return;
      const claimed = await titles
        .claim(`${PANEL_TITLE_KEY}${contextKey(handling.teamId, thread)}`, settings.ttlSeconds)
        .catch((error: unknown) => {
          handling.logger.warn(errorFields(error), 'assistant thread title claim unavailable; not titled');
          return false;
        });
      if (!claimed) return;
      await responder.call(handling, 'assistant.threads.setTitle', thread, {}, () =>
        handling.client.assistant.threads.setTitle({
          channel_id: thread.channel,
          thread_ts: thread.threadTs,
          title,
        }),
      );
    },

    async rememberContext(handling, thread, channelId) {
      try {
        await contexts.set(contextKey(handling.teamId, thread), channelId, settings.ttlSeconds);
        return true;
      } catch (error) {
        handling.logger.warn(
          { ...errorFields(error), channelId },
          'channel beside the assistant thread not kept; its next question uses the default robot',
        );
        return false;
      }
    },

    prompts(locale) {
      return homeExamples(settings.prompts, locale)
        .slice(0, PROMPTS_MAX)
        .map((question) => ({ title: truncate(question, PROMPT_TITLE_MAX), message: question }));
    },
  };
}

function contextKey(teamId: string, thread: PanelThread): string {
  return workspaceKey(teamId, thread.channel, thread.threadTs);
}

const LOADING_MESSAGES = ['loading_searching', 'loading_reading', 'loading_writing'] as const;

/** Slack clears the status when the app posts in the thread, or when it is set to ''. */
function setStatus(
  responder: Responder,
  handling: Handling,
  thread: PanelThread,
  status: string,
  loadingMessages: string[],
): Promise<boolean> {
  return responder.call(handling, 'assistant.threads.setStatus', thread, {}, () =>
    handling.client.assistant.threads.setStatus({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      status,
      ...(loadingMessages.length > 0 ? { loading_messages: loadingMessages } : {}),
    }),
  );
}

/** Set without waiting, as it must not delay the question; the answer posted in the thread clears it. */
function statusLine(responder: Responder): WorkingSignals {
  return (handling, target, locale, replaceTs) => {
    const thread =
      target.threadTs === undefined ? undefined : { channel: target.channel, threadTs: target.threadTs };
    let statusSet: Promise<unknown> | undefined;
    return {
      start() {
        if (thread !== undefined) {
          const loading = LOADING_MESSAGES.map((key) => t(locale, key));
          statusSet = setStatus(responder, handling, thread, t(locale, 'status'), loading);
        }
        return Promise.resolve();
      },
      stop() {
        if (statusSet === undefined || thread === undefined || replaceTs === undefined) return;
        const set = statusSet;
        statusSet = set.then(() => setStatus(responder, handling, thread, '', []));
      },
      // A status that reached Slack after the answer would stay up under it.
      shownTs: async () => {
        await statusSet;
        return replaceTs;
      },
    };
  };
}
