// One question in Slack: the asker, "working on it" while the robot is slow, the reply, the deadline.
import type { types } from '@slack/bolt';
import {
  type AskOptions,
  failureReply,
  type QuestionInput,
  type RateOutcome,
  type RequestScope,
} from '../../conversation/conversation.js';
import type { Locale } from '../../conversation/locale.js';
import type { Asker, Placement, Rating, Reply, SuggestionClick } from '../../conversation/types.js';
import { EXPIRED } from '../../util/deadline.js';
import type { Handling } from '../handling/handling.js';
import type { Admission, LimitScope, QuestionGate } from '../handling/question-limits.js';
import { partnerIdFor } from '../handling/user-directory.js';
import { isDirectMessageChannel } from '../kit/conversations.js';
import { type RenderedMessage, section } from '../kit/elements.js';
import { placeLocale } from '../kit/i18n.js';
import type { BlockActionPayload } from '../transport/incoming.js';
import type { ReplyTarget, Responder } from '../transport/responder.js';
import { type RatingButtons, renderReply, replaceBlock } from './blocks.js';
import type { EscalationRoutes } from './escalation.js';
import { t } from './messages.js';
import type { WorkingSignals } from './working-signal.js';

type Ask = (input: QuestionInput, options: AskOptions) => Promise<Reply>;

/** The core's rating, sent once for the asker; declared here so listener deps import no listener. */
export type Rate = (
  input: { contextKey: string; rating: Rating; userId: string; locale: Locale },
  scope: RequestScope,
) => Promise<RateOutcome>;

/** Counts what happened to an event or click, by kind and outcome. */
export type OnEvent = (kind: string, outcome: string) => void;

export interface SlackQuestion {
  userId: string;
  text: string;
  target: ReplyTarget;
  /** How it is asked, resolved from where it was asked (handling/placements.ts). */
  placement: Placement;
  /** Set when the question is a click on a suggestion (or Try again after one). */
  suggestion?: SuggestionClick | undefined;
  /** The message the reply replaces: the failure whose Try again was clicked. */
  replaceTs?: string | undefined;
  /** How the asker sees the robot work where the place shows it its own way (the assistant panel's status line). */
  working?: WorkingSignals | undefined;
  /** The rating element where the place has its own (the assistant panel); else RATING_BUTTONS. */
  rating?: RatingButtons | undefined;
  /** Ask again on a question an operator linked to an entry: asked by that entry first. */
  byLink?: boolean | undefined;
  /** Nobody addressed it to the app (a channel answering on its own): shown only if the robot has an answer. */
  unaddressed?: boolean | undefined;
}

export interface AnswerQuestion {
  answer(handling: Handling, question: SlackQuestion): Promise<void>;
}

interface AnswererDeps {
  ask: Ask;
  responder: Responder;
  onEvent: OnEvent;
  working: WorkingSignals;
  /** Who may be called about an answer where it is given: the answer offers "Get a person" there. */
  escalations: EscalationRoutes;
  /** USER_QUESTION_LIMIT and CHANNEL_QUESTION_LIMIT, with operators let through. */
  gate: QuestionGate;
  settings: {
    defaultLocale: Locale;
    /** How long the robot may take before a "working on it" placeholder is posted; 0 posts it at once. */
    placeholderDelayMs: number;
    /** RATING_BUTTONS: what answers are rated with. */
    ratingButtons: RatingButtons;
  };
}

export class Answerer implements AnswerQuestion {
  readonly #deps: AnswererDeps;

  constructor(deps: AnswererDeps) {
    this.#deps = deps;
  }

