// The storage the conversation core needs; src/stores implements it.
import { CodedError } from '../util/coded-error.js';
import type { AnswerContext, Rating } from './types.js';

/** The key travels in button values. */
export interface ContextStore {
  put(key: string, context: AnswerContext): Promise<void>;
  get(key: string): Promise<AnswerContext | undefined>;
}

/** So a second click sends nothing twice. */
export interface RatingStore {
  /** Returns the rating that holds (the earlier one on a race). */
  recordOnce(
    contextKey: string,
    rating: Rating,
    ttlSeconds: number,
  ): Promise<{ recorded: boolean; rating: Rating }>;
  get(contextKey: string): Promise<Rating | undefined>;
  /** When sending it failed, so the user can try again. */
  forget(contextKey: string): Promise<void>;
}

/** Declared beside the interfaces, so the core narrows on it without importing src/stores. */
export class StoreUnavailableError extends CodedError<'STORE_UNAVAILABLE'> {
  readonly code = 'STORE_UNAVAILABLE' as const;
}
