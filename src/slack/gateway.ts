// Slack's side of the conversation: decides which messages are questions, translates them for the
// core, shows "working", and shows the core's replies. Button clicks come through here too.
import { randomUUID } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import type { Locale } from '../config/env.js';
import type { Conversation } from '../conversation/conversation.js';
import { KeyedQueue } from '../conversation/keyed-queue.js';
import type { OnceStore } from '../conversation/stores.js';
import type { Asker, Rating, Reply, SuggestionClick } from '../conversation/types.js';
import type { Logger } from '../logging/logger.js';
import { Deadline, EXPIRED } from '../util/deadline.js';
import { type BlockActionPayload, type IncomingMessage, incomingMessageSchema } from './incoming.js';
import { questionFromSlackText, unlabelledMentions } from './question-text.js';
import { renderRatedLine, renderReply, renderThinking, replaceRatingButtons } from './render/blocks.js';
import { decodeRatingValue, decodeSuggestionValue, decodeTryAgainValue } from './render/button-values.js';
import { type Outbox, type Place, Responder } from './responder.js';
import { partnerIdFor, type UserDirectory } from './user-directory.js';

type WebClient = webApi.WebClient;

export interface GatewaySettings {
  defaultLocale: Locale;
  /** How long a delivered message is remembered, so Slack's retries and duplicates are answered once. */
  dedupTtlSeconds: number;
  /**
   * How long a delivery being handled stays claimed before it is answered: longer than a handling
   * takes, far shorter than dedupTtlSeconds, so Slack's retry of a delivery whose handling died with
   * its process is answered rather than dropped.
   */
  handlingLeaseSeconds: number;
  /** How long a thread the app answers in keeps listening without a new mention. */
  threadTtlSeconds: number;
  /** How long the robot may take before a "working on it" placeholder is posted; 0 posts it at once. */
  placeholderDelayMs: number;
  /**
   * The longest one question may hold its asker's queue: past it the user's next question goes
   * ahead, and a question whose answer is not ready by then is told as too slow, with Try again.
   */
  questionDeadlineMs: number;
}

export interface GatewayMetrics {
  onEvent?(kind: string, outcome: string): void;
  onSlackApiError?(method: string, error: string | undefined): void;
}

/** One event or click being handled: the client to answer with and a logger naming the request. */
interface Handling extends Outbox {
  requestId: string;
  /** Set when a question's turn starts: how long it may hold the asker's queue. */
  deadline?: Deadline;
}

/** Where an incoming event came from, as Bolt's context tells it. */
export interface EventSource {
  teamId: string;
  botUserId: string | undefined;
  retryNum: number | undefined;
}

export class SlackGateway {
  readonly #conversation: Conversation;
  readonly #deliveries: OnceStore;
  readonly #threads: OnceStore;
  readonly #users: UserDirectory;
  readonly #responder: Responder;
  readonly #settings: GatewaySettings;
  readonly #logger: Logger;
  readonly #metrics: GatewayMetrics;
  readonly #inFlight = new Set<Promise<void>>();
  /** One user's questions are handled in the order they arrived, from name lookup to posted answer. */
  readonly #questionsByUser = new KeyedQueue();

  constructor(dependencies: {
    conversation: Conversation;
    deliveries: OnceStore;
    threads: OnceStore;
    users: UserDirectory;
    settings: GatewaySettings;
    logger: Logger;
    metrics?: GatewayMetrics;
  }) {
    this.#conversation = dependencies.conversation;
    this.#deliveries = dependencies.deliveries;
    this.#threads = dependencies.threads;
    this.#users = dependencies.users;
    this.#settings = dependencies.settings;
    this.#logger = dependencies.logger;
    this.#metrics = dependencies.metrics ?? {};
    this.#responder = new Responder((method, error) => this.#metrics.onSlackApiError?.(method, error));
  }