  async answer(handling: Handling, question: SlackQuestion): Promise<void> {
    const { userId, text, placement, suggestion, replaceTs } = question;
    const direct = isDirectMessageChannel(question.target.channel);
    // In a channel that answers privately, or after a click in a private answer: the asker alone.
    const target: ReplyTarget =
      question.target.visibleTo === undefined && placement.reply === 'ephemeral' && !direct
        ? { ...question.target, visibleTo: userId }
        : question.target;
    // Every question passes here, typed, clicked or tried again: over a limit, the platform is not asked.
    // A DM is one person's: it counts against them only.
    const channel = direct ? undefined : target.channel;
    const admission = await this.#deps.gate(handling, { userId, channel });
    if (admission.kind === 'throttled') {
      if (admission.tell) await this.#tellThrottled(handling, target, userId, placement, admission);
      return;
    }
    const { logger, deadline } = handling;
    const lookup = handling.person(userId);
    const user = deadline ? await deadline.race(lookup) : await lookup;
    if (user === EXPIRED) {
      const locale = this.#deps.settings.defaultLocale;
      await this.#showTooSlow(handling, target, { text, suggestion, locale }, replaceTs);
      return;
    }
    const asker: Asker = {
      partnerId: partnerIdFor(handling.teamId, userId),
      userId,
      displayName: user.displayName,
      locale: placeLocale(placement.language) ?? user.locale,
    };
    // No placeholder when ephemeral (never replaceable) or unaddressed (there may be nothing to say).
    const signals = question.working ?? this.#deps.working;
    const working =
      target.visibleTo === undefined && !question.unaddressed
        ? signals(handling, target, asker.locale, replaceTs)
        : NO_SIGNAL;
    let reply: Reply | typeof EXPIRED;
    try {
      const asking = this.#deps.ask(
        {
          asker,
          text,
          workspace: handling.teamId,
          conversationId: target.channel,
          threadId: target.threadTs,
          placement,
          ...(suggestion ? { suggestion } : {}),
          ...(question.byLink ? { byLink: true } : {}),
          ...(question.unaddressed ? { unaddressed: true } : {}),
        },
        {
          requestId: handling.requestId,
          // Held back by the platform's rate past the deadline, it is told as busy rather than too slow.
          sendBy: deadline?.at,
          // A click replaces its own message at once; a new question gets a placeholder only if the robot is slow.
          beforeAsk: () => working.start(replaceTs ? 0 : this.#deps.settings.placeholderDelayMs),
        },
      );
      reply = deadline ? await deadline.race(asking) : await asking;
    } finally {
      working.stop();
    }
    if (reply === EXPIRED) {
      // A late answer is dropped: the failure with Try again has taken its place.
      await this.#showTooSlow(
        handling,
        target,
        { text, suggestion, locale: asker.locale },
        await working.shownTs(),
      );
      return;
    }
    if (reply.kind === 'pass') {
      // Chatter in a busy channel: counted, and logged only at debug.
      this.#deps.onEvent('question', 'passed_over');
      logger.debug(
        { channel: target.channel, threadTs: target.threadTs },
        'no answer to an unaddressed message; passed over',
      );
      return;
    }
    logger.info(
      { kind: reply.kind, channel: target.channel, threadTs: target.threadTs, clicked: Boolean(suggestion) },
      'reply ready',
    );
    if (suggestion && reply.kind === 'notice') {
      // A stale click is told to the person who clicked, not to the thread.
      await tell(this.#deps.responder, handling, target, userId, reply);
      return;
    }
    const escalate = this.#deps.escalations(handling.teamId, target.channel) !== undefined;
    const rating = question.rating ?? this.#deps.settings.ratingButtons;
    await this.#deps.responder.show(
      handling,
      target,
      renderReply(reply, { escalate, rating }),
      await working.shownTs(),
      () => renderReply(reply, { images: 'links', escalate, rating }),
    );
  }

  /** Once a window, privately; in a DM, where only the asker reads, as a plain message. */
  async #tellThrottled(
    handling: Handling,
    target: ReplyTarget,
    userId: string,
    placement: Placement,
    admission: Extract<Admission, { kind: 'throttled' }>,
  ): Promise<void> {
    const locale = placeLocale(placement.language) ?? (await handling.person(userId)).locale;
    const notice = throttledNotice(locale, admission.scope, admission.retryAfterMs);
    const place = { channel: target.channel, threadTs: target.threadTs };
    if (isDirectMessageChannel(target.channel)) await this.#deps.responder.post(handling, place, notice);
    else await this.#deps.responder.ephemeral(handling, place, userId, notice);
  }

  async #showTooSlow(
    handling: Handling,
    target: ReplyTarget,
    question: { text: string; suggestion: SuggestionClick | undefined; locale: Locale },
    replaceTs: string | undefined,
  ): Promise<void> {
    this.#deps.onEvent('question', 'too_slow');
    const reply = failureReply('too_slow', question.text, question.suggestion, question.locale);
    await this.#deps.responder.show(handling, target, renderReply(reply), replaceTs);
  }
}

const NO_SIGNAL = {
  start: async () => undefined,
  stop: () => undefined,
  shownTs: async () => undefined,
};

/** Seconds for a short wait, minutes past a minute and a half. */
export function throttledNotice(locale: Locale, scope: LimitScope, retryAfterMs: number): RenderedMessage {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const inSeconds = seconds <= 90;
  const text = t(locale, 'throttled', {
    scope,
    unit: inSeconds ? 'seconds' : 'minutes',
    count: inSeconds ? seconds : Math.ceil(seconds / 60),
  });
  return { text, blocks: [section(text)] };
}

/** Tells one user, and only them (ephemeral), a reply such as a notice about their click. */
export async function tell(
  responder: Responder,
  handling: Handling,
  target: ReplyTarget,
  userId: string,
  reply: Reply,
): Promise<void> {
  for (const message of renderReply(reply)) {
    await responder.ephemeral(handling, target, userId, message);
  }
}

/** Redraws a clicked message with its `blockId` block replaced by `block`. */
export async function redrawBlock(
  responder: Responder,
  handling: Handling,
  channel: string,
  message: { ts: string; text?: string | undefined; blocks?: unknown[] | undefined } | undefined,
  blockId: string,
  block: types.KnownBlock,
): Promise<void> {
  // Without the message's blocks an update would replace the whole message with the one block.
  if (!message?.blocks || message.blocks.length === 0) return;
  await responder.update(handling, channel, message.ts, {
    text: message.text ?? '',
    blocks: replaceBlock(message.blocks, blockId, block),
  });
}

/** `block` in its place on the clicked message; an ephemeral one has no blocks: told below it instead. */
export async function showOnClicked(
  responder: Responder,
  handling: Handling,
  { payload, userId }: { payload: BlockActionPayload; userId: string },
  target: ReplyTarget,
  shown: { blockId: string; block: types.KnownBlock; text: string },
): Promise<void> {
  if (payload.container?.is_ephemeral) {
    await responder.ephemeral(handling, target, userId, { text: shown.text, blocks: [shown.block] });
    return;
  }
  await redrawBlock(responder, handling, target.channel, payload.message, shown.blockId, shown.block);
}
