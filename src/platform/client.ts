// The typed platform client: one method per operation, validating before sending and mapping every answer.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { AccessTokenProvider } from './access-token.js';
import {
  isPlatformError,
  MalformedResponseError,
  PlatformCodeError,
  type PlatformError,
  RequestInvalidError,
  TOKEN_REJECTED_CODE,
} from './errors.js';
import type { QuestionPacing } from './question-pacing.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryRulesFor, withRetries } from './retry.js';
import {
  ACCESS_TOKEN_MAX_LENGTH,
  AGENT_LIST_ACTION,
  AGENT_LIST_DATA_MAX_LENGTH,
  AGENT_LIST_METHOD,
  AGENT_LIST_PATH,
  type Agent,
  type AgentListRequest,
  agentListRequestSchema,
  agentListResponseSchema,
  DOC_UPDATE_SUCCESS_RET_CODE,
  type HumanSatisfactionStatistics,
  humanSatisfactionStatisticsSchema,
  isTicketSuccessCode,
  MAX_TICKET_WINDOW_SECONDS,
  OPEN_ACTIONS,
  OPEN_API_PATH,
  OPEN_SUCCESS_CODE,
  openEnvelopeSchema,
  type RobotAnswer,
  type RobotAskRequest,
  type RobotDocUpdateRequest,
  type RobotFeedbackRequest,
  robotAnswerSchema,
  robotAskRequestSchema,
  robotDocUpdateRequestSchema,
  robotDocUpdateResponseDataSchema,
  robotFeedbackRequestSchema,
  robotFeedbackResponseDataSchema,
  type SessionMessageStatistics,
  type StatisticsRequest,
  sessionMessageStatisticsSchema,
  statisticsRequestSchema,
  statisticsResponseDataSchema,
  TICKET_CODE_SEPARATOR,
  TICKET_LIST_PATH,
  type TicketListRequest,
  type TicketPage,
  ticketListRequestSchema,
  ticketListResponseSchema,
} from './schemas.js';
import { type JsonResponse, JsonTransport, type TransportTimeouts } from './transport.js';

/** Structural, so the platform folder does not depend on pino. */
export interface PlatformLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PlatformClientOptions {
  openUrl: string;
  baseUrl: string;
  tokenProvider: AccessTokenProvider;
  /** Owned by the caller and never closed by the client; without one the client makes a keep-alive Agent. */
  dispatcher?: Dispatcher;
  timeouts: TransportTimeouts;
  /** `attempts` counts retries after the first try. */
  retry?: { attempts: number; baseDelayMs?: number; maxDelayMs?: number };
  /** Defaults to the stated getTicketInfoList; the spec's sample uses getTicketList. */
  ticketListPath?: string;
  keepAliveTimeoutMs?: number;
  logger?: PlatformLogger;
  /** Told about every finished call, for metrics; must not throw. */
  observer?: PlatformCallObserver;
  /** PLATFORM_QUESTION_RATE for this client's account: every robot ask waits its turn here. */
  questionPacing?: Pick<QuestionPacing, 'turn'> | undefined;
}

/** One finished call: its action, `ok` or the error's code, and how long it took with retries. */
export interface PlatformCallRecord {
  action: string;
  outcome: 'ok' | PlatformError['code'] | 'unknown_error';
  durationMs: number;
}

export interface PlatformCallObserver {
  onCallFinished(record: PlatformCallRecord): void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** The caller's id for the question or click behind this call; put on every log line of the call. */
  requestId?: string;
  /** Epoch ms: a robot ask whose turn under PLATFORM_QUESTION_RATE comes later is refused as busy, unsent. */
  sendBy?: number | undefined;
}

/** What `feedback` failures carry as platformCode when data.status is 0 (the spec's only failure value). */
const FEEDBACK_FAILED_CODE = 'status:0';

/** One call's recipe: where it goes, whether it may be retried, how to build and read it. */
interface CallSpec<T> {
  action: string;
  url: string;
  kind: 'read' | 'write';
  /** Calls 1 and 2 declare access_token length 40. */
  checkTokenLength: boolean;
  /** A question to the robot: each send waits its turn under the account's question rate. */
  paced?: boolean;
  body(token: string): unknown;
  parse(response: JsonResponse): T;
}

interface CallContext {
  signal: AbortSignal | undefined;
  logFields: { requestId?: string };
  sendBy: number | undefined;
}

const silentLogger: PlatformLogger = { debug: () => undefined, warn: () => undefined };

