// The transport under Slack's Web API client: the SDK's own `fetch` option, served by an undici
// keep-alive pool instead of the global fetch, whose WHATWG streams, abort signals and header guards
// cost more CPU per chat.postMessage than the rest of posting an answer. The SDK keeps its retries,
// rate-limit handling and error types; only the bytes on the wire travel differently.
import type { webApi } from '@slack/bolt';
import { Agent, request } from 'undici';

export interface SlackFetch {
  fetch: webApi.FetchFunction;
  close(): Promise<void>;
}

/**
 * Slack answers in well under a second; a call stuck longer than these is retried or given up. Set
 * on the pool rather than as the SDK's `timeout`, which makes an AbortSignal and a timer per call.
 */
const CONNECT_TIMEOUT_MS = 10_000;
const RESPONSE_TIMEOUT_MS = 10_000;

export function createSlackFetch(): SlackFetch {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    connect: { timeout: CONNECT_TIMEOUT_MS },
    headersTimeout: RESPONSE_TIMEOUT_MS,
    bodyTimeout: RESPONSE_TIMEOUT_MS,
  });

  const leanFetch: webApi.FetchFunction = async (url, init = {}) => {
    // File uploads send multipart bodies; the global fetch knows how to encode them.
    if (init.body !== undefined && typeof init.body !== 'string') return fetch(url, init);
    const response = await request(url, {
      dispatcher: agent,
      method: (init.method ?? 'GET') as 'GET' | 'POST',
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.body === undefined ? {} : { body: init.body }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    const text = bytes.toString('utf8');
    const headers = response.headers;
    const header = (name: string): string | null => {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    };
    return {
      ok: response.statusCode >= 200 && response.statusCode < 300,
      status: response.statusCode,
      statusText: '',
      url: String(url),
      headers: {
        get: header,
        entries: () => Object.keys(headers).map((name): [string, string] => [name, header(name) ?? '']),
      },
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
      arrayBuffer: async () =>
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    };
  };

  return { fetch: leanFetch, close: () => agent.close() };
}
