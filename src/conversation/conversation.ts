// The conversation core: a question into a Reply, a rating click into feedback; it knows no Slack.
import { isPlatformError, type PlatformError, platformFailureKind } from '../platform/errors.js';
import {
  ANSWER_TYPE_UNKNOWN,
  type RobotAnswer,
  type RobotAskRequest,
  type RobotFeedbackRequest,
} from '../platform/schemas.js';
import { CodedError } from '../util/coded-error.js';
import type { Locale } from './locale.js';
import { typedText } from './plain-text.js';
import { type ContextStore, type RatingStore, StoreUnavailableError } from './stores.js';
import type {
  AnswerContext,
  Asker,
  FailureReason,
  FailureReply,
  NoticeReply,
  Placement,
  Rating,
  Reply,
  SuggestionChoice,
  SuggestionClick,
} from './types.js';

/** Names the Slack event or click being handled, on every log line written for it. */
export interface RequestScope {
  requestId?: string;
}

export interface RobotAskOptions extends RequestScope {
  /** Epoch ms: a question the platform's rate holds back past it is refused as busy, never sent. */
  sendBy?: number | undefined;
}

export interface AskOptions extends RobotAskOptions {
  beforeAsk?: () => Promise<void>;
}

export interface RobotApi {
  askRobot(request: RobotAskRequest, options?: RobotAskOptions): Promise<RobotAnswer>;
  sendRobotFeedback(request: RobotFeedbackRequest, options?: RequestScope): Promise<void>;
}

/** A structural logger, so the core does not depend on pino. */
interface CoreLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

interface ConversationSettings {
  maxQuestionLength: number;
  contextTtlSeconds: number;
}

/** One company's account on the platform: its robot, its system number. */
export interface PlatformAccount<Robot extends RobotApi = RobotApi> {
  robot: Robot;
  sysNum: string;
  /** Answers come from the built-in simulator's demo knowledge base. */
  demo: boolean;
  /** The robot asked where the place names none; undefined: the platform's default robot. */
  robotFlag?: number | undefined;
}

/** A workspace's account, or nobody has set one up: `contact` is whom to ask (the adapter's user id). */
export type AccountLookup<Robot extends RobotApi = RobotApi> =
  | { kind: 'account'; account: PlatformAccount<Robot> }
  | { kind: 'not_set_up'; contact: string | undefined };

/** Which account a workspace asks through; throws when that cannot be read (a store down). */
export interface PlatformAccounts<Robot extends RobotApi = RobotApi> {
  accountOf(workspace: string | undefined): AccountLookup<Robot> | Promise<AccountLookup<Robot>>;
}

/** The one account of a gateway installed in one workspace, whichever workspace asks. */
export function singleAccount<Robot extends RobotApi>(
  account: PlatformAccount<Robot>,
): PlatformAccounts<Robot> {
  const lookup: AccountLookup<Robot> = { kind: 'account', account };
  return { accountOf: () => lookup };
}

export interface QuestionInput {
  asker: Asker;
  text: string;
  /** The adapter's workspace of the conversation, for what is told the asker later. */
  workspace?: string | undefined;
  conversationId: string;
  threadId: string | undefined;
  /** Where it was asked; a suggestion click is asked as the answer that offered it was. */
  placement: Placement;
  /** Set when the question is a click on a suggested question (or Try again after one). */
  suggestion?: SuggestionClick;
  /** Ask again on a question an operator linked to an entry: asked by that entry first. */
  byLink?: boolean;
  /** A message nobody addressed to the app (a channel answering on its own): no match is passed over. */
  unaddressed?: boolean;
}

export interface AnsweredQuestion {
  asker: { userId: string; displayName: string };
  workspace?: string | undefined;
  question: string;
  conversationId: string;
  threadId: string | undefined;
  docId: string | undefined;
  matchedQuestion: string | undefined;
  answerHtml: string;
  answerType: number | undefined;
  robotFlag: number | undefined;
}

/** Told of every answer, beside it (the review loop notes entries and unanswered questions). */
export interface AnswerObserver {
  answered(answered: AnsweredQuestion, scope: RequestScope): void;
}

