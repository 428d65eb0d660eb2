// Reading JSON that came from outside (Redis, Slack button values, caches) without ever throwing.
import type { z } from 'zod';

/** The value when `raw` is JSON that `schema` accepts; undefined for anything else. */
export function parseJsonWith<T>(raw: string | undefined, schema: z.ZodType<T>): T | undefined {
  if (raw === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