  /** Handlings (question to posted answer, click to update) still running. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Resolves when every handling in flight has finished, answers posted included. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  /** Handles a `message` or `app_mention` event. Never throws. */
  onMessageEvent(client: WebClient, rawEvent: unknown, source: EventSource): Promise<void> {
    const parsed = incomingMessageSchema.safeParse(rawEvent);
    if (!parsed.success) {
      this.#metrics.onEvent?.('message', 'malformed');
      this.#logger.warn(
        { issues: parsed.error.issues.length },
        'ignored a message event of unexpected shape',
      );
      return Promise.resolve();
    }
    const event = parsed.data;
    const userId = askerOf(event, source);
    if (userId === undefined) {
      this.#metrics.onEvent?.(event.type, 'ignored');
      return Promise.resolve();
    }
    const handling = this.#handling(client);
    return this.#inTurn(
      handling,
      userKey(source.teamId, userId),
      () => this.#onMessageEvent(handling, event, userId, source),
      'message event handling failed',
    );
  }

  /** A click on a suggested question: asks again for the person who clicked, in the same thread. */
  onSuggestionClick(
    client: WebClient,
    payload: BlockActionPayload,
    value: string | undefined,
  ): Promise<void> {
    const handling = this.#handling(client);
    return this.#inTurn(
      handling,
      clickerKey(payload),
      () => this.#onSuggestionClick(handling, payload, value),
      'suggestion click handling failed',
    );
  }

  /** Try again after a failure: asks the same question again, replacing the failure message. */
  onTryAgain(client: WebClient, payload: BlockActionPayload, value: string | undefined): Promise<void> {
    const handling = this.#handling(client);
    return this.#inTurn(
      handling,
      clickerKey(payload),
      () => this.#onTryAgain(handling, payload, value),
      'try-again handling failed',
    );
  }

  /** 👍 or 👎: rates once, only for the person the answer was for, then shows how it was rated. */
  onRatingClick(client: WebClient, payload: BlockActionPayload, value: string | undefined): Promise<void> {
    const handling = this.#handling(client);
    return this.#track(
      handling,
      this.#onRatingClick(handling, payload, value),
      'rating click handling failed',
    );
  }

  #handling(client: WebClient): Handling {
    const requestId = randomUUID();
    return { client, requestId, logger: this.#logger.child({ requestId }) };
  }

  /**
   * Runs a question's handling after the same user's earlier ones have finished, or have held the
   * queue for the question deadline: then the next one goes ahead while the late one finishes alone.
   */
  #inTurn(handling: Handling, user: string, work: () => Promise<void>, failure: string): Promise<void> {
    let finished: Promise<void> | undefined;
    const turn = this.#questionsByUser.run(user, async () => {
      const deadline = new Deadline(this.#settings.questionDeadlineMs);
      handling.deadline = deadline;
      finished = work().finally(() => deadline.clear());
      if ((await deadline.race(finished)) === EXPIRED) {
        handling.logger.warn(
          { deadlineMs: this.#settings.questionDeadlineMs },
          "question held its asker's queue past the deadline; the next one goes ahead",
        );
      }
    });
    // Tracked to the end, the late part included, so a drain waits for its answer.
    return this.#track(
      handling,
      turn.then(() => finished),
      failure,
    );
  }

  #track(handling: Handling, work: Promise<void>, failure: string): Promise<void> {
    const settled = work.catch((error: unknown) => handling.logger.error({ err: error }, failure));
    this.#inFlight.add(settled);
    void settled.finally(() => this.#inFlight.delete(settled));
    return settled;
  }

  async #onMessageEvent(
    handling: Handling,
    event: IncomingMessage,
    userId: string,
    source: EventSource,
  ): Promise<void> {
    const { logger } = handling;
    const place = await this.#questionPlace(event, source, logger);
    if (!place) {
      this.#metrics.onEvent?.(event.type, 'ignored');
      return;
    }
    // Slack retries and has delivered one message twice under different event ids: key on the message.
    const deliveryKey = `msg:${source.teamId}:${event.channel}:${event.ts}`;
    if (!(await this.#claim(deliveryKey, logger))) {
      this.#metrics.onEvent?.(event.type, 'duplicate');
      logger.info(
        { channel: event.channel, ts: event.ts, retryNum: source.retryNum },
        'duplicate delivery ignored',
      );
      return;
    }
    try {
      // Independent of each other: a slow store must not add its time to the names' lookup.
      const remembered =
        event.type === 'app_mention' || (place.threadTs && !isDirectMessage(event))
          ? this.#rememberThread(source.teamId, place, logger)
          : undefined;
      const [text] = await Promise.all([this.#questionText(handling, source, event.text ?? ''), remembered]);
      this.#metrics.onEvent?.(event.type, 'question');
      await this.#answer(handling, { teamId: source.teamId, userId, text, place }, undefined, undefined);
    } catch (error) {
      // Nothing reached the user: give the delivery back so Slack's retry is answered, not dropped.
      await this.#deliveries.release(deliveryKey).catch(() => undefined);
      throw error;
    }
    // Answered: from now on the delivery is remembered for as long as Slack may retry it.
    await this.#deliveries
      .keep(deliveryKey, this.#settings.dedupTtlSeconds)
      .catch((error: unknown) => logger.warn({ err: error }, 'answered delivery not remembered'));
  }

  /** The message text as the robot should read it, with mentioned users' names looked up. */
  async #questionText(handling: Handling, source: EventSource, text: string): Promise<string> {
    const mentioned = unlabelledMentions(text, source.botUserId);
    if (mentioned.length === 0) return questionFromSlackText(text, { botUserId: source.botUserId });
    const users = await Promise.all(
      mentioned.map((id) => this.#users.lookup(handling.client, source.teamId, id, handling.logger)),
    );
    const names = new Map(mentioned.map((id, index) => [id, users[index]?.displayName]));
    return questionFromSlackText(text, { botUserId: source.botUserId, resolveUser: (id) => names.get(id) });
  }

  /** A click on a suggested question: asks again for the person who clicked, in the same thread. */
  async #onSuggestionClick(handling: Handling, payload: BlockActionPayload, actionValue: string | undefined) {
    const place = actionPlace(payload);
    const value = decodeSuggestionValue(actionValue ?? '');
    if (!place || !value) {
      handling.logger.warn({ hasPlace: Boolean(place) }, 'ignored a suggestion click with a malformed value');
      return;
    }
    this.#metrics.onEvent?.('suggestion', 'question');
    const suggestion: SuggestionClick = { contextKey: value.k, docId: value.d, question: value.q };
    await this.#answer(
      handling,
      { teamId: teamOf(payload), userId: payload.user.id, text: value.q, place },
      suggestion,
      undefined,
    );
  }

  /** Try again after a failure: asks the same question again, replacing the failure message. */
  async #onTryAgain(handling: Handling, payload: BlockActionPayload, actionValue: string | undefined) {
    const place = actionPlace(payload);
    const value = decodeTryAgainValue(actionValue ?? '');
    if (!place || !value) {
      handling.logger.warn({}, 'ignored a try-again click with a malformed value');
      return;
    }
    if (value.d && !value.k) {
      // A button from before the answer that offered the suggestion travelled with it: unverifiable.
      const { locale } = await this.#users.lookup(
        handling.client,
        teamOf(payload),
        payload.user.id,
        handling.logger,
      );
      await this.#tell(handling, place, payload.user.id, {
        kind: 'notice',
        notice: 'context_expired',
        locale,
      });
      return;
    }
    this.#metrics.onEvent?.('try_again', 'question');
    const suggestion =
      value.d && value.k ? { contextKey: value.k, docId: value.d, question: value.q } : undefined;
    await this.#answer(
      handling,
      { teamId: teamOf(payload), userId: payload.user.id, text: value.q, place },
      suggestion,
      payload.message?.ts,
    );
  }

  /** 👍 or 👎: rates once, only for the person the answer was for, then shows how it was rated. */
  async #onRatingClick(handling: Handling, payload: BlockActionPayload, actionValue: string | undefined) {
    const { logger } = handling;
    const place = actionPlace(payload);
    const userId = payload.user.id;
    const { locale } = await this.#users.lookup(handling.client, teamOf(payload), userId, logger);
    const value = decodeRatingValue(actionValue ?? '');
    if (!place) return;
    if (!value) {
      logger.warn({}, 'ignored a rating click with a malformed value');
      await this.#tell(handling, place, userId, { kind: 'notice', notice: 'context_expired', locale });
      return;
    }
    const outcome = await this.#conversation.rate(
      { contextKey: value.k, rating: value.r, userId, locale },
      { requestId: handling.requestId },
    );
    this.#metrics.onEvent?.('rating', outcome.kind);
    if (outcome.kind === 'rated') {
      logger.info({ contextKey: value.k, rating: outcome.rating }, 'answer rated');
      await this.#showRated(handling, payload, locale, userId, outcome.rating);
      return;
    }
    if (outcome.kind === 'notice') {
      await this.#tell(handling, place, userId, outcome.reply);
      // A second click on an answer already rated: make sure the message shows the rating.
      if (outcome.reply.notice === 'already_rated' && outcome.rating) {
        await this.#showRated(handling, payload, locale, userId, outcome.rating);
      }
      return;
    }
    await this.#tell(handling, place, userId, {
      kind: 'failure',
      reason: outcome.reason,
      retryQuestion: '',
      retryDocId: undefined,
      locale,
    });
  }

  async #answer(
    handling: Handling,
    question: { teamId: string; userId: string; text: string; place: Place },
    suggestion: SuggestionClick | undefined,
    replaceTs: string | undefined,
  ): Promise<void> {
    const { teamId, userId, text, place } = question;
    const { logger, deadline } = handling;
    const lookup = this.#users.lookup(handling.client, teamId, userId, logger);
    const user = deadline ? await deadline.race(lookup) : await lookup;
    if (user === EXPIRED) {
      const locale = this.#settings.defaultLocale;
      await this.#showTooSlow(handling, place, { text, suggestion, locale }, replaceTs);
      return;
    }
    const asker: Asker = {
      partnerId: partnerIdFor(teamId, userId),
      userId,
      displayName: user.displayName,
      locale: user.locale,
    };
    const working = new WorkingIndicator(async (shown) => {
      const thinking = renderThinking(asker.locale);
      const sent = shown
        ? await this.#responder.update(handling, place.channel, shown, thinking)
        : await this.#responder.post(handling, place, thinking);
      return sent.ok ? sent.ts : undefined;
    }, replaceTs);
    let reply: Reply | typeof EXPIRED;
    try {
      const asking = this.#conversation.ask(
        {
          asker,
          text,
          conversationId: place.channel,
          threadId: place.threadTs,
          ...(suggestion ? { suggestion } : {}),
        },
        {
          requestId: handling.requestId,
          // A click replaces its own message at once; a new question gets a placeholder only if the robot is slow.
          beforeAsk: () => working.start(replaceTs ? 0 : this.#settings.placeholderDelayMs),
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
        place,
        { text, suggestion, locale: asker.locale },
        await working.shownTs(),
      );
      return;
    }
    logger.info(
      { kind: reply.kind, channel: place.channel, threadTs: place.threadTs, clicked: Boolean(suggestion) },
      'reply ready',
    );
    if (suggestion && reply.kind === 'notice') {
      // A stale click is told to the person who clicked, not to the thread.
      await this.#tell(handling, place, userId, reply);
      return;
    }
    await this.#responder.show(handling, place, renderReply(reply), await working.shownTs(), () =>
      renderReply(reply, { images: 'links' }),
    );
  }

  async #showTooSlow(
    handling: Handling,
    place: Place,
    question: { text: string; suggestion: SuggestionClick | undefined; locale: Locale },
    replaceTs: string | undefined,
  ): Promise<void> {
    this.#metrics.onEvent?.('question', 'too_slow');
    const reply: Reply = {
      kind: 'failure',
      reason: 'too_slow',
      retryQuestion: question.text,
      retryDocId: question.suggestion?.docId,
      ...(question.suggestion ? { retryContextKey: question.suggestion.contextKey } : {}),
      locale: question.locale,
    };
    await this.#responder.show(handling, place, renderReply(reply), replaceTs);
  }

  async #showRated(
    handling: Handling,
    payload: BlockActionPayload,
    locale: Locale,
    userId: string,
    rating: Rating,
  ) {
    const channel = payload.channel?.id ?? payload.container?.channel_id;
    const message = payload.message;
    // Without the message's blocks an update would replace the whole answer with the rated line.
    if (!channel || !message?.blocks || message.blocks.length === 0) return;
    const blocks = replaceRatingButtons(message.blocks, renderRatedLine(locale, userId, rating));
    await this.#responder.update(handling, channel, message.ts, { text: message.text ?? '', blocks });
  }

  async #tell(handling: Handling, place: Place, userId: string, reply: Reply): Promise<void> {
    for (const message of renderReply(reply)) {
      await this.#responder.ephemeral(handling, place, userId, message);
    }
  }

  /** Where to answer, or undefined when the message is not a question for the app. */
  async #questionPlace(
    event: IncomingMessage,
    source: EventSource,
    logger: Logger,
  ): Promise<Place | undefined> {
    if (event.type === 'app_mention')
      return { channel: event.channel, threadTs: event.thread_ts ?? event.ts };
    if (isDirectMessage(event)) return { channel: event.channel, threadTs: event.thread_ts };
    // In a channel, a plain message is a question only inside a thread the app is answering; a
    // message that mentions the app arrives as app_mention too, and the delivery key makes it one.
    if (!event.thread_ts) return undefined;
    if (source.botUserId && (event.text ?? '').includes(`<@${source.botUserId}>`)) return undefined;
    const known = await this.#threads
      .has(threadKey(source.teamId, event.channel, event.thread_ts))
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'thread registry unavailable; thread follow-up not recognised');
        return false;
      });
    return known ? { channel: event.channel, threadTs: event.thread_ts } : undefined;
  }

  async #rememberThread(teamId: string, place: Place, logger: Logger): Promise<void> {
    if (!place.threadTs) return;
    await this.#threads
      .claim(threadKey(teamId, place.channel, place.threadTs), this.#settings.threadTtlSeconds)
      .catch((error: unknown) => logger.warn({ err: error }, 'thread not remembered'));
  }

  /** True for the first delivery of a key. When the store is down, answer rather than drop the question. */
  async #claim(key: string, logger: Logger): Promise<boolean> {
    try {
      return await this.#deliveries.claim(key, this.#settings.handlingLeaseSeconds);
    } catch (error) {
      logger.warn({ err: error }, 'de-duplication store unavailable; answering without it');
      return true;
    }
  }
}