/** Entries operators linked to questions the robot does not match (the review loop keeps them). */
export interface LinkedEntries {
  /**
   * The docId linked to these words for this robot (undefined: the default one), in the workspace asked
   * in (the adapter's); throws when its store is down.
   */
  entryFor(question: string, robotFlag: number | undefined, workspace?: string): Promise<string | undefined>;
}

export type RateOutcome =
  | { kind: 'rated'; rating: Rating; context: AnswerContext }
  | { kind: 'notice'; reply: NoticeReply; rating?: Rating }
  | { kind: 'failure'; reason: FailureReason };

/** Feedback `from` when no uid is known: 0, the open platform, which is how this gateway talks to it. */
const FEEDBACK_FROM_OPEN_PLATFORM = 0;

interface ConversationDependencies {
  accounts: PlatformAccounts;
  contexts: ContextStore;
  ratings: RatingStore;
  settings: ConversationSettings;
  logger: CoreLogger;
  newKey: () => string;
  observer?: AnswerObserver;
  links?: LinkedEntries;
}

export class Conversation {
  readonly #deps: ConversationDependencies;
  #inFlight = 0;

  constructor(dependencies: ConversationDependencies) {
    this.#deps = dependencies;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** A notice when it cannot be asked, else the robot's answer or a failure; `beforeAsk` runs just before. */
  async ask(input: QuestionInput, options: AskOptions = {}): Promise<Reply> {
    const { asker } = input;
    const { beforeAsk, sendBy, ...scope } = options;
    let suggestion: SuggestionChoice | undefined;
    let placement = input.placement;
    // A follow-up is asked through the account of the workspace that gave the answer (a shared channel's).
    let workspace = input.workspace;
    if (input.suggestion) {
      const offered = await this.#offeredSuggestion(input.suggestion, scope);
      if (offered.kind !== 'offered') {
        return offered.kind === 'stale'
          ? { kind: 'notice', notice: 'context_expired', locale: asker.locale }
          : failureReply('store_unavailable', input.text, input.suggestion, asker.locale);
      }
      suggestion = offered.suggestion;
      placement = offered.context.placement ?? placement;
      workspace = offered.context.workspace ?? workspace;
    }
    // Asked as the gateway offered it, not as the click's value says; typed text without controls.
    const text = suggestion ? suggestion.question : typedText(input.text);
    if (text.trim() === '') return { kind: 'notice', notice: 'help', locale: asker.locale };
    const limit = this.#deps.settings.maxQuestionLength;
    if ([...text].length > limit)
      return { kind: 'notice', notice: 'question_too_long', locale: asker.locale, limit };
    const found = await this.#accountOf(workspace, scope);
    if (found.kind === 'not_set_up') {
      return { kind: 'notice', notice: 'not_set_up', locale: asker.locale, ...contactOf(found) };
    }
    if (found.kind === 'unavailable') {
      return failureReply('store_unavailable', text, input.suggestion, asker.locale);
    }
    this.#inFlight += 1;
    try {
      await beforeAsk?.();
      return await this.#askRobot(
        found.account,
        { ...input, text, placement, workspace },
        suggestion,
        scope,
        sendBy,
      );
    } finally {
      this.#inFlight -= 1;
    }
  }

