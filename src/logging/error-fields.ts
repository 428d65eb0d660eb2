// Every caught error on a log line: `err` with its cause chain, its literal `code` beside it to filter on.
import { CodedError } from '../util/coded-error.js';

export interface ErrorFields {
  err: unknown;
  code?: string;
}

export function errorFields(error: unknown): ErrorFields {
  if (error instanceof CodedError) return { err: error, code: error.code };
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    return { err: error, code: error.code };
  }
  return { err: error };
}