/**
 * The "working on it" message of one question. Shown only when the robot has not answered within
 * the delay: a fast answer then arrives as one message, so the notification carries the answer
 * rather than a placeholder, and Slack gets one call instead of two.
 */
class WorkingIndicator {
  readonly #show: (replaceTs: string | undefined) => Promise<string | undefined>;
  #shown: Promise<string | undefined>;
  #timer: NodeJS.Timeout | undefined;

  /** `existingTs`: a message the answer replaces anyway (the failure whose Try again was clicked). */
  constructor(show: (replaceTs: string | undefined) => Promise<string | undefined>, existingTs?: string) {
    this.#show = show;
    this.#shown = Promise.resolve(existingTs);
  }

  /** Shows the indicator after `delayMs`; at once (and waits for it) when the delay is 0. */
  async start(delayMs: number): Promise<void> {
    if (delayMs <= 0) {
      await this.#display();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#display();
    }, delayMs);
  }

  /** The answer is ready: no indicator from now on. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The message the answer should replace, once any post of the indicator in flight has settled. */
  shownTs(): Promise<string | undefined> {
    return this.#shown;
  }

  #display(): Promise<void> {
    const previous = this.#shown;
    this.#shown = previous.then((ts) => this.#show(ts)).catch(() => undefined);
    return this.#shown.then(() => undefined);
  }
}

