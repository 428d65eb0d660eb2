// The review loop's Slack side, on a workspace's client: cards are posted beside answers, not in a click.
import type { webApi } from '@slack/bolt';
import type { Locale } from '../../conversation/locale.js';
import { type Logger, withRequestId } from '../../logging/logger.js';
import type { OperatorAnswer, ReviewBoard, ReviewScope } from '../../review/review-cards.js';
import type { AskerToNotify, MessageLocation, QuestionLink, ReviewCard } from '../../review/types.js';
import { CodedError } from '../../util/coded-error.js';
import type { UserLookup } from '../handling/user-directory.js';
import { UNKNOWN_WORKSPACE } from '../handling/workspace.js';
import { isDirectMessageChannel } from '../kit/conversations.js';
import type { RenderedMessage } from '../kit/elements.js';
import type { Responder } from '../transport/responder.js';
import { renderAnswerLinkedNotice, renderAnswerUpdatedNotice } from './answer-updated.js';
import { renderPersonAnswer } from './person-answer.js';
import { renderReviewCard } from './review-card.js';

type WebClient = webApi.WebClient;

/** Slack refused to post a card; the core keeps the card and posts it with the next report. */
class ReviewCardNotPostedError extends CodedError<'REVIEW_CARD_NOT_POSTED'> {
  readonly code = 'REVIEW_CARD_NOT_POSTED' as const;
}

class AskerNotToldError extends CodedError<'REVIEW_ASKER_NOT_TOLD'> {
  readonly code = 'REVIEW_ASKER_NOT_TOLD' as const;
}

/** Errors of chat.update that mean the card's message is gone: it is posted again. */
const CARD_GONE = new Set(['message_not_found', 'cant_update_message', 'channel_not_found', 'is_archived']);

/** Errors of chat.postMessage that mean the app cannot post in the review channel at all. */
const NOT_THERE = new Set(['not_in_channel', 'channel_not_found', 'is_archived']);

interface ReviewBoardSettings {
  showAsker: boolean;
  locale: Locale;
}

/**
 * Where a board posts, read at each post: a workspace's client (its bot token) and its review channel
 * (REVIEW_CHANNEL_ID, or its set-up's); without a channel the core keeps no cards, so none is shown.
 */
export type BoardPlace = () => Promise<{ client: WebClient; channelId: string | undefined }>;

/**
 * Where review cards go. Installed in one workspace: REVIEW_CHANNEL_ID, with the app's token. In many:
 * each workspace's review channel (its set-up's, else REVIEW_CHANNEL_ID), with its own bot token.
 */
export type ReviewPlaces =
  | { kind: 'one'; board: ReviewBoard; cardsEnabled: boolean }
  | {
      kind: 'each';
      channelOf(workspace: string): Promise<string | undefined>;
      boardOf(workspace: string): ReviewBoard;
    };

interface BoardDependencies {
  place: BoardPlace;
  responder: Responder;
  users: UserLookup;
  logger: Logger;
  settings: ReviewBoardSettings;
}

export class SlackReviewBoard implements ReviewBoard {
  readonly #deps: BoardDependencies;

  constructor(dependencies: BoardDependencies) {
    this.#deps = dependencies;
  }

  async show(card: ReviewCard, scope: ReviewScope): Promise<MessageLocation> {
    const { channelId: channel, ...out } = await this.#outbox(scope);
    const message = renderReviewCard(card, this.#deps.settings);
    if (card.posted) {
      const updated = await this.#deps.responder.update(
        out,
        card.posted.conversationId,
        card.posted.messageId,
        message,
      );
      if (updated.ok) return card.posted;
      if (!CARD_GONE.has(updated.error ?? '')) {
        throw new ReviewCardNotPostedError(
          `chat.update of review card failed (${updated.error ?? 'no answer'})`,
        );
      }
      out.logger.warn({ cardId: card.id, slackError: updated.error }, 'review card gone; posting it again');
    }
    if (channel === undefined)
      throw new ReviewCardNotPostedError('no review channel is set (REVIEW_CHANNEL_ID)');
    const posted = await this.#deps.responder.post(out, { channel, threadTs: undefined }, message);
    if (!posted.ok) {
      // The usual cause on a new install: the app was never invited to the channel.
      const hint = NOT_THERE.has(posted.error ?? '')
        ? "; invite the app to the REVIEW_CHANNEL_ID channel (/invite), or check the id (installed in many workspaces: the channel the workspace's set-up names)"
        : '';
      throw new ReviewCardNotPostedError(
        `review card not posted to ${channel} (${posted.error ?? 'no answer'})${hint}`,
      );
    }
    return { conversationId: channel, messageId: posted.ts };
  }

  async tellAskerFixed(asker: AskerToNotify, scope: ReviewScope): Promise<void> {
    await this.#tellAsker(asker, scope, 'asker told that the answer was updated', (locale) =>
      renderAnswerUpdatedNotice({ locale, question: asker.question, robotFlag: asker.robotFlag }),
    );
  }

  async linkTo(
    where: { conversationId: string; messageId: string | undefined },
    scope: ReviewScope,
  ): Promise<string | 'direct_message' | 'assistant_panel' | undefined> {
    // A DM is the asker's own: operators cannot open it. Its threads are the assistant panel's.
    if (isDirectMessageChannel(where.conversationId)) {
      return where.messageId === undefined ? 'direct_message' : 'assistant_panel';
    }
    if (where.messageId === undefined) return undefined;
    return this.#deps.responder.permalink(await this.#outbox(scope), where.conversationId, where.messageId);
  }

  async tellAskerLinked(asker: AskerToNotify, link: QuestionLink, scope: ReviewScope): Promise<void> {
    await this.#tellAsker(asker, scope, 'asker told that the question was linked', (locale) =>
      renderAnswerLinkedNotice({
        locale,
        question: asker.question,
        entry: link.entryTitle ?? link.docId,
        robotFlag: link.robotFlag,
      }),
    );
  }

  async tellAskerAnswered(asker: AskerToNotify, answer: OperatorAnswer, scope: ReviewScope): Promise<void> {
    const sent = await this.#tellAsker(asker, scope, "asker given the operator's answer", (locale) =>
      renderPersonAnswer({
        locale,
        operatorId: answer.operatorId,
        question: asker.question,
        text: answer.text,
      }),
    );
    // The responder logged Slack's refusal; the core counts who was not told.
    if (!sent.ok)
      throw new AskerNotToldError(`the operator's answer was not posted (${sent.error ?? 'no answer'})`);
  }

  /** Posts to an asker where they asked, in their language; logs `told` once posted. */
  async #tellAsker(
    asker: AskerToNotify,
    scope: ReviewScope,
    told: string,
    render: (locale: Locale) => RenderedMessage,
  ) {
    const out = await this.#outbox(scope);
    // An asker noted before askers kept their workspace is looked up under the unknown one.
    const workspace = asker.workspace ?? UNKNOWN_WORKSPACE;
    const { locale } = await this.#deps.users.lookup(out.client, workspace, asker.userId, out.logger);
    const where = { channel: asker.conversationId, threadTs: asker.threadId };
    const sent = await this.#deps.responder.post(out, where, render(locale));
    if (sent.ok) out.logger.info({ userId: asker.userId }, told);
    return sent;
  }

  async #outbox(
    scope: ReviewScope,
  ): Promise<{ client: WebClient; logger: Logger; channelId: string | undefined }> {
    return {
      ...(await this.#deps.place()),
      logger: scope.requestId ? withRequestId(this.#deps.logger, scope.requestId) : this.#deps.logger,
    };
  }
}
