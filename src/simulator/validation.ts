// Deliberately independent of the client's zod schemas.
/** Answered with a failure code and this message. */
export class ParamError extends Error {
  override readonly name = 'ParamError';
}

export type Body = Record<string, unknown>;

interface StringRule {
  max?: number;
  allowEmpty?: boolean;
}

export function optionalString(body: Body, field: string, rule: StringRule = {}): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ParamError(`${field} must be a string`);
  if (!rule.allowEmpty && value.length === 0) throw new ParamError(`${field} must not be empty`);
  if (rule.max !== undefined && value.length > rule.max) {
    throw new ParamError(`${field} must be at most ${rule.max} characters`);
  }
  return value;
}

export function requireString(body: Body, field: string, rule: StringRule = {}): string {
  return required(optionalString(body, field, rule), field);
}

interface IntRule {
  min?: number;
  max?: number;
  oneOf?: readonly number[];
}

export function optionalInt(body: Body, field: string, rule: IntRule = {}): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new ParamError(`${field} must be an integer`);
  if (rule.oneOf && !rule.oneOf.includes(value)) {
    throw new ParamError(`${field} must be one of ${rule.oneOf.join(', ')}`);
  }
  if (rule.min !== undefined && value < rule.min)
    throw new ParamError(`${field} must be at least ${rule.min}`);
  if (rule.max !== undefined && value > rule.max)
    throw new ParamError(`${field} must be at most ${rule.max}`);
  return value;
}

export function requireInt(body: Body, field: string, rule: IntRule = {}): number {
  return required(optionalInt(body, field, rule), field);
}

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new ParamError(`${field} is required`);
  return value;
}

export function parseDate(text: string): number | undefined {
  return realUtc(/^(\d{4})-(\d{2})-(\d{2})$/.exec(text));
}

/** Read as UTC; undefined for an absent or unreadable time. */
export function parseDateTime(text: string | undefined): number | undefined {
  return realUtc(/^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text ?? ''));
}

/** Undefined unless the matched date and time exist (no 31 April, no 24:00). */
function realUtc(match: RegExpExecArray | null): number | undefined {
  if (!match) return undefined;
  const [year = 0, month = 0, day = 0, hours = 0, minutes = 0, seconds = 0] = match.slice(1).map(Number);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date.getTime() : undefined;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of the day `ms` falls on. */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
