// In-process stores for a single replica: bounded LRU caches with TTLs.
import { LRUCache } from 'lru-cache';
import type { ContextStore } from '../conversation/stores.js';
import type { AnswerContext, Placement } from '../conversation/types.js';
import { lruClock } from '../util/lru-clock.js';
import { positiveInteger } from '../util/positive.js';
import { KeptOnceStore } from './kept-stores.js';
import { type MemoryBounds, memoryStrings, ttlMs } from './namespace.js';

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

  constructor(options: MemoryBounds & { ttlSeconds: number }) {
    // A timer per entry would cost more than letting expired entries age out of the LRU.
    this.#cache = new LRUCache<string, string>({
      max: positiveInteger('maxEntries', options.maxEntries),
      ttl: ttlMs(options.ttlSeconds),
      ...lruClock(options.now),
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

/** A claim evicted by the size cap can be claimed again: size the cap above the claims per TTL. */
export class MemoryOnceStore extends KeptOnceStore {
  constructor(bounds: MemoryBounds) {
    super(memoryStrings(bounds));
  }
}
