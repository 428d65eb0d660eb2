// The stores every engine builds alike over the strings it keeps (`KeptStrings`): claims (deliveries,
// threads), ratings, answer contexts and the platform token, the same keys and values on every engine.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { LOCALES } from '../conversation/locale.js';
import { type ContextStore, type RatingStore, StoreUnavailableError } from '../conversation/stores.js';
import type { AnswerContext, Rating } from '../conversation/types.js';
import type { CachedToken, TokenCache } from '../platform/access-token.js';
import type { OnceStore } from '../slack/handling/stores.js';
import { parseJsonWith } from '../util/json.js';
import type { Clock, KeptStrings, Namespaces } from './namespace.js';

/** What a claim or a kept key holds, as it always has: the JSON number 1. */
const KEPT = '1';

export class KeptOnceStore implements OnceStore {
  readonly #strings: KeptStrings;
  /** The engine's id of a key (SQLite files deliveries and threads under their ts: `timeLedId`). */
  readonly #id: (key: string) => string;

  constructor(strings: KeptStrings, id: (key: string) => string = (key) => key) {
    this.#strings = strings;
    this.#id = id;
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    return this.#strings.setRaw(this.#id(key), KEPT, ttlSeconds, { onlyIfAbsent: true });
  }

  async release(key: string): Promise<void> {
    await this.#strings.delete(this.#id(key));
  }

  async keep(key: string, ttlSeconds: number): Promise<void> {
    await this.#strings.setRaw(this.#id(key), KEPT, ttlSeconds);
  }

  async has(key: string): Promise<boolean> {
    return (await this.#strings.raw(this.#id(key))) !== undefined;
  }
}

const ratingSchema = z.union([z.literal(1), z.literal(2)]);
/** Set-if-absent then a read can find the winner gone (forgotten, expired); a few rounds settle it. */
const RECORD_ATTEMPTS = 3;

export class KeptRatingStore implements RatingStore {
  readonly #strings: KeptStrings;

  constructor(strings: KeptStrings) {
    this.#strings = strings;
  }

  async recordOnce(
    contextKey: string,
    rating: Rating,
    ttlSeconds: number,
  ): Promise<{ recorded: boolean; rating: Rating }> {
    const raw = JSON.stringify(rating);
    for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
      if (await this.#strings.setRaw(contextKey, raw, ttlSeconds, { onlyIfAbsent: true })) {
        return { recorded: true, rating };
      }
      const existing = await this.#strings.raw(contextKey);
      if (existing === undefined) continue;
      const held = parseJsonWith(existing, ratingSchema);
      if (held !== undefined) return { recorded: false, rating: held };
      // Unreadable would block rating forever: this rating replaces it.
      await this.#strings.setRaw(contextKey, raw, ttlSeconds);
      return { recorded: true, rating };
    }
    throw new StoreUnavailableError(
      `rating of ${contextKey} kept changing during ${RECORD_ATTEMPTS} attempts`,
    );
  }

  async get(contextKey: string): Promise<Rating | undefined> {
    return parseJsonWith(await this.#strings.raw(contextKey), ratingSchema);
  }

  async forget(contextKey: string): Promise<void> {
    await this.#strings.delete(contextKey);
  }
}

const suggestionSchema = z.object({ question: z.string(), docId: z.string() });

// Older contexts may lack these ids or hold '' for none; both read as undefined.
const storedId = z
  .string()
  .optional()
  .transform((id) => id || undefined);

const placementSchema = z.object({
  robotFlag: z.number().optional(),
  source: z.number().optional(),
  language: z.enum(['auto', ...LOCALES]),
  reply: z.enum(['thread', 'ephemeral']),
});

// JSON drops undefined properties, so the `| undefined` fields come back missing.
const storedContextSchema = z.object({
  uid: z.string().optional(),
  cid: storedId,
  msgId: storedId,
  docId: storedId,
  docName: z.string(),
  robotFlag: z.number(),
  partnerId: z.string(),
  askerUserId: z.string(),
  question: z.string(),
  suggestions: z.array(suggestionSchema),
  rateable: z.boolean(),
  conversationId: z.string(),
  threadId: z.string().optional(),
  createdAt: z.number(),
  placement: placementSchema.optional(),
  workspace: z.string().optional(),
});

const contextSchema: z.ZodType<AnswerContext> = storedContextSchema.transform(
  (stored): AnswerContext => ({
    ...stored,
    uid: stored.uid,
    cid: stored.cid,
    msgId: stored.msgId,
    docId: stored.docId,
    threadId: stored.threadId,
    placement: stored.placement && {
      robotFlag: stored.placement.robotFlag,
      source: stored.placement.source,
      language: stored.placement.language,
      reply: stored.placement.reply,
    },
  }),
);

/** Answer contexts as JSON in the `ctx` namespace, each kept `ttlSeconds`. */
export function keptContexts(namespace: Namespaces, ttlSeconds: number): ContextStore {
  const contexts = namespace('ctx', { schema: contextSchema, ttlSeconds });
  return { put: (key, context) => contexts.set(key, context), get: (key) => contexts.get(key) };
}

const cachedTokenSchema = z.object({ token: z.string().min(1), expiresAt: z.number() });

/** The platform token under one key, and the renewal lock beside it, taken with an owner token. */
export class KeptTokenCache implements TokenCache {
  readonly #token: KeptStrings;
  readonly #lock: KeptStrings;
  readonly #now: Clock;

  constructor(token: KeptStrings, lock: KeptStrings, now: Clock = Date.now) {
    this.#token = token;
    this.#lock = lock;
    this.#now = now;
  }

  async get(): Promise<CachedToken | undefined> {
    return parseJsonWith(await this.#token.raw(''), cachedTokenSchema);
  }

  async set(entry: CachedToken): Promise<void> {
    const ttlSeconds = Math.floor((entry.expiresAt - this.#now()) / 1000);
    if (ttlSeconds < 1) return;
    await this.#token.setRaw('', JSON.stringify(entry), ttlSeconds);
  }

  async lock(ttlMs: number): Promise<(() => Promise<void>) | undefined> {
    // Random, so no other replica, and no later run of this one, holds the same token.
    const owner = randomUUID();
    const ttlSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
    if (!(await this.#lock.setRaw('', owner, ttlSeconds, { onlyIfAbsent: true }))) return undefined;
    return async () => {
      // A lock that expired and was taken by another replica stays theirs.
      await this.#lock.deleteIfEquals('', owner);
    };
  }
}
