// In-process stores for a single replica: bounded LRU caches with TTLs.
import { LRUCache } from 'lru-cache';
import type { ContextStore, RatingStore } from '../conversation/stores.js';
import type { AnswerContext, Placement, Rating } from '../conversation/types.js';
import type { OnceStore } from '../slack/handling/stores.js';

export type Clock = () => number;

interface CacheBounds {
  maxEntries: number;
  now?: Clock;
}

function cacheOptions(bounds: CacheBounds): { max: number; perf?: { now: Clock }; ttlResolution?: number } {
  if (!Number.isInteger(bounds.maxEntries) || bounds.maxEntries < 1) {
    throw new RangeError(`maxEntries must be a positive integer, got ${bounds.maxEntries}`);
  }
  if (bounds.now === undefined) return { max: bounds.maxEntries };
  // lru-cache caches its clock reading for ttlResolution ms, which would hide an injected jump.
  return { max: bounds.maxEntries, perf: { now: bounds.now }, ttlResolution: 0 };
}

function ttlMs(ttlSeconds: number): number {
  if (!(ttlSeconds > 0)) throw new RangeError(`ttlSeconds must be positive, got ${ttlSeconds}`);
  return ttlSeconds * 1000;
}

export interface MemoryContextStoreOptions extends CacheBounds {
  ttlSeconds: number;
}

/** One string per entry, not a dozen objects: half the heap, one object to mark (docs/decisions/004). */
type PackedContext = [
  uid: string | null,
  cid: string | null,
  msgId: string | null,
  docId: string | null,
  docName: string | null,
  robotFlag: number,
  partnerId: string,
  askerUserId: string,
  question: string,
  suggestions: string[],
  rateable: 0 | 1,
  conversationId: string,
  threadId: string | null,
  createdAt: number,
  placement: [number | null, number | null, Placement['language'], Placement['reply']] | null,
];

function packContext(context: AnswerContext): string {
  const packed: PackedContext = [
    context.uid ?? null,
    context.cid ?? null,
    context.msgId ?? null,
    context.docId ?? null,
    context.docName === context.question ? null : context.docName,
    context.robotFlag,
    context.partnerId,
    context.askerUserId,
    context.question,
    context.suggestions.flatMap((suggestion) => [suggestion.question, suggestion.docId]),
    context.rateable ? 1 : 0,
    context.conversationId,
    context.threadId ?? null,
    context.createdAt,
    context.placement
      ? [
          context.placement.robotFlag ?? null,
          context.placement.source ?? null,
          context.placement.language,
          context.placement.reply,
        ]
      : null,
  ];
  return JSON.stringify(packed);
}

function unpackContext(raw: string): AnswerContext {
  const [
    uid,
    cid,
    msgId,
    docId,
    docName,
    robotFlag,
    partnerId,
    askerUserId,
    question,
    flat,
    rateable,
    conversationId,
    threadId,
    createdAt,
    placement,
  ] = JSON.parse(raw) as PackedContext;
  const suggestions: AnswerContext['suggestions'] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    suggestions.push({ question: flat[i] ?? '', docId: flat[i + 1] ?? '' });
  }
  return {
    uid: uid ?? undefined,
    cid: cid ?? undefined,
    msgId: msgId ?? undefined,
    docId: docId ?? undefined,
    docName: docName ?? question,
    robotFlag,
    partnerId,
    askerUserId,
    question,
    suggestions,
    rateable: rateable === 1,
    conversationId,
    threadId: threadId ?? undefined,
    createdAt,
    placement: placement
      ? {
          robotFlag: placement[0] ?? undefined,
          source: placement[1] ?? undefined,
          language: placement[2],
          reply: placement[3],
        }
      : undefined,
  };
}

export class MemoryContextStore implements ContextStore {
  readonly #cache: LRUCache<string, string>;

  constructor(options: MemoryContextStoreOptions) {
    // A timer per entry would cost more than letting expired entries age out of the LRU.
    this.#cache = new LRUCache<string, string>({
      ...cacheOptions(options),
      ttl: ttlMs(options.ttlSeconds),
    });
  }

  /** Expired ones included until read or evicted. */
  get size(): number {
    return this.#cache.size;
  }

  async put(key: string, context: AnswerContext): Promise<void> {
    this.#cache.set(key, packContext(context));
  }

  async get(key: string): Promise<AnswerContext | undefined> {
    const raw = this.#cache.get(key);
    return raw === undefined ? undefined : unpackContext(raw);
  }

  clear(): void {
    this.#cache.clear();
  }
}

export class MemoryOnceStore implements OnceStore {
  readonly #claims: LRUCache<string, true>;

  /** A claim evicted by the size cap can be claimed again: size the cap above the claims per TTL. */
  constructor(options: CacheBounds) {
    const { max, ...rest } = cacheOptions(options);
    // `maxSize`, not `max`: with `max` lru-cache refills every slot whenever its last entry goes.
    this.#claims = new LRUCache<string, true>({ ...rest, maxSize: max, sizeCalculation: () => 1 });
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    // No await between check and set: within one process the claim is atomic.
    if (this.#claims.has(key)) return false;
    this.#claims.set(key, true, { ttl: ttlMs(ttlSeconds) });
    return true;
  }

  async release(key: string): Promise<void> {
    this.#claims.delete(key);
  }

  async keep(key: string, ttlSeconds: number): Promise<void> {
    this.#claims.set(key, true, { ttl: ttlMs(ttlSeconds) });
  }

  async has(key: string): Promise<boolean> {
    return this.#claims.has(key);
  }

  clear(): void {
    this.#claims.clear();
  }
}

export class MemoryRatingStore implements RatingStore {
  readonly #ratings: LRUCache<string, Rating>;

  constructor(options: CacheBounds) {
    this.#ratings = new LRUCache<string, Rating>(cacheOptions(options));
  }

  async recordOnce(
    contextKey: string,
    rating: Rating,
    ttlSeconds: number,
  ): Promise<{ recorded: boolean; rating: Rating }> {
    const existing = this.#ratings.get(contextKey);
    if (existing !== undefined) return { recorded: false, rating: existing };
    this.#ratings.set(contextKey, rating, { ttl: ttlMs(ttlSeconds) });
    return { recorded: true, rating };
  }

  async get(contextKey: string): Promise<Rating | undefined> {
    return this.#ratings.get(contextKey);
  }

  async forget(contextKey: string): Promise<void> {
    this.#ratings.delete(contextKey);
  }

  clear(): void {
    this.#ratings.clear();
  }
}
