// Where every Slack Web API call leaves the process. Whatever a listener sends (a robot's answer, a
// user's name, a modal), its strings are made well formed here: a lone surrogate made the SDK's
// form encoder throw "URI malformed", and the SDK then retried the same call for five minutes.
import type { webApi } from '@slack/bolt';
import { isJsonContainer, wellFormed, wellFormedJson } from '../../util/well-formed.js';

type WebClient = webApi.WebClient;
type Body = Record<string, unknown>;

/**
 * The SDK's two private steps that every call goes through (apiCall, its method shortcuts bound at
 * construction, pagination, file uploads): wrapping them is the only place no call can go around.
 */
interface RequestSteps {
  makeRequest(url: string, body: Body | JsonBody, headers?: Record<string, string>): Promise<unknown>;
  serializeBody(data: Body | JsonBody): { serializedBody: unknown; contentHeaders: Record<string, string> };
}

/**
 * The methods that carry Block Kit (messages and views), which Slack takes as JSON: their bodies are
 * sent as one JSON document rather than a form, whose encoder escaped every brace and quote of the
 * blocks (docs/decisions/006). Other methods stay forms: not
 * every method reads JSON.
 */
const JSON_METHODS: ReadonlySet<string> = new Set([
  'chat.postMessage',
  'chat.postEphemeral',
  'chat.update',
  'views.open',
  'views.publish',
  'views.push',
  'views.update',
]);

/**
 * A body already serialized as JSON. Nothing of it is enumerable, so the SDK's debug line (built
 * whatever the log level) copies nothing; its own serializer is replaced for it (below).
 */
class JsonBody {
  readonly #json: string;

  constructor(json: string) {
    this.#json = json;
  }

  get json(): string {
    return this.#json;
  }
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

const guarded = new WeakSet<WebClient>();

/**
 * Makes every later call of `client` send well-formed strings, and the methods that carry Block Kit
 * send JSON. Idempotent; throws if the SDK changed shape.
 */
export function guardOutgoingCalls(client: WebClient): WebClient {
  if (guarded.has(client)) return client;
  const steps = client as unknown as RequestSteps;
  if (typeof steps.makeRequest !== 'function' || typeof steps.serializeBody !== 'function') {
    throw new Error(
      'the Slack Web API client has no makeRequest or serializeBody step: outgoing calls cannot be checked',
    );
  }
  const makeRequest = steps.makeRequest.bind(client);
  const serializeBody = steps.serializeBody.bind(client);
  steps.makeRequest = (url, body, headers) =>
    makeRequest(url, body instanceof JsonBody ? body : outgoingBody(url, body, headers), headers);
  steps.serializeBody = (data) =>
    data instanceof JsonBody
      ? { serializedBody: data.json, contentHeaders: JSON_HEADERS }
      : serializeBody(data);
  guarded.add(client);
  return client;
}

/**
 * The body as it may leave: strings well formed, and objects and arrays (blocks) as the JSON the SDK
 * would send them as. Handed an array, the SDK copies and serializes the blocks twice more per call
 * for its debug log (whatever the log level) before serializing them for the wire, a measured share
 * of an answer's CPU.
 */
function outgoingBody(url: string, body: Body, headers: Record<string, string> | undefined): Body | JsonBody {
  if (JSON_METHODS.has(methodOf(url)) && sendsTokenInHeader(body, headers) && isJsonContainer(body)) {
    // The token travels in the Authorization header (the SDK puts it there): a JSON body carries none.
    const { token: _token, ...rest } = body;
    return new JsonBody(wellFormedJson(rest));
  }
  const sent: Body = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    // Buffers and streams (file uploads) go on as they are.
    sent[key] = isJsonContainer(value) ? wellFormedJson(value) : wellFormed(value);
  }
  return sent;
}

function methodOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

/**
 * Whether the call's token is in its Authorization header: the SDK sets it from the call's `token`,
 * else from the client's own (its default headers); a body whose token is not also there stays a form.
 */
function sendsTokenInHeader(body: Body, headers: Record<string, string> | undefined): boolean {
  return body.token === undefined || headers?.Authorization === `Bearer ${String(body.token)}`;
}

/**
 * How the Web API client retries: a few times within a bound (the SDK's default retries for half
 * an hour, its "five retries in five minutes" for five; an answer that late helps nobody), and never
 * a failure that the same request would meet again.
 */
export function webApiRetryPolicy(
  retries?: number,
): webApi.RetryOptions & { onFailedAttempt(error: Error): void } {
  const bounds =
    retries === undefined
      ? { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 5_000, maxRetryTime: 30_000, randomize: true }
      : { retries };
  return {
    ...bounds,
    // p-retry stops retrying when this throws.
    onFailedAttempt: (error: Error) => {
      if (!isWorthRetrying(error)) throw error;
    },
  };
}

/**
 * False for failures that a retry of the same request meets again: the request could not be built
 * (an encoding or argument error on this side) or Slack refused it as malformed (a 4xx other than 408
 * and 429). Connection failures, timeouts, 5xx and rate limits are worth another try.
 */
export function isWorthRetrying(error: unknown): boolean {
  if (isClientSideError(error)) return false;
  if (!(error instanceof Error) || !('code' in error)) return true;
  if (error.code === 'slack_webapi_http_error' && 'statusCode' in error) {
    const status = Number(error.statusCode);
    return !(status >= 400 && status < 500) || status === 408 || status === 429;
  }
  if (error.code === 'slack_webapi_request_error' && 'original' in error) {
    return !isClientSideError(error.original);
  }
  return true;
}

function isClientSideError(error: unknown): boolean {
  if (error instanceof URIError || error instanceof RangeError || error instanceof SyntaxError) return true;
  // undici refuses a request it cannot send as given (a header with a newline, a bad method).
  return error instanceof Error && 'code' in error && error.code === 'UND_ERR_INVALID_ARG';
}
