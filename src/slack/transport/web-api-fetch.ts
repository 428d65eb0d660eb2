// The SDK's `fetch` option served by an undici keep-alive pool, not the global fetch (docs/decisions/001).
import type { webApi } from '@slack/bolt';
import { Agent, request } from 'undici';

export interface SlackFetch {
  fetch: webApi.FetchFunction;
  close(): Promise<void>;
}

/** On the pool, not the SDK's `timeout`, which makes an AbortSignal and a timer per call. */
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
    // The global fetch knows how to encode multipart uploads.
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