/**
 * The user asking, when the message can be a question: edits, deletions, joins, bot posts and the
 * app's own chat.update echoes never are.
 */
function askerOf(event: IncomingMessage, source: EventSource): string | undefined {
  if (event.subtype !== undefined || event.bot_id || event.bot_profile || !event.user) return undefined;
  if (source.botUserId && event.user === source.botUserId) return undefined;
  return event.user;
}

function userKey(teamId: string, userId: string): string {
  return `${teamId}:${userId}`;
}

function clickerKey(payload: BlockActionPayload): string {
  return userKey(teamOf(payload), payload.user.id);
}

function teamOf(payload: BlockActionPayload): string {
  return payload.team?.id ?? payload.user.team_id ?? '';
}

function threadKey(teamId: string, channel: string, threadTs: string): string {
  return `thread:${teamId}:${channel}:${threadTs}`;
}

function isDirectMessage(event: IncomingMessage): boolean {
  return event.channel_type === 'im' || (event.type === 'message' && event.channel.startsWith('D'));
}

/** The conversation a clicked message lives in: its thread in a channel, the DM itself otherwise. */
function actionPlace(payload: BlockActionPayload): Place | undefined {
  const channel = payload.channel?.id ?? payload.container?.channel_id;
  if (!channel) return undefined;
  const message = payload.message;
  const threadTs = message?.thread_ts ?? payload.container?.thread_ts;
  if (threadTs) return { channel, threadTs };
  // A top-level message in a DM keeps the conversation top-level; in a channel, start its thread.
  if (channel.startsWith('D')) return { channel, threadTs: undefined };
  return { channel, threadTs: message?.ts };
}
