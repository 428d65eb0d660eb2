// Signs requests the way Slack does (v0 HMAC-SHA256) and posts them to the app under test.
import { v0Signature } from '../../src/slack/transport/v0-signature.js';

export interface SlackSignatureHeaders {
  'x-slack-signature': string;
  'x-slack-request-timestamp': string;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function signSlackRequest(
  secret: string,
  body: string,
  timestamp: number = nowSeconds(),
): SlackSignatureHeaders {
  return {
    'x-slack-signature': v0Signature(secret, timestamp, body),
    'x-slack-request-timestamp': String(timestamp),
  };
}

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const JSON_CONTENT_TYPE = 'application/json';

export interface PostToSlackAppOptions {
  body: string;
  contentType: string;
  secret: string;
  /** Seconds; defaults to now. A value older than 5 minutes makes Bolt reject the request as stale. */
  timestamp?: number | undefined;
  /** Sent as-is instead of the computed signature (forged-request tests). */
  signature?: string | undefined;
  /** Added last, so they can also override the signing headers (e.g. X-Slack-Retry-Num). */
  extraHeaders?: Record<string, string> | undefined;
  /** Defaults to `/slack/events`, Bolt's default endpoint. */
  path?: string | undefined;
  method?: string | undefined;
}

export interface SlackAppResponse {
  status: number;
  text: string;
  headers: Headers;
}

export async function postToSlackApp(
  baseUrl: string,
  options: PostToSlackAppOptions,
): Promise<SlackAppResponse> {
  const signed = signSlackRequest(options.secret, options.body, options.timestamp);
  const headers: Record<string, string> = {
    'content-type': options.contentType,
    ...signed,
    ...(options.signature === undefined ? {} : { 'x-slack-signature': options.signature }),
    ...options.extraHeaders,
  };
  const response = await fetch(new URL(options.path ?? '/slack/events', baseUrl), {
    method: options.method ?? 'POST',
    headers,
    body: options.body,
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Posts an Events API envelope (JSON), as Slack does to the Request URL. */
export function sendEvent(
  baseUrl: string,
  secret: string,
  eventCallback: unknown,
  headers?: Record<string, string>,
): Promise<SlackAppResponse> {
  return postToSlackApp(baseUrl, {
    body: JSON.stringify(eventCallback),
    contentType: JSON_CONTENT_TYPE,
    secret,
    ...(headers === undefined ? {} : { extraHeaders: headers }),
  });
}

/** Slack's retry headers for a redelivered event, e.g. `retryHeaders(1, 'http_timeout')`. */
export function retryHeaders(retryNum: number, reason = 'http_timeout'): Record<string, string> {
  return { 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': reason };
}

/** The exact body Slack sends for interactivity: a single form field `payload` holding the JSON. */
export function interactionBody(payload: unknown): string {
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export function sendInteraction(
  baseUrl: string,
  secret: string,
  payload: unknown,
  headers?: Record<string, string>,
): Promise<SlackAppResponse> {
  return postToSlackApp(baseUrl, {
    body: interactionBody(payload),
    contentType: FORM_CONTENT_TYPE,
    secret,
    ...(headers === undefined ? {} : { extraHeaders: headers }),
  });
}

export interface SlashCommandFields {
  command: string;
  text?: string | undefined;
  user_id?: string | undefined;
  user_name?: string | undefined;
  channel_id?: string | undefined;
  channel_name?: string | undefined;
  team_id?: string | undefined;
  team_domain?: string | undefined;
  response_url?: string | undefined;
  trigger_id?: string | undefined;
  api_app_id?: string | undefined;
  [field: string]: string | undefined;
}

/** Slash commands arrive as plain form fields (no `payload` wrapper). */
function slashCommandBody(fields: SlashCommandFields): string {
  const full: Record<string, string> = {
    token: 'verification-token',
    team_id: 'T1',
    team_domain: 'acme',
    channel_id: 'C1',
    channel_name: 'support',
    user_id: 'U1',
    user_name: 'jane',
    text: '',
    api_app_id: 'A1',
    is_enterprise_install: 'false',
    response_url: 'https://hooks.slack.com/commands/T1/1/abc',
    trigger_id: '1.2.abc',
  };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) full[key] = value;
  }
  return new URLSearchParams(full).toString();
}

export function sendSlashCommand(
  baseUrl: string,
  secret: string,
  fields: SlashCommandFields,
  headers?: Record<string, string>,
): Promise<SlackAppResponse> {
  return postToSlackApp(baseUrl, {
    body: slashCommandBody(fields),
    contentType: FORM_CONTENT_TYPE,
    secret,
    ...(headers === undefined ? {} : { extraHeaders: headers }),
  });
}
