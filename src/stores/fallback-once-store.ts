// A shared OnceStore backed by this process's own memory of its claims, for when the shared one is down.
import { StoreUnavailableError } from '../conversation/stores.js';
import type { OnceStore } from '../slack/handling/stores.js';
import { MemoryOnceStore } from './memory.js';
import type { MemoryBounds } from './namespace.js';

/** While the shared store is down this process still never acts twice on one key; another process may. */
export class FallbackOnceStore implements OnceStore {
  readonly #shared: OnceStore;
  readonly #local: MemoryOnceStore;

  /** `maxEntries`: above the claims this process makes per TTL. */
  constructor(shared: OnceStore, options: MemoryBounds) {
    this.#shared = shared;
    this.#local = new MemoryOnceStore(options);
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    let claimed: boolean;
    try {
      claimed = await this.#shared.claim(key, ttlSeconds);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      return this.#local.claim(key, ttlSeconds);
    }
    if (!claimed) return false;
    // The shared store can lose a claim (an outage, an emptied Redis): local memory still refuses it.
    return this.#local.claim(key, ttlSeconds);
  }

  async has(key: string): Promise<boolean> {
    if (await this.#local.has(key)) return true;
    try {
      return await this.#shared.has(key);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      return false;
    }
  }

  async release(key: string): Promise<void> {
    // Locally first: a failed shared release must not keep this process from handling the key again.
    await this.#local.release(key);
    await this.#shared.release(key);
  }

  async keep(key: string, ttlSeconds: number): Promise<void> {
    await this.#local.keep(key, ttlSeconds);
    await this.#shared.keep(key, ttlSeconds);
  }
}