  /** The suggestion a click names if that answer offered it: no other docId is asked with questionFlag 1. */
  async #offeredSuggestion(
    click: SuggestionClick,
    scope: RequestScope,
  ): Promise<
    | { kind: 'offered'; suggestion: SuggestionChoice; context: AnswerContext }
    | { kind: 'stale' | 'unavailable' }
  > {
    const context = await this.#storedContext(click.contextKey, scope);
    if (context === 'unavailable') return { kind: 'unavailable' };
    const suggestion = context?.suggestions.find((offered) => offered.docId === click.docId);
    if (!context || !suggestion) {
      this.#deps.logger.warn(
        { ...scope, contextKey: click.contextKey, known: context !== undefined },
        'suggestion click names a docId this answer did not offer; treated as stale',
      );
      return { kind: 'stale' };
    }
    return { kind: 'offered', suggestion, context };
  }

  /** An answer's stored context: undefined when expired or unknown; throws when the store fails. */
  context(contextKey: string): Promise<AnswerContext | undefined> {
    return this.#deps.contexts.get(contextKey);
  }

  /** An answer's stored context, undefined when expired, 'unavailable' (logged) when the store fails. */
  async #storedContext(
    contextKey: string,
    scope: RequestScope,
  ): Promise<AnswerContext | undefined | 'unavailable'> {
    try {
      return await this.#deps.contexts.get(contextKey);
    } catch (error) {
      this.#deps.logger.error({ ...scope, err: error, contextKey }, 'answer context lookup failed');
      return 'unavailable';
    }
  }

  /** The workspace's account; 'unavailable' (logged) when it cannot be read. */
  async #accountOf(
    workspace: string | undefined,
    scope: RequestScope,
  ): Promise<AccountLookup | { kind: 'unavailable' }> {
    try {
      return await this.#deps.accounts.accountOf(workspace);
    } catch (error) {
      this.#deps.logger.error(
        { ...scope, err: error, workspace },
        "the workspace's platform account could not be read",
      );
      return { kind: 'unavailable' };
    }
  }

  async #askRobot(
    account: PlatformAccount,
    input: QuestionInput,
    suggestion: SuggestionChoice | undefined,
    scope: RequestScope,
    sendBy: number | undefined,
  ): Promise<Reply> {
    const { asker } = input;
    // A place's own robot first, then the account's default one.
    const robotFlag = input.placement.robotFlag ?? account.robotFlag;
    const placement =
      robotFlag === input.placement.robotFlag ? input.placement : { ...input.placement, robotFlag };
    const question = input.text.trim();
    const typed: RobotAskRequest = {
      sysNum: account.sysNum,
      partnerId: asker.partnerId,
      question,
      uname: typedText(asker.displayName),
      ...(placement.robotFlag === undefined ? {} : { robotFlag: placement.robotFlag }),
      ...(placement.source === undefined ? {} : { source: placement.source }),
      questionFlag: 0,
      requestText: question,
    };
    const request = suggestion ? askingEntry(typed, suggestion.docId) : typed;

    let answer: RobotAnswer;
    try {
      answer = await this.#answerOrLinked(
        account.robot,
        input.workspace,
        request,
        input.byLink === true && !suggestion,
        scope,
        sendBy,
      );
    } catch (error) {
      const reason = this.#failure(error, { ...scope, partnerId: asker.partnerId });
      return failureReply(reason, question, input.suggestion, asker.locale);
    }

    const matched = answer.answerType !== ANSWER_TYPE_UNKNOWN;
    if (!matched && input.unaddressed) return { kind: 'pass', locale: asker.locale };
    const rateable = isRateable(answer);
    const suggestions: SuggestionChoice[] = answer.suggestions
      .filter((item): item is typeof item & { docId: string } => Boolean(item.docId))
      .map((item) => ({ question: item.question.trim(), docId: item.docId }));
    const contextKey = this.#deps.newKey();
    const context: AnswerContext = {
      uid: answer.uid,
      cid: answer.cid || undefined,
      msgId: answer.msgId || undefined,
      // An empty docId from the robot is kept as none, not replaced by the clicked suggestion's.
      docId: (answer.docId ?? suggestion?.docId) || undefined,
      docName: answer.question?.trim() || question,
      robotFlag: answer.robotFlag ?? placement.robotFlag ?? 0,
      placement,
      partnerId: asker.partnerId,
      askerUserId: asker.userId,
      question,
      suggestions,
      rateable,
      conversationId: input.conversationId,
      threadId: input.threadId,
      createdAt: Date.now(),
      ...(input.workspace !== undefined && { workspace: input.workspace }),
    };

    let stored = true;
    try {
      await this.#deps.contexts.put(contextKey, context);
    } catch (error) {
      // The answer is still worth showing; only rating it later would fail, so hide the rating buttons.
      stored = false;
      this.#deps.logger.warn(
        { ...scope, err: error, contextKey },
        'answer context not stored; rating disabled for this answer',
      );
    }

    this.#deps.observer?.answered(
      {
        asker: { userId: asker.userId, displayName: asker.displayName },
        ...(input.workspace !== undefined && { workspace: input.workspace }),
        question,
        conversationId: input.conversationId,
        threadId: input.threadId,
        docId: context.docId,
        matchedQuestion: answer.question?.trim() || undefined,
        answerHtml: answer.answer,
        answerType: answer.answerType,
        robotFlag: answer.robotFlag,
      },
      scope,
    );

    return {
      kind: 'answer',
      contextKey,
      docId: context.docId,
      answerHtml: answer.answer,
      stripe: answer.stripe?.trim() || undefined,
      suggestions,
      rateable: rateable && stored,
      matched,
      clickedBy: suggestion ? { displayName: asker.displayName, question: suggestion.question } : undefined,
      demo: account.demo,
      locale: asker.locale,
    };
  }

  /** The robot's answer, or on no match the linked entry's (`byLink`: the link's first). */
  async #answerOrLinked(
    robot: RobotApi,
    workspace: string | undefined,
    request: RobotAskRequest,
    byLink: boolean,
    scope: RequestScope,
    sendBy: number | undefined,
  ): Promise<RobotAnswer> {
    const asking: RobotAskOptions = sendBy === undefined ? scope : { ...scope, sendBy };
    if (byLink) {
      const linked = await this.#linkedAnswer(robot, workspace, request, request.robotFlag, scope, asking);
      if (linked) return linked;
    }
    const answer = await robot.askRobot(request, asking);
    if (answer.answerType !== ANSWER_TYPE_UNKNOWN || request.questionFlag === 1 || byLink) return answer;
    try {
      return (await this.#linkedAnswer(robot, workspace, request, answer.robotFlag, scope, asking)) ?? answer;
    } catch (error) {
      // The robot's own "no answer" is still an answer to show; only the linked entry's is lost.
      this.#deps.logger.warn({ ...scope, err: error }, 'the linked entry could not be asked; no match shown');
      return answer;
    }
  }

  /** The linked entry's answer; undefined without a link, or when the entry no longer answers. */
  async #linkedAnswer(
    robot: RobotApi,
    workspace: string | undefined,
    request: RobotAskRequest,
    robotFlag: number | undefined,
    scope: RequestScope,
    asking: RobotAskOptions,
  ): Promise<RobotAnswer | undefined> {
    if (!this.#deps.links) return undefined;
    const docId = await this.#deps.links
      .entryFor(request.question, robotFlag, workspace)
      .catch((error: unknown) => {
        this.#deps.logger.warn(
          { ...scope, err: error },
          'linked entries unavailable; the question asked as typed',
        );
        return undefined;
      });
    if (!docId) return undefined;
    const answer = await robot.askRobot(askingEntry(request, docId), asking);
    if (answer.answerType === ANSWER_TYPE_UNKNOWN) {
      this.#deps.logger.warn({ ...scope, docId }, 'the linked entry did not answer (removed or disabled?)');
      return undefined;
    }
    this.#deps.logger.info({ ...scope, docId }, 'answered from the entry an operator linked the question to');
    return answer;
  }

  /** Sends a 👍 or 👎 for a stored answer, once, and only for the person the answer was for. */
  async rate(
    input: { contextKey: string; rating: Rating; userId: string; locale: Locale },
    scope: RequestScope = {},
  ): Promise<RateOutcome> {
    const { contextKey, rating, userId, locale } = input;
    const context = await this.#storedContext(contextKey, scope);
    if (context === 'unavailable') return { kind: 'failure', reason: 'store_unavailable' };
    if (!context) return { kind: 'notice', reply: { kind: 'notice', notice: 'context_expired', locale } };
    if (context.askerUserId !== userId) {
      return { kind: 'notice', reply: { kind: 'notice', notice: 'not_your_answer', locale } };
    }
    if (!context.rateable || !context.msgId || !context.cid || !context.docId) {
      return { kind: 'notice', reply: { kind: 'notice', notice: 'context_expired', locale } };
    }

    // Rated through the account that answered; an answer stored before accounts were per workspace has none named.
    const found = await this.#accountOf(context.workspace, scope);
    if (found.kind === 'unavailable') return { kind: 'failure', reason: 'store_unavailable' };
    if (found.kind === 'not_set_up') {
      return { kind: 'notice', reply: { kind: 'notice', notice: 'not_set_up', locale, ...contactOf(found) } };
    }
    const { account } = found;
    let claim: { recorded: boolean; rating: Rating };
    try {
      claim = await this.#deps.ratings.recordOnce(contextKey, rating, this.#deps.settings.contextTtlSeconds);
    } catch (error) {
      this.#deps.logger.error({ ...scope, err: error, contextKey }, 'rating mark could not be recorded');
      return { kind: 'failure', reason: 'store_unavailable' };
    }
    if (!claim.recorded) {
      return {
        kind: 'notice',
        reply: { kind: 'notice', notice: 'already_rated', locale },
        rating: claim.rating,
      };
    }

    const feedback: RobotFeedbackRequest = {
      cid: context.cid,
      docId: context.docId,
      docName: context.docName,
      robotFlag: context.robotFlag,
      status: rating,
      msgId: context.msgId,
      ...(context.uid
        ? { uid: context.uid }
        : { sysNum: account.sysNum, partnerId: context.partnerId, from: FEEDBACK_FROM_OPEN_PLATFORM }),
    };
    try {
      await account.robot.sendRobotFeedback(feedback, scope);
    } catch (error) {
      // Give the mark back so the user can rate again once the platform answers.
      await this.#deps.ratings.forget(contextKey).catch((forgetError: unknown) => {
        this.#deps.logger.error(
          { ...scope, err: forgetError, contextKey },
          'rating mark could not be undone',
        );
      });
      return { kind: 'failure', reason: this.#failure(error, { ...scope, contextKey }) };
    }
    return { kind: 'rated', rating, context };
  }

  /** Logs the failed robot call (a refusal as busy was never sent); why it failed, for the asker. */
  #failure(error: unknown, logContext: Record<string, string | undefined>): FailureReason {
    const reason = failureReason(error);
    // Refused as busy, it was never sent: the pacing logs that once a second, not once a question.
    if (reason !== 'busy') {
      const details = isPlatformError(error) ? platformErrorDetails(error) : {};
      // The platform erring or not answering is a warning (the asker is told, Try again offered); a bug is an error.
      const level = error instanceof CodedError && error.outside ? 'warn' : 'error';
      this.#deps.logger[level]({ err: error, reason, ...details, ...logContext }, 'robot call failed');
    }
    return reason;
  }
}

