// Every Web API call leaves here: its strings made well formed, as a lone surrogate makes the SDK's form
// encoder throw (and the SDK retry for minutes), and Block Kit sent as JSON.
import type { webApi } from '@slack/bolt';
import { isJsonContainer, wellFormed, wellFormedJson } from '../../util/well-formed.js';
import { methodOf, SlackRateLimitGaveUp } from './rate-limits.js';

type WebClient = webApi.WebClient;
type Body = Record<string, unknown>;

/** Private SDK steps every call goes through: wrapping them is the only place no call can go around. */
interface RequestSteps {
  makeRequest(url: string, body: Body | JsonBody, headers?: Record<string, string>): Promise<unknown>;
  serializeBody(data: Body | JsonBody): { serializedBody: unknown; contentHeaders: Record<string, string> };
}

/** Block Kit as one JSON document, not a form that escapes every brace (docs/decisions/006). */
const JSON_METHODS: ReadonlySet<string> = new Set([
  'chat.postMessage',
  'chat.postEphemeral',
  'chat.update',
  'views.open',
  'views.publish',
  'views.push',
  'views.update',
]);

/** Nothing of it is enumerable, so the SDK's debug line (built at any log level) copies nothing. */
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

/** Idempotent; throws if the SDK changed shape. */
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

/** Blocks pre-serialized: handed an array, the SDK serializes them twice more for its debug log. */
function outgoingBody(url: string, body: Body, headers: Record<string, string> | undefined): Body | JsonBody {
  if (JSON_METHODS.has(methodOf(url)) && sendsTokenInHeader(body, headers) && isJsonContainer(body)) {
    // The token travels in the Authorization header: a JSON body carries none.
    const { token: _token, ...rest } = body;
    return new JsonBody(wellFormedJson(rest));
  }
  const sent: Body = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    sent[key] = isJsonContainer(value) ? wellFormedJson(value) : wellFormed(value);
  }
  return sent;
}

/** A body whose token is not also in the header (the SDK sets it there) stays a form. */
function sendsTokenInHeader(body: Body, headers: Record<string, string> | undefined): boolean {
  return body.token === undefined || headers?.Authorization === `Bearer ${String(body.token)}`;
}

/** A few times within a bound (an answer later helps nobody), and never a failure a retry meets again. */
export function webApiRetryPolicy(
  retries?: number,
): webApi.RetryOptions & { onFailedAttempt(error: Error): void } {
  const bounds =
    retries === undefined
      ? { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 5_000, maxRetryTime: 30_000, randomize: true }
      : { retries };
  return {
    ...bounds,
    onFailedAttempt: (error: Error) => {
      if (!isWorthRetrying(error)) throw error;
    },
  };
}

/** False when the request could not be built or Slack refused it as malformed (4xx but 408 and 429). */
export function isWorthRetrying(error: unknown): boolean {
  if (isClientSideError(error)) return false;
  if (!(error instanceof Error) || !('code' in error)) return true;
  if (error.code === 'slack_webapi_http_error' && 'statusCode' in error) {
    const status = Number(error.statusCode);
    return !(status >= 400 && status < 500) || status === 408 || status === 429;
  }
  if (error.code === 'slack_webapi_request_error' && 'original' in error) {
    // Held back by a 429 past its deadline: already logged and counted, and a retry would meet it again.
    if (error.original instanceof SlackRateLimitGaveUp) return false;
    return !isClientSideError(error.original);
  }
  return true;
}

function isClientSideError(error: unknown): boolean {
  if (error instanceof URIError || error instanceof RangeError || error instanceof SyntaxError) return true;
  // undici refuses a request it cannot send as given (a header with a newline, a bad method).
  return error instanceof Error && 'code' in error && error.code === 'UND_ERR_INVALID_ARG';
}