export class PlatformClient {
  readonly #openApiUrl: string;
  readonly #baseUrl: string;
  readonly #ticketListUrl: string;
  readonly #ticketAction: string;
  readonly #tokens: AccessTokenProvider;
  readonly #transport: JsonTransport;
  readonly #retry: RetryPolicy;
  readonly #logger: PlatformLogger;
  readonly #observer: PlatformCallObserver | undefined;
  readonly #pacing: Pick<QuestionPacing, 'turn'> | undefined;

  constructor(options: PlatformClientOptions) {
    const openUrl = trimSlashes(options.openUrl);
    this.#baseUrl = trimSlashes(options.baseUrl);
    this.#openApiUrl = `${openUrl}${OPEN_API_PATH}`;
    const ticketListPath = options.ticketListPath ?? TICKET_LIST_PATH;
    this.#ticketListUrl = `${this.#baseUrl}${ticketListPath}`;
    this.#ticketAction = ticketListPath.split('/').filter(Boolean).pop() ?? 'ticketList';
    this.#tokens = options.tokenProvider;
    this.#transport = new JsonTransport({
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.keepAliveTimeoutMs !== undefined ? { keepAliveTimeoutMs: options.keepAliveTimeoutMs } : {}),
      timeouts: options.timeouts,
    });
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#logger = options.logger ?? silentLogger;
    this.#observer = options.observer;
    this.#pacing = options.questionPacing;
  }

  /** 1. Tickets created in a window of at most one month (30 days), one page. */
  async listTickets(req: TicketListRequest, options?: CallOptions): Promise<TicketPage> {
    const action = this.#ticketAction;
    const request = validate(action, ticketListRequestSchema, req);
    const window = request.createEndTime - request.createStartTime;
    if (window < 0)
      throw new RequestInvalidError(action, 'createEndTime', 'must not be before createStartTime');
    if (window > MAX_TICKET_WINDOW_SECONDS) {
      throw new RequestInvalidError(
        action,
        'createEndTime',
        `the creation window must not exceed one month (${MAX_TICKET_WINDOW_SECONDS} seconds)`,
      );
    }
    return this.#call(
      {
        action,
        url: this.#ticketListUrl,
        kind: 'read',
        checkTokenLength: true,
        body: (token) => ({ access_token: token, ...request }),
        parse: (response) => {
          const answer = parseWith(action, ticketListResponseSchema, response.body, response.snippet);
          assertTicketCode(action, answer.code, answer);
          return toTicketPage(answer, request.pageNo, request.pageSize);
        },
      },
      options,
    );
  }

  async listAgents(req: AgentListRequest, options?: CallOptions): Promise<Agent[]> {
    const action = AGENT_LIST_ACTION;
    const data = validate(action, agentListRequestSchema, req);
    checkAgentListData(data);
    return this.#call(
      {
        action,
        url: `${this.#baseUrl}${AGENT_LIST_PATH}`,
        kind: 'read',
        checkTokenLength: true,
        // The spec declares `data` a string but shows an object with groupId; we send the object.
        body: (token) => ({ action, access_token: token, data, method: AGENT_LIST_METHOD }),
        parse: (response) => {
          // The spec's sample has stray spaces in the "items" and "serviceId" keys.
          const answer = parseWith(
            action,
            agentListResponseSchema,
            trimKeys(response.body),
            response.snippet,
          );
          assertTicketCode(action, answer.code, answer);
          return answer.data?.items ?? [];
        },
      },
      options,
    );
  }

  /** 3. Ask the robot on behalf of a user. Never retried once the request may have reached the platform. */
  async askRobot(req: RobotAskRequest, options?: CallOptions): Promise<RobotAnswer> {
    const action = OPEN_ACTIONS.robotAsk;
    const data = validate(action, robotAskRequestSchema, req);
    return this.#openCall(action, 'write', data, robotAnswerSchema, options, (answer) => answer, true);
  }

  /** 4. Update a knowledge-base entry; success is code 1000 and retCode "000000". */
  async updateRobotDoc(
    req: RobotDocUpdateRequest,
    options?: CallOptions,
  ): Promise<{ retCode: string; retMsg: string | undefined }> {
    const action = OPEN_ACTIONS.docUpdate;
    const data = validate(action, robotDocUpdateRequestSchema, req);
    return this.#openCall(action, 'write', data, robotDocUpdateResponseDataSchema, options, (result) => {
      if (result.retCode !== DOC_UPDATE_SUCCESS_RET_CODE) {
        throw new PlatformCodeError(action, result.retCode, result.retMsg);
      }
      return { retCode: result.retCode, retMsg: result.retMsg };
    });
  }

  /** 5. Thumbs up or down on a robot answer; data.status 1 is success, 0 is PlatformCodeError "status:0". */
  async sendRobotFeedback(req: RobotFeedbackRequest, options?: CallOptions): Promise<void> {
    const action = OPEN_ACTIONS.feedback;
    const data = validate(action, robotFeedbackRequestSchema, req);
    return this.#openCall(action, 'write', data, robotFeedbackResponseDataSchema, options, (result) => {
      if (result.status === 0) throw new PlatformCodeError(action, FEEDBACK_FAILED_CODE);
      // Only 0 and 1 are documented; anything else is not a success either.
      if (result.status !== 1) throw new PlatformCodeError(action, `status:${result.status}`);
    });
  }

  async getSessionMessageStatistics(
    req: StatisticsRequest,
    options?: CallOptions,
  ): Promise<SessionMessageStatistics> {
    return this.#statistics(OPEN_ACTIONS.sessionMessages, sessionMessageStatisticsSchema, req, options);
  }

  async getHumanSatisfactionStatistics(
    req: StatisticsRequest,
    options?: CallOptions,
  ): Promise<HumanSatisfactionStatistics> {
    return this.#statistics(OPEN_ACTIONS.humanSatisfaction, humanSatisfactionStatisticsSchema, req, options);
  }

  /** Closes the pool the client created; a dispatcher passed in is left to its owner. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  async #statistics<S extends z.ZodType>(
    action: string,
    itemSchema: S,
    req: StatisticsRequest,
    options: CallOptions | undefined,
  ): Promise<z.output<S>> {
    // endDate is declared integer but formatted yyyy-MM-dd; "2024-01-31" cannot be a JSON number, so both go as strings.
    const data = validate(action, statisticsRequestSchema, req);
    const schema = statisticsResponseDataSchema(itemSchema);
    const sent = { startDate: data.startDate, endDate: data.endDate };
    return this.#openCall(action, 'read', sent, schema, options, (result) => result.item as z.output<S>);
  }

  /** An open-platform call: `{action, access_token, data}` to api.json; the answer's `data` read with `schema`. */
  #openCall<S extends z.ZodType, T>(
    action: string,
    kind: CallSpec<T>['kind'],
    data: unknown,
    schema: S,
    options: CallOptions | undefined,
    accept: (answer: z.output<S>) => T,
    paced = false,
  ): Promise<T> {
    return this.#call(
      {
        action,
        url: this.#openApiUrl,
        kind,
        checkTokenLength: false,
        paced,
        body: (token) => ({ action, access_token: token, data }),
        parse: (response) => accept(parseWith(action, schema, openData(action, response), response.snippet)),
      },
      options,
    );
  }

  async #call<T>(spec: CallSpec<T>, options: CallOptions | undefined): Promise<T> {
    const call: CallContext = {
      signal: options?.signal,
      // Only when given: a log line should not carry `requestId: undefined`.
      logFields: options?.requestId !== undefined ? { requestId: options.requestId } : {},
      sendBy: options?.sendBy,
    };
    // Before the clock starts: the wait for a turn is the rate's, not the platform's.
    if (spec.paced) await this.#turn(spec.action, call);
    if (!this.#observer) return this.#callWithToken(spec, call);
    const started = performance.now();
    let outcome: PlatformCallRecord['outcome'] = 'ok';
    try {
      return await this.#callWithToken(spec, call);
    } catch (error) {
      outcome = isPlatformError(error) ? error.code : 'unknown_error';
      throw error;
    } finally {
      this.#observer.onCallFinished({
        action: spec.action,
        outcome,
        durationMs: performance.now() - started,
      });
    }
  }

  /** Token, send with retries, and on a 1002 one renewal and one more try. */
  async #callWithToken<T>(spec: CallSpec<T>, call: CallContext): Promise<T> {
    const token = await this.#tokens.getToken();
    try {
      return await this.#send(spec, token, call);
    } catch (error) {
      if (!(error instanceof PlatformCodeError) || error.platformCode !== TOKEN_REJECTED_CODE) throw error;
      // The platform rejected the token without acting on the request, so even the robot ask may go again.
      this.#logger.warn(
        { action: spec.action, ...call.logFields },
        'platform rejected the access token; renewing and retrying once',
      );
      const renewed = await this.#tokens.renew(token);
      // A second send is a second question to the platform's rate.
      if (spec.paced) await this.#turn(spec.action, call);
      return await this.#send(spec, renewed, call);
    }
  }

  async #turn(action: string, call: CallContext): Promise<void> {
    await this.#pacing?.turn(action, { sendBy: call.sendBy, requestId: call.logFields.requestId });
  }

  async #send<T>(spec: CallSpec<T>, token: string, call: CallContext): Promise<T> {
    const { signal, logFields } = call;
    if (spec.checkTokenLength && token.length > ACCESS_TOKEN_MAX_LENGTH) {
      throw new RequestInvalidError(
        spec.action,
        'access_token',
        `must be at most ${ACCESS_TOKEN_MAX_LENGTH} characters`,
      );
    }
    const body = spec.body(token);
    return withRetries(
      async (attempt) => {
        const started = performance.now();
        const response = await this.#transport.postJson(spec.action, spec.url, body, {
          signal,
          secret: token,
        });
        const result = spec.parse(response);
        this.#logger.debug(
          {
            action: spec.action,
            ...logFields,
            attempt,
            durationMs: Math.round(performance.now() - started),
          },
          'platform call succeeded',
        );
        return result;
      },
      {
        action: spec.action,
        policy: this.#retry,
        rules: retryRulesFor(spec.kind),
        signal,
        onRetry: (error, attempt, delayMs) =>
          this.#logger.warn(
            {
              action: spec.action,
              ...logFields,
              attempt,
              delayMs,
              error: isPlatformError(error) ? error.message : String(error),
            },
            'platform call failed; retrying',
          ),
      },
    );
  }
}