/** `clicked`: the suggestion the failed question was, so Try again asks it the same way. */
export function failureReply(
  reason: FailureReason,
  question: string,
  clicked: { docId: string; contextKey: string } | undefined,
  locale: Locale,
): FailureReply {
  return {
    kind: 'failure',
    reason,
    retry: { question, docId: clicked?.docId, ...(clicked && { contextKey: clicked.contextKey }) },
    locale,
  };
}

/** The question asked by a knowledge entry's docId (questionFlag 1): a suggestion click, a link, an entry read. */
export function askingEntry<Asked extends Omit<Partial<RobotAskRequest>, 'questionFlag' | 'requestText'>>(
  request: Asked,
  docId: string,
): Asked & { questionFlag: 1; requestText: string } {
  return { ...request, questionFlag: 1, requestText: docId };
}

/** Public clients of the platform treat answerType 3 as "unknown question": nothing to rate. */
function isRateable(answer: RobotAnswer): boolean {
  return answer.answerType !== ANSWER_TYPE_UNKNOWN && Boolean(answer.msgId) && answer.answer.trim() !== '';
}

export function failureReason(error: unknown): FailureReason {
  if (error instanceof StoreUnavailableError) return 'store_unavailable';
  if (!isPlatformError(error)) return 'internal';
  return platformFailureKind(error);
}

function platformErrorDetails(error: PlatformError): Record<string, unknown> {
  const details = { action: error.action, code: error.code };
  switch (error.code) {
    case 'PLATFORM_CODE':
      return { ...details, platformCode: error.platformCode };
    case 'PLATFORM_HTTP_STATUS':
      return { ...details, httpStatus: error.status };
    case 'PLATFORM_TRANSPORT':
      return { ...details, transportFailure: error.failure };
    default:
      return details;
  }
}

function contactOf(found: { contact: string | undefined }): { contact?: string } {
  return found.contact === undefined ? {} : { contact: found.contact };
}
