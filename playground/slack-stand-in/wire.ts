// Slack's Web API wire format as @slack/web-api speaks it, read the same way by both servers the stand-in
// sits behind (the playground's and the tests' fake): the token, the body, an uploaded file.
import type { IncomingMessage } from 'node:http';

type Json = Record<string, unknown>;

/** The Web API method a path names (`/api/chat.postMessage`), if it names one. */
export function apiMethodOf(path: string): string | undefined {
  return /^\/api\/([A-Za-z0-9_.]+)$/.exec(path)?.[1];
}

/** The token of a call: the Authorization header's (a per-call token goes there), else the body's. */
export function tokenOf(authorization: string | undefined, body: Json): string | undefined {
  const bearer = authorization === undefined ? undefined : /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
  return bearer ?? (typeof body.token === 'string' ? body.token : undefined);
}

/** The body, or undefined when it is larger than `limit` (the rest is drained, not kept). */
export async function readBody(
  req: IncomingMessage,
  limit = Number.POSITIVE_INFINITY,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size <= limit) chunks.push(buffer);
  }
  return size > limit ? undefined : Buffer.concat(chunks);
}

/**
 * JSON, or a form whose JSON-valued fields (blocks, view, files) web-api sent as JSON strings, parsed
 * back into objects. A body that is not what its type says is kept under `_raw` (or `_json`) to be seen.
 */
export function parseBody(raw: string, contentType: string | undefined): Json {
  if (raw === '') return {};
  if (contentType?.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return isJson(parsed) ? parsed : { _json: parsed };
    } catch {
      return { _raw: raw };
    }
  }
  const fields: Json = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    // web-api JSON.stringifies objects and arrays; other values arrive as plain strings.
    fields[key] = value.startsWith('{') || value.startsWith('[') ? parseJsonOr(value) : value;
  }
  return fields;
}

/** An upload's bytes: the body itself, or the one file of a multipart form (as the SDK's upload sends). */
export async function uploadedBytes(body: Buffer, contentType: string | undefined): Promise<Buffer> {
  if (!contentType?.startsWith('multipart/form-data')) return body;
  const form = await new Response(new Uint8Array(body), {
    headers: { 'content-type': contentType },
  }).formData();
  for (const value of form.values()) {
    // Blob.text() would drop a byte-order mark: keep the bytes as they came.
    if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  }
  return Buffer.alloc(0);
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJsonOr(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