/** The agent list declares `data` with length 4000; we count its JSON text. */
export function checkAgentListData(data: object): void {
  if (JSON.stringify(data).length > AGENT_LIST_DATA_MAX_LENGTH) {
    throw new RequestInvalidError(
      AGENT_LIST_ACTION,
      'data',
      `must serialize to at most ${AGENT_LIST_DATA_MAX_LENGTH} characters`,
    );
  }
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Parses a request; the first issue becomes a RequestInvalidError naming its field. */
function validate<S extends z.ZodType>(action: string, schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys.slice(0, 1)] : issue?.path;
  const field = path && path.length > 0 ? path.map(String).join('.') : '(request)';
  throw new RequestInvalidError(action, field, issue?.message ?? 'is invalid', { cause: result.error });
}

function parseWith<S extends z.ZodType>(
  action: string,
  schema: S,
  value: unknown,
  snippet: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  throw new MalformedResponseError(action, `${where}: ${issue?.message ?? 'unexpected shape'}`, snippet, {
    cause: result.error,
  });
}

/** Checks an open-platform envelope for code "1000" and returns its `data`. */
function openData(action: string, response: JsonResponse): unknown {
  const envelope = parseWith(action, openEnvelopeSchema, response.body, response.snippet);
  if (envelope.code !== OPEN_SUCCESS_CODE)
    throw new PlatformCodeError(action, envelope.code, messageOf(envelope));
  if (envelope.data === undefined || envelope.data === null) {
    throw new MalformedResponseError(action, 'success answer carries no data', response.snippet);
  }
  return envelope.data;
}

