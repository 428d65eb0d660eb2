// How every caught error is put on a log line, in every layer: the error under `err` (serialized
// with its cause chain) and its literal `code` beside it, so a log query can filter on the code.
import { isCodedError } from '../util/coded-error.js';

export interface ErrorFields {
  err: unknown;
  code?: string;
}

/** The log fields of a caught error: our CodedError's code, or the one an SDK or Node error carries. */
export function errorFields(error: unknown): ErrorFields {
  if (isCodedError(error)) return { err: error, code: error.code };
  // Slack's SDK, undici, node-redis and Node's own errors carry a string code of their own.
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    return { err: error, code: error.code };
  }
  return { err: error };
}
