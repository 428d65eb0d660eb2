// Storage interfaces of the conversation core; in-memory and Redis implementations live beside them.
import type { AnswerContext, Rating } from './types.js';

/** Answer contexts, keyed by a short random key that travels in button values. */
export interface ContextStore {
  put(key: string, context: AnswerContext): Promise<void>;
  get(key: string): Promise<AnswerContext | undefined>;
  close(): Promise<void>;
}

/**
 * Claims that make an action happen once across retries and replicas.
 * `claim` returns true for the first caller of a key within its TTL; `release` gives a claim back
 * so that a delivery whose processing failed early can be processed again.
 */
export interface OnceStore {
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** True while a claim on the key holds (e.g. a thread the app is answering). */
  has(key: string): Promise<boolean>;
  release(key: string): Promise<void>;
  /** Holds the key for `ttlSeconds` from now, claimed or not: the work its claim guarded is done. */
  keep(key: string, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
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
  close(): Promise<void>;
}

/** Display names by user id, so users.info is not called for every message. */
export interface NameCache {
  get(userId: string): Promise<string | undefined>;
  set(userId: string, name: string, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
}

/** Thrown by a store whose backend is unreachable; the core tells the user politely. */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