/** Ticket calls answer "1000,<text>"; a failure "1002,<text>" is split so the token check sees "1002". */
function assertTicketCode(action: string, code: string, answer: Record<string, unknown>): void {
  if (isTicketSuccessCode(code)) return;
  const comma = code.search(TICKET_CODE_SEPARATOR);
  const head = comma === -1 ? code : code.slice(0, comma);
  const text = comma === -1 ? undefined : code.slice(comma + 1).trim() || undefined;
  throw new PlatformCodeError(action, head, text ?? messageOf(answer));
}

function messageOf(answer: Record<string, unknown>): string | undefined {
  for (const key of ['msg', 'message', 'retMsg']) {
    const value = answer[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The spec's samples have stray spaces in keys ("items "), so every key is trimmed. */
export function trimKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(trimKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.trim(), trimKeys(inner)]));
}

/** Counters the platform omits are filled in as lower bounds, so paging continues until a short page. */
function toTicketPage(
  answer: z.output<typeof ticketListResponseSchema>,
  requestedPageNo: number,
  requestedPageSize: number,
): TicketPage {
  const tickets = answer.data;
  const pageNo = answer.pageNo ?? requestedPageNo;
  const pageSize = answer.pageSize ?? requestedPageSize;
  const seen = (pageNo - 1) * pageSize + tickets.length;
  const totalCount = answer.totalCount ?? seen;
  const fullPage = tickets.length >= pageSize && tickets.length > 0;
  const pageCount =
    answer.pageCount ??
    (answer.totalCount !== undefined
      ? Math.ceil(answer.totalCount / Math.max(1, pageSize))
      : fullPage
        ? pageNo + 1
        : pageNo);
  return { tickets, pageNo, pageSize, pageCount, totalCount };
}
