// Hand-written readers of the answer path's plain shapes: each returns what its zod schema returns, for
// the common well-formed value only, and undefined for anything else, which then goes to the schema.
// zod stays the definition and writes the errors; these spare every answer its generic walk (zod was
// 7-9% of an answer's CPU at 300 events/s, most of it the robot's answer and our own ask). Each is
// checked against its schema on generated values (test/unit/platform/plain-readers.test.ts).
import type { z } from 'zod';
import { type RobotAnswer, robotAskRequestSchema } from './schemas.js';

/** A robot ask as the schema returns it. */
type RobotAsk = z.output<typeof robotAskRequestSchema>;

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ code, data }` of every open-platform answer, when `code` is a string. */
export function readPlainEnvelope(value: unknown): { code: string; data?: unknown } | undefined {
  if (!isFields(value) || typeof value.code !== 'string') return undefined;
  return { ...value, code: value.code };
}

const isString = (value: unknown) => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';

/** The robot's optional answer fields and the plain type of each; null or missing reads as undefined. */
const OPTIONAL_FIELDS: ReadonlyArray<readonly [string, (value: unknown) => boolean]> = [
  ['question', isString],
  ['docId', isString],
  ['uid', isString],
  ['cid', isString],
  ['msgId', isString],
  ['stripe', isString],
  ['robotFlag', Number.isSafeInteger],
  ['answerType', Number.isSafeInteger],
  ['sessionNew', isBoolean],
];

/** The robot's answer when its fields have their plain types (strings, whole numbers, plain suggestions). */
export function readPlainRobotAnswer(value: unknown): RobotAnswer | undefined {
  if (!isFields(value)) return undefined;
  const answer = value.answer;
  if (answer !== undefined && answer !== null && typeof answer !== 'string') return undefined;
  const suggestions = readPlainSuggestions(value.suggestions);
  if (suggestions === undefined) return undefined;
  const read: Fields = { ...value, answer: answer ?? '', suggestions };
  for (const [key, isPlain] of OPTIONAL_FIELDS) {
    if (!(key in value)) continue;
    const field = value[key];
    if (field === null || field === undefined) read[key] = undefined;
    else if (!isPlain(field)) return undefined;
  }
  return read as RobotAnswer;
}

/** Suggestions as objects of strings (answer and docId may be missing), blank questions left out. */
function readPlainSuggestions(value: unknown): RobotAnswer['suggestions'] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return undefined;
  const read: RobotAnswer['suggestions'] = [];
  for (const suggestion of value) {
    if (!isFields(suggestion) || typeof suggestion.question !== 'string') return undefined;
    if ('answer' in suggestion && typeof suggestion.answer !== 'string') return undefined;
    if ('docId' in suggestion && typeof suggestion.docId !== 'string') return undefined;
    if (suggestion.question.trim() !== '') read.push({ ...suggestion, question: suggestion.question });
  }
  return read;
}

/** The fields a robot ask may carry: the strict schema's own. */
const ASK_KEYS: ReadonlySet<string> = new Set(Object.keys(robotAskRequestSchema.shape));

const isFilled = (value: unknown) => typeof value === 'string' && value !== '';
const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';
const isOptionalIn = (value: unknown, low: number, high: number) =>
  value === undefined || (Number.isInteger(value) && (value as number) >= low && (value as number) <= high);

/** A robot ask as this gateway makes one, when every rule of the schema holds; a copy of it. */
export function readPlainRobotAsk(value: unknown): RobotAsk | undefined {
  if (!isFields(value)) return undefined;
  for (const key in value) if (!ASK_KEYS.has(key)) return undefined;
  if (!isFilled(value.sysNum) || !isFilled(value.partnerId) || !isFilled(value.question)) return undefined;
  if (!isOptionalString(value.uname) || !isOptionalString(value.requestText)) return undefined;
  if (!isOptionalIn(value.source, 0, 4) || !isOptionalIn(value.questionFlag, 0, 1)) return undefined;
  if (!isOptionalIn(value.robotFlag, 0, Number.MAX_SAFE_INTEGER)) return undefined;
  if (value.questionFlag === 1 && !value.requestText) return undefined;
  return { ...value } as RobotAsk;
}
