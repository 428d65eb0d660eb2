// The storage the conversation core needs; src/stores implements it in memory and in Redis.
import { CodedError } from '../util/coded-error.js';
import type { AnswerContext, Rating } from './types.js';

/** Answer contexts, keyed by a short random key that travels in button values. */
export interface ContextStore {
  put(key: string, context: AnswerContext): Promise<void>;
  get(key: string): Promise<AnswerContext | undefined>;
}

/** Ratings already sent, so a second click sends nothing twice. */
export interface RatingStore {
  /** Records the rating if none is recorded; returns the rating that holds (the earlier one on a race). */
  recordOnce(
    contextKey: string,
    rating: Rating,
    ttlSeconds: number,
  ): Promise<{ recorded: boolean; rating: Rating }>;
  get(contextKey: string): Promise<Rating | undefined>;
  /** Undoes a recorded rating when sending it to the platform failed, so the user can try again. */
  forget(contextKey: string): Promise<void>;
}

/**
 * Thrown by a store whose backend is unreachable; the core tells the user politely. Declared here,
 * beside the interfaces whose calls throw it, so the core narrows on it without importing src/stores.
 */
export class StoreUnavailableError extends CodedError<'STORE_UNAVAILABLE'> {
  readonly code = 'STORE_UNAVAILABLE' as const;
}
