// Reading the hot path's shapes by hand where they are plain, by their zod schema otherwise: the schema
// stays the definition, decides every other value and writes every error.
import type { z } from 'zod';

/** What the schema would return for a plain well-formed value, or undefined to let the schema decide. */
export type PlainReader<T> = (value: unknown) => T | undefined;

/** `schema.safeParse(value)`, answered by `plain` when it reads the value. */
export function safeParsePlainFirst<S extends z.ZodType>(
  schema: S,
  value: unknown,
  plain: PlainReader<z.output<S>> | undefined,
): z.ZodSafeParseResult<z.output<S>> {
  const read = plain?.(value);
  return read !== undefined ? { success: true, data: read } : schema.safeParse(value);
}
